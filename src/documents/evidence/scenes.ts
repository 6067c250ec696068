/** The scene and tile identifiers behind every figure of the document, and the scenes skipped with why. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { FootprintPicture } from '../footprint-map.ts';
import { facts, fields, heading, para, show } from '../layout.ts';
import { sceneDate } from '../scene-date.ts';

const COLUMNS = 3;

/**
 * Identifiers set in columns, read down then across. One text per column: a long record of scenes
 * stays a handful of layout nodes, not one per line.
 */
function idColumns(ids: readonly string[]): Content {
  const per = Math.ceil(ids.length / COLUMNS);
  return {
    columns: Array.from({ length: COLUMNS }, (_, i) => ({ width: '*', text: ids.slice(i * per, (i + 1) * per).join('\n'), style: 'code', fontSize: 7 })),
    columnGap: 8,
    margin: [0, 0, 0, 6],
  };
}

/** Skipped scenes as a fixed-width listing, one line each: identifier, date, why. */
function skippedListing(skipped: EvidenceObject['skipped']): Content {
  const width = Math.max(...skipped.map((s) => s.scene.length));
  return { text: skipped.map((s) => `${s.scene.padEnd(width)}  ${s.at.slice(0, 10)}  ${s.why}`).join('\n'), style: 'code', fontSize: 6.8, margin: [0, 0, 0, 6] };
}

export function scenesSection(e: EvidenceObject, picture: FootprintPicture | null): Content[] {
  const troughDates = new Set(e.seasons.map((s) => s.trough_date).filter((d): d is string => d !== null));
  const troughScenes = e.scenes.filter((id) => troughDates.has(sceneDate(id) ?? ''));
  const settlementTiles = [...new Set(Object.values(fields(fields(e.settlement).years)).flatMap((y) => {
    const tiles = fields(y).tiles;
    return Array.isArray(tiles) ? tiles.map(String) : [];
  }))];
  return [
    heading('Annex: scenes behind the figures'),
    facts([
      ['Seasonal record, Figure 1 and the season table', `the ${e.scenes.length} kept scenes listed below`],
      ['Shade at the trough', troughScenes.length > 0 ? { text: troughScenes.join('\n'), style: 'code' } : 'the kept scenes on each season\'s trough date'],
      ['Map', picture?.scene ? { text: picture.scene, style: 'code' } : 'no scene (footprint drawn alone)'],
      ['Radar', `${show(e.radar.instrument)}, tile ${show(e.radar.tile)}, years ${show(e.radar.years_read)}`],
      ['Canopy height', `${show(e.height.instrument)}, tile ${show(e.height.tile)}`],
      ['Terrain', show(e.terrain.source)],
      ['Landsat moist-forest record', `tile ${show(fields(e.history).tile)}`],
      ['Buildings', settlementTiles.length > 0 ? settlementTiles.join(', ') : 'no tile read'],
    ]),
    { text: `Kept scenes (${e.scenes.length})`, style: 'h2' },
    idColumns(e.scenes),
    { text: `Skipped scenes (${e.skipped.length}): identifier, date, why`, style: 'h2' },
    e.skipped.length === 0
      ? para('None.')
      : skippedListing(e.skipped),
  ];
}

/** The plot the evidence is about: who refers to it, where and how large it is, and its map. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { EvidenceWrapper } from '../../reading-service/evidence-store.ts';
import type { FootprintPicture } from '../footprint-map.ts';
import { facts, fields, heading, NOT_READ, show } from '../layout.ts';
import { sceneDate } from '../scene-date.ts';

/** Register facts the evidence object does not carry, shown as registered. */
export interface PlotRegisterFacts {
  commodity: string | null;
}

const MAP_WIDTH = 215;

/** The caller's reference as the document says it; a plot registered without one says so. */
export function referenceText(wrapper: EvidenceWrapper): string {
  return wrapper.external_ref ?? 'no reference given';
}

function mapBlock(picture: FootprintPicture | null): Content {
  if (picture === null) {
    return { text: 'No map was stored with this evidence.', style: 'small', margin: [0, 30, 0, 0] };
  }
  const under = picture.scene
    ? `Footprint (yellow outline) over a true-colour chip of scene ${picture.scene}${sceneDate(picture.scene) ? `, acquired ${sceneDate(picture.scene)}` : ''}.`
    : 'No true-colour chip was stored with this evidence: the footprint is drawn alone, shaded yellow, on a plain ground.';
  return {
    stack: [
      { image: `data:image/png;base64,${picture.png.toString('base64')}`, width: MAP_WIDTH },
      { text: `${under} North is up; the bar in the lower left is ${picture.scale_bar_m} m.`, style: 'small', margin: [0, 3, 0, 0] },
    ],
  };
}

/** Where the plot stands against the floor: a multi-part plot's parts are judged each on its own, a point with no declared area on an area not known. */
function floorStanding(e: EvidenceObject, areaHa: number, floorHa: number): string {
  if (areaHa < floorHa) return 'this plot is under it, so no positive finding is issued';
  const partsUnder = e.parts?.filter((p) => p.area_ha < floorHa).length ?? 0;
  if (e.parts !== undefined && partsUnder > 0) {
    return `the plot is above it, but ${partsUnder} of its ${e.parts.length} parts are under it, and the floor applies to each part`;
  }
  if (e.reasons.includes('plot_below_evidence_floor')) return 'the plot\'s own area is not known to reach it (a point with no declared area), so no positive finding is issued';
  return 'this plot is above it';
}

export function plotSection(wrapper: EvidenceWrapper, register: PlotRegisterFacts, picture: FootprintPicture | null, noun = 'plot'): Content[] {
  const e = wrapper.evidence;
  const country = fields(fields(e.risk).country);
  const countryText = typeof country.country === 'string' ? `${show(country.country_name)} (${country.country})` : 'not given';
  const areaHa = e.plot_area_km2 * 100;
  const floorHa = e.evidence_floor_km2 * 100;
  const floor = `${floorHa} ha (${e.evidence_floor_km2} km²): ${floorStanding(e, areaHa, floorHa)}`;
  return [
    heading('The plot'),
    {
      columns: [
        {
          width: '*',
          stack: [
            facts(
              [
                ['Reference', referenceText(wrapper)],
                [`${noun[0].toUpperCase()}${noun.slice(1)} id`, { text: wrapper.plot_id, style: 'code' }],
                ['Commodity (as registered)', register.commodity ?? NOT_READ],
                ['Country of production', countryText],
                ['Area', `${areaHa.toFixed(2)} ha (${e.plot_area_km2.toFixed(4)} km²)`],
                ['Evidence floor', floor],
                ['Footprint read', e.footprint],
                ['Cutoff', `${e.cutoff} (31 December 2020)`],
                ['Issued', e.issued],
                ['Evidence state', wrapper.state],
              ],
              105,
            ),
          ],
        },
        { width: MAP_WIDTH, stack: [mapBlock(picture)] },
      ],
      columnGap: 12,
    },
  ];
}

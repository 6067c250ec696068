/**
 * The per-season record of a boundary's evidence as CSV (spec 4.6 `format=csv`): RFC 4180, CRLF
 * line ends, one header row. Every row names what it holds in its `record` column: `season` rows
 * carry the fields of spec 2.8.5 one to a column; `caveat` rows and `scene` rows carry their text
 * in `text` (a caveat in words; a scene identifier behind the figures). Text a spreadsheet would
 * run as a formula is written with a leading apostrophe (csvField), so no line of the file executes.
 */
import type { EvidenceSeason } from '../engine/evidence-object.ts';
import type { ExonerationObject } from '../reading-service/exoneration.ts';
import { csvField } from './book-summary.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from './meanings.ts';

export const SEASON_FIELDS = [
  'season', 'label', 'observations', 'plateau', 'trough', 'trough_date', 'depth', 'dipped', 'no_answer', 'truncated', 'last_observed',
] as const satisfies readonly (keyof EvidenceSeason)[];

export const SEASON_CSV_COLUMNS = ['record', ...SEASON_FIELDS, 'text'] as const;

const LANDSAT_CAVEAT: Record<ExonerationObject['landsat']['state'], string> = {
  queued: 'The Landsat half of the read is queued: these seasons are read from Sentinel-2 alone; export again once landsat.state is merged.',
  reading: 'The Landsat half of the read is being read: these seasons are read from Sentinel-2 alone; export again once landsat.state is merged.',
  merged: 'The seasons are read from Sentinel-2 and Landsat together (the Landsat half is merged).',
  failed: 'The Landsat half of the read failed: these seasons are read from Sentinel-2 alone.',
};

/** The caveats a reader of the seasons needs beside them, in words. */
export function seasonCaveats(e: ExonerationObject): string[] {
  const verdict = VERDICT_MEANINGS[e.verdict];
  return [
    ...(e.synthetic ? [`SYNTHETIC DEMO DATA: ${e.synthetic_note ?? 'read from the generated demo archive, not from observations.'}`] : []),
    `Boundary ${e.aoi_name}, issued ${e.issued}: ${verdict.title} (${e.verdict}). ${verdict.meaning}`,
    ...e.reasons.map((r) => `Reason ${r}: ${REASON_MEANINGS[r] ?? 'a code this export does not know.'}`),
    `Finding: ${e.finding}`,
    LANDSAT_CAVEAT[e.landsat.state],
    `Seasons are dry seasons of the record ${e.read.start} to ${e.read.end}; depth is the dip of the season's trough below its plateau, a reading, not a decision line. A season with no_answer had too few clear observations to measure.`,
    ...(e.seasons_without_answer.length > 0 ? [`Seasons without an answer: ${e.seasons_without_answer.join(', ')}.`] : []),
    'The figures are readings of open satellite archives: supporting evidence for due diligence, not a verdict of legality.',
  ];
}

const cell = (value: unknown): string => csvField(typeof value === 'boolean' ? String(value) : (value as string | number | null));

export function seasonCsv(e: ExonerationObject): string {
  const empty = SEASON_FIELDS.map(() => '');
  const rows: string[][] = [
    [...SEASON_CSV_COLUMNS],
    ...e.seasons.map((s) => ['season', ...SEASON_FIELDS.map((f) => cell(s[f])), '']),
    ...seasonCaveats(e).map((text) => ['caveat', ...empty, cell(text)]),
    ...e.scenes.map((scene) => ['scene', ...empty, cell(scene)]),
  ];
  return rows.map((r) => `${r.join(',')}\r\n`).join('');
}

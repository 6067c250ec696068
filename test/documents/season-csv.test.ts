/** The per-season CSV of a boundary's evidence: one header row, typed cells, and no cell a spreadsheet runs as a formula. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { SEASON_CSV_COLUMNS, seasonCaveats, seasonCsv } from '../../src/documents/season-csv.ts';
import type { ExonerationObject } from '../../src/reading-service/exoneration.ts';
import { fixtureEvidence } from '../fixtures/evidence-wrapper.ts';

function exonerationOf(changes: Partial<ExonerationObject> = {}): ExonerationObject {
  const e = fixtureEvidence();
  return { ...e, sensors: [...e.read.sensors], landsat: { state: 'queued', queued_at: '2026-11-24T06:00:00.000Z', error: null }, ...changes };
}

test('a scene identifier that reads as a formula is written with a leading apostrophe', () => {
  const e = exonerationOf({ scenes: ['=HYPERLINK("http://evil.example","x")', '+1+1', '@SUM(A1)', 'S2A_47PMQ_20200212_0_L2A'], finding: '-2+3 read as a formula' });
  const rows = parse(seasonCsv(e), { columns: true }) as Record<string, string>[];
  assert.deepEqual(rows.filter((r) => r.record === 'scene').map((r) => r.text), ["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+1+1", "'@SUM(A1)", 'S2A_47PMQ_20200212_0_L2A']);
  for (const row of rows) for (const value of Object.values(row)) assert.doesNotMatch(value, /^[=+@\t\r]|^-(?!\d)/, value);
});

test('the caveats say which half the seasons were read from, and one row each follows the seasons', () => {
  for (const [state, words] of [['queued', /Sentinel-2 alone/], ['reading', /Sentinel-2 alone/], ['merged', /Sentinel-2 and Landsat together/], ['failed', /failed/]] as const) {
    const e = exonerationOf({ landsat: { state, queued_at: '2026-11-24T06:00:00.000Z', error: state === 'failed' ? 'timeout' : null } });
    const rows = parse(seasonCsv(e)) as string[][];
    assert.deepEqual(rows[0], [...SEASON_CSV_COLUMNS]);
    const caveats = rows.filter((r) => r[0] === 'caveat').map((r) => r.at(-1));
    assert.deepEqual(caveats, seasonCaveats(e).map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
    assert.ok(caveats.some((c) => words.test(c!)), state);
    assert.equal(rows.filter((r) => r[0] === 'season').length, e.seasons.length);
  }
});

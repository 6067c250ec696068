import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { RULES } from '../src/engine/decide.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

test('demo sites --json prints one JSON array of sites, each synthetic, reaching every verdict', () => {
  const out = execFileSync(process.execPath, [MAIN, 'demo', 'sites', '--json'], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  const lines = out.split('\n').filter(Boolean);
  assert.equal(lines.length, 1);
  const sites = JSON.parse(lines[0]) as { name: string; bounds: { type: string }; country: string; commodity: string; verdict: string; reason: string; reasons: string[]; synthetic: boolean }[];
  assert.ok(sites.length >= 12);
  for (const s of sites) {
    assert.equal(s.bounds.type, 'Polygon');
    assert.match(s.country, /^[A-Z]{2}$/);
    assert.ok(s.commodity && s.reason === s.reasons[0] && s.synthetic === true, s.name);
  }
  assert.deepEqual(new Set(sites.map((s) => s.verdict)), new Set(['prior_management_evidenced', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record']));
  const reasons = new Set(sites.flatMap((s) => s.reasons));
  const codes = RULES.map((r) => r.code);
  const missing = codes.filter((c) => !reasons.has(c));
  // Two withholdings are reached through a site's variants (a failed layer), not its main truth; a record
  // covering part of the plot by plots drawn past the archive's data (test/engine/coverage.test.ts); the
  // rest by no site since issue 30's rules (test/demo/sites.test.ts says why).
  assert.deepEqual(missing.sort(), [
    'concession_layer_unavailable', 'landsat_record_unavailable', 'no_structural_reading', 'record_covers_part_of_plot',
    'shade_veto_overruled_by_structure_and_eu_maps', 'shade_veto_overruled_by_two_confident_readings', 'single_structural_reading_short_of_margin',
    'surroundings_show_the_same_dip',
  ]);
});

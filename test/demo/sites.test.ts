import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES, decide, type ReasonCode, type Verdict } from '../../src/engine/decide.ts';
import { CALIBRATION_DEFAULTS, calibrationBlockFrom } from '../../src/engine/context/calibration.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { demoSites } from '../../src/demo/archive.ts';
import { DEMO_SEED, siteModels } from '../../src/demo/world.ts';
import { approximateWrs2 } from '../../src/demo/layouts.ts';
import { mgrsSquare } from '../../src/engine/sources/products/mgrs.ts';
import { ringArea } from '../../src/demo/geometry.ts';

const VERDICTS: Verdict[] = ['prior_management_evidenced', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record'];

function decisionFor(site: (typeof DEMO_SITES)[number], unreadable?: 'gfw_wood_fiber' | 'tmf') {
  const i = site.intended;
  const context = {
    ...i.context,
    ...(unreadable === 'gfw_wood_fiber' ? { concession_layer_unavailable: true } : {}),
    ...(unreadable === 'tmf' ? { landsat_record_unavailable: true } : {}),
  };
  return decide({
    plot_area_km2: site.plot.areaHa / 100,
    area_known: true,
    cycle: i.cycle,
    shade: i.shade,
    radar: i.radar,
    height: i.height,
    terrain_outside: i.terrain_outside,
    context,
  });
}

test('every site\'s intended readings lead the decision rules to its truth, variants included', () => {
  for (const site of DEMO_SITES) {
    const d = decisionFor(site);
    assert.deepEqual(d, { verdict: site.truth.verdict, reason: site.truth.reason, reasons: site.truth.reasons }, site.name);
    for (const v of site.truth.variants ?? []) {
      assert.deepEqual(decisionFor(site, v.unreadable), { verdict: v.verdict, reason: v.reason, reasons: v.reasons }, `${site.name} with ${v.unreadable} unreadable`);
    }
  }
});

test('the truth table reaches every verdict of spec 2.9 and every reason code of spec 2.10', () => {
  const verdicts = new Set<Verdict>();
  const reasons = new Set<ReasonCode>();
  for (const s of demoSites()) {
    verdicts.add(s.verdict);
    s.reasons.forEach((r) => reasons.add(r));
    for (const v of s.variants) {
      verdicts.add(v.verdict);
      v.reasons.forEach((r) => reasons.add(r));
    }
  }
  assert.deepEqual([...verdicts].sort(), [...VERDICTS].sort());
  // Every site lies wholly inside the demo archive: partial coverage is read on plots drawn past it (test/engine/coverage.test.ts).
  // Codes no site's truth reaches: a record over part of the plot is built on the edge sites. The
  // others went when the rules stopped letting a canopy of a forest type's height confirm a crop and
  // stopped counting dips seen only through dust (issue 30): their sites now read otherwise, for
  // their pixels, and no site of the world's version was built for them. Radar and height both
  // confirming a crop under forest-like shade needs a canopy under every forest type's height; the
  // one site whose surroundings dip as it does (a deciduous forest) reads forest first.
  const unbuilt = new Set<ReasonCode>([
    'record_covers_part_of_plot', 'shade_veto_overruled_by_two_confident_readings', 'shade_veto_overruled_by_structure_and_eu_maps',
    'surroundings_show_the_same_dip', 'no_structural_reading', 'single_structural_reading_short_of_margin',
  ]);
  assert.deepEqual([...reasons].sort(), RULES.map((r) => r.code).filter((c) => !unbuilt.has(c)).sort());
});

test('sites are at distinct real places: own Sentinel-2 square, Landsat path/row and plot', () => {
  const squares = new Set<string>();
  const wrs = new Set<string>();
  for (const s of DEMO_SITES) {
    squares.add(mgrsSquare(...s.centre).code);
    const { path, row } = approximateWrs2(...s.centre);
    wrs.add(`${path}/${row}`);
  }
  assert.equal(squares.size, DEMO_SITES.length);
  assert.equal(wrs.size, DEMO_SITES.length);
  assert.equal(new Set(DEMO_SITES.map((s) => s.name)).size, DEMO_SITES.length);
});

test('plots have their declared area, and the small plot is the only one under 4 ha', () => {
  for (const m of siteModels(DEMO_SEED)) {
    assert.ok(Math.abs(ringArea(m.ring) / 10_000 - m.spec.plot.areaHa) < 1e-6, m.spec.name);
    assert.equal(m.spec.plot.areaHa < 4, m.spec.truth.reasons.includes('plot_below_evidence_floor'), m.spec.name);
  }
});

test('the frontier site\'s centroid lies in two calibration regions, so with no producer it reads without a region', () => {
  const frontier = DEMO_SITES.find((s) => s.producer === null)!;
  const block = calibrationBlockFrom(CALIBRATION_DEFAULTS, { centroid: frontier.centre });
  assert.equal(block.state, 'reads');
  assert.match(block.note, /country/i);
  const withCountry = calibrationBlockFrom(CALIBRATION_DEFAULTS, { producerCountry: frontier.country, centroid: frontier.centre });
  assert.notEqual(withCountry.region, block.region);
});

test('the site list carries bounds, country, commodity, verdict and reason for the demo command', () => {
  const list = demoSites();
  assert.equal(list.length, DEMO_SITES.length);
  for (const s of list) {
    assert.equal(s.bounds.type, 'Polygon');
    assert.equal(s.bounds.coordinates[0].length, 5);
    assert.match(s.country, /^[A-Z]{2}$/);
    assert.ok(['rubber', 'oil_palm', 'cocoa'].includes(s.commodity));
    assert.equal(s.reason, s.reasons[0]);
  }
});

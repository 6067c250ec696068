import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { parseGeoJson } from '../../src/intake/geojson.ts';
import { parseCsv } from '../../src/intake/csv.ts';
import { parseShapefileZip } from '../../src/intake/shapefile.ts';
import { writeShapefile } from '../fixtures/shapefile.ts';
import { validatePlots, type PlotReport, type ValidateOptions } from '../../src/intake/validate.ts';
import { FINDING_RULES, effectOf, type FindingCode } from '../../src/intake/findings.ts';
import { checkTopology } from '../../src/intake/topology.ts';
import { PlotOutOfTime } from '../../src/intake/plot-deadline.ts';
import { selfCrossingStar } from '../support/hostile-files.ts';
import { DEFAULT_CAPS, type IntakeCaps } from '../../src/intake/limits.ts';
import { resolveCountry } from '../../src/intake/countries.ts';
import type { Position } from '../../src/intake/types.ts';

// A square of 0.001 degrees (about 1.22 ha) near Kumasi, Ghana, counterclockwise, six decimals.
const W = -1.600123;
const E = -1.599123;
const S = 6.700456;
const N = 6.701456;
const SQUARE: Position[] = [[W, S], [E, S], [E, N], [W, N], [W, S]];
const polygon = (...rings: Position[][]) => ({ type: 'Polygon', coordinates: rings });
const point = (x = -1.600123, y = 6.700456) => ({ type: 'Point', coordinates: [x, y] });
let refs = 0;
/** A feature with a ref of its own unless the properties give one (a plot without one is reported, see no_reference). */
const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({ type: 'Feature', properties: { ref: `plot-${++refs}`, ...properties }, geometry });

function judgeAll(features: unknown[], options: ValidateOptions = { country: 'GH' }) {
  return validatePlots(parseGeoJson(Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }))), options);
}
const judge = (f: unknown, options?: ValidateOptions) => judgeAll([f], options).plots[0];

const codes = (p: PlotReport) => [...p.findings, ...p.repairs, ...p.rejections].map((f) => f.code);

/** Each finding code, a plot that triggers it, and what else must hold. */
const cases: { code: FindingCode; name: string; plot: () => PlotReport; also?: (p: PlotReport) => void }[] = [
  {
    code: 'unsupported_geometry_type',
    name: 'a LineString is refused',
    plot: () => judge(feature({ type: 'LineString', coordinates: SQUARE })),
    also: (p) => assert.equal(p.geometry, null),
  },
  { code: 'empty_geometry', name: 'a feature without geometry', plot: () => judge(feature(null)) },
  { code: 'empty_geometry', name: 'a Polygon without coordinates', plot: () => judge(feature(polygon())) },
  {
    code: 'unreadable_geometry',
    name: 'coordinates written as text',
    plot: () => judge(feature({ type: 'Polygon', coordinates: [SQUARE.map(([x, y]) => [String(x), String(y)])] })),
  },
  {
    code: 'wrong_nesting',
    name: 'a Polygon nested as a MultiPolygon is read as one',
    plot: () => judge(feature({ type: 'Polygon', coordinates: [[SQUARE]] })),
    also: (p) => {
      assert.equal(p.validation_state, 'repaired');
      assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] });
    },
  },
  {
    code: 'wrong_nesting',
    name: 'a Point written [[x, y]] is read as a point',
    plot: () => judge(feature({ type: 'Point', coordinates: [[W, S]] }, { area_ha: 1 })),
    also: (p) => assert.deepEqual(p.geometry, { type: 'Point', coordinates: [W, S] }),
  },
  {
    code: 'coordinates_not_on_earth',
    name: 'a longitude of 200 degrees',
    plot: () => judge(feature(point(200.123456, 6.700456), { area_ha: 1 }), { country: null }),
    also: (p) => assert.equal(p.geometry, null),
  },
  {
    code: 'axis_order_swapped',
    name: 'a Ghana square written latitude first is swapped back, decided with the query country',
    plot: () => judge(feature(polygon(SQUARE.map(([x, y]) => [y, x] as Position))), { country: 'GH' }),
    also: (p) => {
      assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] });
      assert.equal(p.validation_state, 'repaired');
    },
  },
  {
    code: 'axis_order_swapped',
    name: "decided with the feature's own country, which wins over the query",
    plot: () => judge(feature(point(S, W), { country: 'Ghana', area_ha: 1 }), { country: 'FR' }),
    also: (p) => {
      assert.equal(p.country, 'GH');
      assert.deepEqual(p.geometry, { type: 'Point', coordinates: [W, S] });
    },
  },
  {
    code: 'not_on_land',
    name: 'without a country, a square in the sea as written and swapped',
    plot: () => judge(feature(polygon(SQUARE.map(([x, y]) => [x + 0.4, y - 3.7] as Position))), { country: null }),
    also: (p) => assert.match(p.findings[0].message, /lies in the sea.* It lies at -1\.1996/),
  },
  {
    code: 'unclosed_ring',
    name: 'a ring not ending on its first vertex is closed',
    plot: () => judge(feature(polygon(SQUARE.slice(0, -1)))),
    also: (p) => assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] }),
  },
  {
    code: 'duplicate_vertices',
    name: 'a vertex repeated in a row is dropped',
    plot: () => judge(feature(polygon([SQUARE[0], SQUARE[1], SQUARE[1], SQUARE[2], SQUARE[3], SQUARE[4]]))),
    also: (p) => assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] }),
  },
  {
    code: 'vertices_collapse_at_6_decimals',
    name: 'two vertices 4 cm apart that the 6-decimal cut would merge',
    plot: () => judge(feature(polygon([SQUARE[0], SQUARE[1], [E + 4e-7, S + 1e-7], SQUARE[2], SQUARE[3], SQUARE[4]]))),
    also: (p) => assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] }),
  },
  {
    code: 'too_few_vertices',
    name: 'a ring of two distinct vertices',
    plot: () => judge(feature(polygon([SQUARE[0], SQUARE[1], SQUARE[0]]))),
    also: (p) => assert.equal(p.validation_state, 'rejected'),
  },
  {
    code: 'ring_orientation',
    name: 'a clockwise outer ring is reversed',
    plot: () => judge(feature(polygon([...SQUARE].reverse()))),
    also: (p) => assert.deepEqual(p.geometry, { type: 'Polygon', coordinates: [SQUARE] }),
  },
  {
    code: 'self_intersection',
    name: 'a figure eight becomes its two lobes, each a quarter of the square',
    plot: () => judge(feature(polygon([[W, S], [E, N], [E, S], [W, N], [W, S]]))),
    also: (p) => {
      assert.equal(p.geometry?.type, 'MultiPolygon');
      assert.equal((p.geometry?.coordinates as unknown[]).length, 2);
      const whole = judge(feature(polygon(SQUARE))).area_ha!;
      assert.ok(Math.abs(p.area_ha! - whole / 2) < 1e-3, `${p.area_ha} against ${whole}`);
    },
  },
  {
    code: 'invalid_rings',
    name: 'a hole lying outside its outer ring',
    plot: () => judge(feature(polygon(SQUARE, SQUARE.map(([x, y]) => [x + 0.002, y] as Position).reverse()))),
    also: (p) => assert.equal(p.validation_state, 'repaired'),
  },
  {
    code: 'overlapping_parts',
    name: 'two overlapping parts of a MultiPolygon are merged',
    plot: () =>
      judge(feature({ type: 'MultiPolygon', coordinates: [[SQUARE], [SQUARE.map(([x, y]) => [x + 0.0005, y] as Position)]] })),
    also: (p) => {
      assert.equal(p.geometry?.type, 'Polygon');
      const whole = judge(feature(polygon(SQUARE))).area_ha!;
      assert.ok(Math.abs(p.area_ha! - 1.5 * whole) < 1e-3);
    },
  },
  {
    code: 'polygon_with_holes',
    name: 'a hole is filled, as the EU system keeps only the outer boundary',
    plot: () =>
      judge(
        feature(
          polygon(SQUARE, [
            [W + 0.0004, S + 0.0004],
            [W + 0.0004, S + 0.0006],
            [W + 0.0006, S + 0.0006],
            [W + 0.0006, S + 0.0004],
            [W + 0.0004, S + 0.0004],
          ]),
        ),
      ),
    also: (p) => {
      assert.equal(p.geometry?.type, 'Polygon');
      assert.equal((p.geometry?.coordinates as unknown[]).length, 1);
      assert.match(p.repairs[0].message, /ignores holes \(GeoJSON File Description v1\.3\)/);
    },
  },
  {
    code: 'hole_covers_outer_ring',
    name: 'a hole equal to the outer ring is said so, not taken for vertices on a line',
    plot: () => judge(feature(polygon(SQUARE, [...SQUARE].reverse()))),
    also: (p) => {
      assert.equal(p.validation_state, 'rejected');
      assert.deepEqual(p.rejections.map((f) => f.code), ['hole_covers_outer_ring']);
      assert.match(p.rejections[0].message, /ignores holes .*Hole 1 is equal to the outer ring\.$/);
    },
  },
  {
    code: 'hole_covers_outer_ring',
    name: 'a hole larger than the outer ring (the rings given in the wrong order)',
    plot: () => {
      const inner: Position[] = [[W + 0.0004, S + 0.0004], [W + 0.0006, S + 0.0004], [W + 0.0006, S + 0.0006], [W + 0.0004, S + 0.0006], [W + 0.0004, S + 0.0004]];
      return judge(feature(polygon(inner, SQUARE)));
    },
    also: (p) => assert.match(p.rejections[0].message, /Hole 1 is larger than and around the outer ring\.$/),
  },
  {
    code: 'degenerate_polygon',
    name: 'three vertices on a line',
    plot: () => judge(feature(polygon([[W, S], [E, N], [(W + E) / 2, (S + N) / 2], [W, S]]))),
    also: (p) => assert.equal(p.validation_state, 'rejected'),
  },
  {
    code: 'point_over_4ha',
    name: 'a point declared 5 ha of cocoa',
    plot: () => judge(feature(point(), { area_ha: 5, commodity: 'cocoa' })),
    also: (p) => {
      assert.equal(p.validation_state, 'rejected');
      const cattle = judge(feature(point(), { area_ha: 5, commodity: 'Cattle' }));
      assert.equal(cattle.validation_state, 'valid');
    },
  },
  {
    code: 'plot_too_large',
    name: 'a polygon of 0.1 by 0.1 degrees (about 12,300 ha) over the default 10,000 ha cap',
    plot: () => judge(feature(polygon([[W, S], [W + 0.1, S], [W + 0.1, S + 0.1], [W, S + 0.1], [W, S]]))),
    also: (p) => {
      assert.equal(p.validation_state, 'rejected');
      assert.equal(p.geometry, null);
      assert.match(p.rejections[0].message, /split it.*10000 ha \(MAX_PLOT_AREA_HA\)/s);
      const capped = judge(feature(polygon(SQUARE)), { country: 'GH', caps: { ...DEFAULT_CAPS, plotAreaHa: 1 } });
      assert.deepEqual(capped.rejections.map((f) => f.code), ['plot_too_large'], 'the cap is the configured one');
      assert.equal(judge(feature(polygon(SQUARE)), { country: 'GH', caps: { ...DEFAULT_CAPS, plotAreaHa: 2 } }).validation_state, 'valid');
    },
  },
  {
    code: 'plot_too_large',
    name: 'a cattle point declared 1e9 ha: exempt from the 4 ha point rule, not from the cap',
    plot: () => judge(feature(point(), { area_ha: 1e9, commodity: 'cattle' })),
    also: (p) => {
      assert.equal(p.validation_state, 'rejected');
      assert.deepEqual(p.rejections.map((f) => f.code), ['plot_too_large']);
      assert.equal(judge(feature(point(), { area_ha: 9000, commodity: 'cattle' })).validation_state, 'valid');
    },
  },
  { code: 'point_area_too_small', name: 'a point declared 0.05 ha', plot: () => judge(feature(point(), { area_ha: 0.05 })) },
  {
    code: 'point_area_assumed',
    name: 'a point without a declared area',
    plot: () => judge(feature(point())),
    also: (p) => assert.equal(p.validation_state, 'valid'),
  },
  {
    code: 'area_mismatch',
    name: 'a 1.22 ha square declared 2 ha (and not when declared 1.25)',
    plot: () => judge(feature(polygon(SQUARE), { area_ha: 2 })),
    also: (p) => {
      assert.equal(p.validation_state, 'valid');
      assert.deepEqual(codes(judge(feature(polygon(SQUARE), { area_ha: '1,25' }))), []);
    },
  },
  { code: 'bad_area', name: 'area_ha that is not a number', plot: () => judge(feature(polygon(SQUARE), { area_ha: 'large' })) },
  {
    code: 'low_precision',
    name: 'a polygon written to four decimals',
    plot: () => judge(feature(polygon([[-1.6001, 6.7004], [-1.5991, 6.7004], [-1.5991, 6.7014], [-1.6001, 6.7014], [-1.6001, 6.7004]]))),
    also: (p) => assert.equal(p.validation_state, 'valid'),
  },
  {
    code: 'outside_country',
    name: 'a Ghana plot stated to be in France',
    plot: () => judge(feature(polygon(SQUARE)), { country: 'FR' }),
    also: (p) => assert.equal(p.validation_state, 'valid'),
  },
  {
    code: 'unknown_country',
    name: "a feature's country that is no country",
    plot: () => judge(feature(polygon(SQUARE), { country: 'Narnia' }), { country: 'GH' }),
    also: (p) => {
      assert.equal(p.validation_state, 'rejected');
      assert.equal(p.country, 'GH');
    },
  },
  {
    code: 'bad_planted_year',
    name: 'years before 1900, after the present, or not whole are left out',
    plot: () => judge(feature(polygon(SQUARE), { planted_year: 1899 }), { country: 'GH', now: new Date('2024-06-01') }),
    also: (p) => {
      assert.equal(p.planted_year, null);
      const now = new Date('2024-06-01');
      for (const year of [2025, 2015.5, 'soon']) {
        const q = judge(feature(polygon(SQUARE), { planted_year: year }), { country: 'GH', now });
        assert.deepEqual([q.planted_year, codes(q)], [null, ['bad_planted_year']], String(year));
      }
      for (const year of [1900, 2024, '2010']) {
        assert.equal(judge(feature(polygon(SQUARE), { planted_year: year }), { country: 'GH', now }).planted_year, Number(year));
      }
    },
  },
];

const producers = [
  { id: 'p1', name: 'Coop Alpha' },
  { id: 'p2', name: 'Beta Farms' },
  { id: 'p3', name: 'BETA  farms' },
];

cases.push(
  {
    code: 'producer_not_found',
    name: 'a producer name no producer has',
    plot: () => judge(feature(polygon(SQUARE), { producer: 'Gamma' }), { country: 'GH', producers }),
    also: (p) => {
      assert.equal(p.producer_id, null);
      assert.equal(p.validation_state, 'valid');
    },
  },
  {
    code: 'producer_ambiguous',
    name: 'a name two producers share once case and spacing are ignored',
    plot: () => judge(feature(polygon(SQUARE), { producer: 'beta farms' }), { country: 'GH', producers }),
    also: (p) => assert.equal(p.producer_id, null),
  },
  {
    code: 'duplicate_ref',
    name: 'the second plot with a ref already used in the file',
    plot: () => {
      const report = judgeAll([feature(polygon(SQUARE), { ref: 'A-1' }), feature(point(), { ref: 'A-1', area_ha: 1 })]);
      assert.equal(report.plots[0].validation_state, 'valid');
      return report.plots[1];
    },
    also: (p) => assert.equal(p.validation_state, 'rejected'),
  },
  {
    code: 'no_reference',
    name: 'a plot with no ref, no feature id and no reference-like property',
    plot: () => judge({ type: 'Feature', properties: { commodity: 'cocoa' }, geometry: polygon(SQUARE) }),
    also: (p) => {
      assert.equal(p.ref, null);
      assert.equal(p.validation_state, 'valid', 'it informs: the plot is taken');
      assert.match(p.findings[0].message, /re-upload .* cannot match/);
    },
  },
);

const caps = (over: Partial<IntakeCaps>): IntakeCaps => ({ ...DEFAULT_CAPS, ...over });
/** A square traced `times` times over: every lap runs along the others. */
const retraced = (times: number): Position[] => [...Array.from({ length: times }, () => SQUARE.slice(0, -1)).flat(), SQUARE[0]];

cases.push({
  code: 'geometry_too_complex',
  name: 'a plot over a cap or the time budget, named in the finding, while the rest of the file is judged',
  plot: () => {
    const report = judgeAll([feature(polygon(retraced(3))), feature(polygon(SQUARE))], { country: 'GH', caps: caps({ crossingsPerPlot: 5 }) });
    assert.equal(report.plots[1].validation_state, 'valid');
    return report.plots[0];
  },
  also: (p) => {
    assert.equal(p.validation_state, 'rejected');
    assert.equal(p.geometry, null);
    assert.match(p.rejections[0].message, /more than 5 points where its rings cross.*MAX_RING_CROSSINGS/);
    const over = (options: ValidateOptions, geometry: unknown = polygon(SQUARE)) => judge(feature(geometry), { country: 'GH', ...options }).rejections.map((f) => f.message);
    assert.match(over({ caps: caps({ verticesPerPlot: 4 }) })[0], /5 vertices.*is 4 \(MAX_VERTICES_PER_PLOT\)/);
    const twoParts = { type: 'MultiPolygon', coordinates: [[SQUARE], [SQUARE.map(([x, y]): Position => [x + 0.01, y])]] };
    assert.match(over({ caps: caps({ partsPerPlot: 1 }) }, twoParts)[0], /2 parts.*is 1 \(MAX_PARTS_PER_PLOT\)/);
    assert.match(over({ caps: caps({ plotBudgetMs: 0 }) })[0], /Judging it was stopped after \d+ ms.*is 0 ms \(PLOT_TIME_BUDGET_MS\)/);
    assert.deepEqual(over({}), []);
  },
});

for (const c of cases) {
  test(`${c.code}: ${c.name}`, () => {
    const plot = c.plot();
    const bucket = { reject: plot.rejections, repair: plot.repairs, inform: plot.findings }[effectOf(c.code)];
    const hit = bucket.find((f) => f.code === c.code);
    assert.ok(hit, `${c.code} not among ${JSON.stringify(codes(plot))}`);
    assert.ok(hit.message.length > 20);
    c.also?.(plot);
  });
}

test('invalid_text: a NUL or a lone surrogate in any property rejects the plot and the text is not read', () => {
  const nul = judge(feature(polygon(SQUARE), { ref: 'K-\u00007', commodity: 'cocoa' }));
  assert.equal(nul.validation_state, 'rejected');
  assert.deepEqual(nul.rejections.map((f) => f.code), ['invalid_text']);
  assert.match(nul.rejections[0].message, /The property is "ref"/);
  assert.equal(nul.ref, null, 'the NUL never reaches the register');
  assert.equal(nul.commodity, 'cocoa');
  const lone = judge(feature(polygon(SQUARE), { ref: 'K-8', producer: 'Coop \ud800' }));
  assert.deepEqual(lone.rejections.map((f) => f.code), ['invalid_text']);
  assert.deepEqual(codes(lone), ['invalid_text'], 'the producer name is not read, so not matched or echoed');
  assert.equal(lone.ref, 'K-8');
  const name = judge(feature(polygon(SQUARE), { ['x\udc00']: 1 }));
  assert.match(name.rejections[0].message, /The property is "x\ufffd"/, 'a bad property name is shown, not echoed');
  assert.ok(name.rejections[0].message.isWellFormed());
  assert.equal(judge(feature(polygon(SQUARE), { ref: 'Kɔkɔɔ 🌱' })).validation_state, 'valid', 'well-formed text outside the BMP is fine');
  cases.push({ code: 'invalid_text', name: 'covered above', plot: () => assert.fail() });
});

test('text quoted from the file in a finding is shown storable: a geometry type holding a NUL or a lone surrogate', () => {
  const p = judge(feature({ type: 'Line\u0000String\ud800', coordinates: SQUARE }));
  assert.deepEqual(p.rejections.map((f) => f.code), ['unsupported_geometry_type']);
  assert.match(p.rejections[0].message, /This one is a Line\ufffdString\ufffd\.$/);
});

test('ref_too_long: a ref over 200 characters rejects the plot and is not kept; 200 is taken', () => {
  const long = judge(feature(polygon(SQUARE), { ref: 'R'.repeat(201) }));
  assert.equal(long.validation_state, 'rejected');
  assert.deepEqual(long.rejections.map((f) => f.code), ['ref_too_long']);
  assert.match(long.rejections[0].message, /200 characters.*It has 201 characters\./s);
  assert.equal(long.ref, null);
  assert.equal(judge(feature(polygon(SQUARE), { ref: '🌱'.repeat(200) })).validation_state, 'valid', 'characters, not UTF-16 units, are counted');
  cases.push({ code: 'ref_too_long', name: 'covered above', plot: () => assert.fail() });
});

test('the country and axis checks read the centroid of the repaired boundary, not of the crossing one', () => {
  // A bow tie near Kumasi whose lobes are nearly equal and wound opposite ways: the signed-area centroid of
  // the ring as written lies at 5.07 E, in Nigeria; the repaired lobes' centroid lies in Ghana.
  const bowTie = [[-1.61, 6.69], [-1.59, 6.71001], [-1.59, 6.68999], [-1.61, 6.71], [-1.61, 6.69]] as Position[];
  const p = judge(feature(polygon(bowTie)));
  assert.deepEqual(codes(p), ['low_precision', 'ring_orientation', 'self_intersection']);
  assert.equal(p.geometry?.type, 'MultiPolygon');
  const swapped = judge(feature(polygon(bowTie.map(([x, y]) => [y, x] as Position))));
  assert.deepEqual(codes(swapped), ['low_precision', 'axis_order_swapped', 'ring_orientation', 'self_intersection'], 'and so is a bow tie written latitude first');
  assert.deepEqual(swapped.geometry, p.geometry);
});

test('crosses_antimeridian: a ring across 180 degrees is cut into a part on either side, its centroid in Fiji, not at 0 degrees', () => {
  const ring: Position[] = [[179.98, -16.7], [-179.99, -16.7], [-179.99, -16.69], [179.98, -16.69], [179.98, -16.7]];
  const p = judge(feature(polygon(ring), { area_ha: 354 }), { country: 'FJ' });
  assert.equal(p.validation_state, 'repaired');
  assert.deepEqual(codes(p), ['low_precision', 'crosses_antimeridian'], 'no outside_country and no area_mismatch');
  assert.equal(p.geometry?.type, 'MultiPolygon');
  const parts = (p.geometry!.coordinates as Position[][][]).map(([outer]) => outer.map(([x]) => x));
  assert.deepEqual(parts.map((xs) => [Math.min(...xs), Math.max(...xs)]), [[179.98, 180], [-180, -179.99]]);
  assert.ok(Math.abs(p.area_ha! - 354) < 3, `${p.area_ha} ha: 0.03 by 0.01 degrees, not 359.97 degrees wide`);
  const split = judge(feature({ type: 'MultiPolygon', coordinates: p.geometry!.coordinates }), { country: 'FJ' });
  assert.deepEqual(codes(split), ['low_precision'], 'the split plot re-uploaded is valid and placed in Fiji');
  cases.push({ code: 'crosses_antimeridian', name: 'covered above', plot: () => assert.fail() });
});

test('unrepairable_geometry: a JSTS failure becomes a rejection, never a crash', () => {
  const result = checkTopology([[[[0, 0], [1, 1], [1, 0], [Infinity, 1], [0, 0]]]], DEFAULT_CAPS);
  assert.equal(result.rejection?.code, 'unrepairable_geometry');
  // In the service's words, naming the point: never the library's message (its classes, the plot's linework).
  assert.match(result.rejection.message, /Edges nearly coincide where the repair stopped\. Near 1\.000000, 0\.000000\.$/);
  assert.doesNotMatch(result.rejection.message, /LINESTRING|non-noded|Exception|NaN/);
  cases.push({ code: 'unrepairable_geometry', name: 'covered above', plot: () => assert.fail() });
});

test('the repair reads the plot\'s clock inside its loops and stops where the budget runs out, not at the end', () => {
  const star = [selfCrossingStar(227, 40)];
  let checks = 0;
  const counting = { check: () => void checks++ };
  const repaired = checkTopology([star], DEFAULT_CAPS, counting);
  assert.deepEqual(repaired.rejection, undefined);
  // One reading for each crossing looked at and each face of the rebuild tested against the ring, at least.
  assert.ok(checks > 900, `${checks} readings of the clock`);
  let left = Math.floor(checks / 2);
  const spent = { check: () => { if (--left < 0) throw new PlotOutOfTime(1); } };
  assert.throws(() => checkTopology([star], DEFAULT_CAPS, spent), PlotOutOfTime);
  assert.equal(left, -1, 'stopped at the first reading past the budget');
});

test('a self-crossing star over PLOT_TIME_BUDGET_MS is rejected naming it while the next plot of the file is judged', () => {
  // The star's repair takes seconds of CPU, a square well under a millisecond once Ghana's boundary is loaded (judged first here).
  judgeAll([feature(polygon(SQUARE))]);
  const report = judgeAll([feature(polygon(selfCrossingStar(227, 100))), feature(polygon(SQUARE))], { country: 'GH', caps: caps({ plotBudgetMs: 100 }) });
  assert.equal(report.plots[0].validation_state, 'rejected');
  assert.equal(report.plots[0].geometry, null);
  assert.match(report.plots[0].rejections.at(-1)!.message, /stopped after \d+ ms; the most one plot may take is 100 ms \(PLOT_TIME_BUDGET_MS\)/);
  assert.equal(report.plots[1].validation_state, 'valid');
});

test('every finding code has a fixture that triggers it', () => {
  const covered = new Set(cases.map((c) => c.code));
  assert.deepEqual(Object.keys(FINDING_RULES).filter((code) => !covered.has(code as FindingCode)), []);
});

test('a plot without a ref takes the feature\'s id, then plot_id, plotId, PlotID, plot_ref, id, and the notes say which', () => {
  const bare = (properties: Record<string, unknown>, id?: unknown) => ({ type: 'Feature', id, properties, geometry: polygon(SQUARE) });
  const report = judgeAll([
    bare({ ref: 'R-1', plot_id: 'P-0' }, 'F-0'),
    bare({ plot_id: 'P-1', id: 'I-1' }, 'F-1'),
    bare({ id: 'I-2', plot_id: 'P-2', plot_ref: 'PR-2' }),
    bare({ plotId: 'P-3', plot_ref: 'PR-3' }),
    bare({ PlotID: 'P-4', id: 'I-4' }),
    bare({ plot_ref: 'PR-5', id: 'I-5' }),
    bare({ id: 6 }),
  ]);
  assert.deepEqual(report.plots.map((p) => p.ref), ['R-1', 'F-1', 'P-2', 'P-3', 'P-4', 'PR-5', '6']);
  assert.ok(report.plots.every((p) => !codes(p).includes('no_reference')));
  assert.deepEqual(report.notes, [
    'The reference of 1 plot(s) without a "ref" was read from the feature\'s own "id"; a re-upload matches on it.',
    'The reference of 1 plot(s) without a "ref" was read from "plot_id"; a re-upload matches on it.',
    'The reference of 1 plot(s) without a "ref" was read from "plotId"; a re-upload matches on it.',
    'The reference of 1 plot(s) without a "ref" was read from "PlotID"; a re-upload matches on it.',
    'The reference of 1 plot(s) without a "ref" was read from "plot_ref"; a re-upload matches on it.',
    'The reference of 1 plot(s) without a "ref" was read from "id"; a re-upload matches on it.',
  ]);
});

test('a CSV\'s plot_id column and a shapefile\'s id attribute are the plots\' references', async () => {
  const csv = validatePlots(parseCsv(Buffer.from('plot_id,lon,lat,area_ha\nK-1,-1.600123,6.700456,1\n')), { country: 'GH' });
  assert.equal(csv.plots[0].ref, 'K-1');
  assert.match(csv.notes.join(' '), /read from "plot_id"/);
  const { shp, shx, dbf } = writeShapefile([{ shape: { rings: [[...SQUARE].reverse()] }, properties: { id: 'S-9' } }]);
  const shapefile = validatePlots(await parseShapefileZip(zipSync({ 'p.shp': shp, 'p.shx': shx, 'p.dbf': dbf })), { country: 'GH' });
  assert.equal(shapefile.plots[0].ref, 'S-9');
  assert.match(shapefile.notes.join(' '), /read from "id"/);
});

test('matches a producer ignoring case and spacing, attaching its id', () => {
  const p = judge(feature(polygon(SQUARE), { producer: '  coop   ALPHA ' }), { country: 'GH', producers });
  assert.equal(p.producer_id, 'p1');
  assert.deepEqual(codes(p), []);
});

test('a clean plot is valid and carries every report field', () => {
  const p = judge(feature(polygon(SQUARE), { ref: 'K-7', commodity: 'cocoa', area_ha: 1.2, planted_year: 2012 }));
  assert.deepEqual(Object.keys(p).sort(), [
    'area_ha', 'commodity', 'country', 'declared_area_ha', 'findings', 'geometry', 'index', 'planted_year', 'producer_id', 'ref', 'rejections', 'repairs', 'validation_state',
  ]);
  assert.equal(p.validation_state, 'valid');
  assert.deepEqual([p.ref, p.commodity, p.country, p.planted_year, p.declared_area_ha], ['K-7', 'cocoa', 'GH', 2012, 1.2]);
  assert.ok(p.area_ha! > 1.2 && p.area_ha! < 1.25, `${p.area_ha}`);
});

test('does not report orientation where the format fixes it (a shapefile ring runs clockwise)', () => {
  const report = validatePlots(
    { format: 'shapefile', plots: [{ index: 0, geometry: polygon([...SQUARE].reverse()), properties: {}, orientationByFormat: true }], notes: [], row_errors: [], row_errors_omitted: 0 },
    { country: 'GH' },
  );
  assert.equal(report.plots[0].validation_state, 'valid');
  assert.deepEqual(report.plots[0].geometry, { type: 'Polygon', coordinates: [SQUARE] });
});

test('checks the axis order of the real Ghana file swapped, with country "Ghana"', () => {
  const file = JSON.parse(readFileSync('../shared/refdata/plots/whisp-app/feature_collection_gha.geojson', 'utf8'));
  const original = structuredClone(file.features.map((f: { geometry: unknown }) => f.geometry));
  for (const f of file.features) f.geometry.coordinates = f.geometry.coordinates.map((r: Position[]) => r.map(([x, y]) => [y, x]));
  const report = validatePlots(parseGeoJson(Buffer.from(JSON.stringify(file))), { country: resolveCountry('Ghana') });
  for (const [i, plot] of report.plots.entries()) {
    assert.ok(plot.repairs.some((f) => f.code === 'axis_order_swapped'));
    assert.deepEqual(plot.geometry, original[i]);
  }
});

test('without a country, a plot in the sea that falls on land swapped is swapped, and the notes say only land was checked', () => {
  const swapped = SQUARE.map(([x, y]) => [y, x] as Position);
  const report = judgeAll([feature(polygon(swapped))], { country: null });
  const plot = report.plots[0];
  assert.ok(codes(plot).includes('axis_order_swapped'));
  assert.match(plot.repairs.find((f) => f.code === 'axis_order_swapped')!.message, /No country was given: as written the plot lies in the sea/);
  assert.deepEqual(plot.geometry, { type: 'Polygon', coordinates: [SQUARE] });
  assert.equal(report.country, null);
  assert.ok(report.notes.some((n) => /country was not checked for 1 plot\(s\), and their axis order only against land/.test(n)));
});

test('without a country, a point off the Earth as written and on land swapped is swapped', () => {
  const p = judge(feature(point(3.100001, 101.500001), { area_ha: 1 }), { country: null }); // Kuala Lumpur, latitude first
  assert.deepEqual(p.repairs.map((f) => f.code), ['axis_order_swapped']);
  assert.match(p.repairs[0].message, /as written the plot lies off the Earth, swapped on land at 101\.500001, 3\.100001\.$/);
  assert.deepEqual(p.geometry, { type: 'Point', coordinates: [101.500001, 3.100001] });
  const nowhere = judge(feature(point(3.100001, 120.000001), { area_ha: 1 }), { country: null }); // swapped: the Celebes Sea
  assert.deepEqual(nowhere.rejections.map((f) => f.code), ['coordinates_not_on_earth']);
});

test('without a country, a plot in the sea either way is reported not on land; one on land either way is left as written', () => {
  const sea = judge(feature(point(-1.200001, 3.000001), { area_ha: 1 }), { country: null }); // Gulf of Guinea; swapped, too
  assert.deepEqual(sea.findings.map((f) => f.code), ['not_on_land']);
  assert.equal(sea.validation_state, 'valid');
  assert.deepEqual(sea.geometry, { type: 'Point', coordinates: [-1.200001, 3.000001] });
  const land = judge(feature(point(10.000001, 20.000001), { area_ha: 1 }), { country: null }); // Niger; swapped, Chad
  assert.deepEqual(codes(land), []);
  assert.deepEqual(land.geometry, { type: 'Point', coordinates: [10.000001, 20.000001] });
});

test('a CSV whose lat column holds values beyond ±90 and lon column none is read as swapped columns', () => {
  const file = parseCsv(Buffer.from('ref,lon,lat,area_ha\nM-1,3.100001,101.500001,1\nM-2,3.200001,101.600001,1\n'));
  assert.match(file.notes.join(' '), /"lat" column holds values beyond ±90 \(101\.500001, for one\) and the "lon" column none/);
  const report = validatePlots(file, { country: null });
  for (const plot of report.plots) {
    assert.deepEqual(plot.repairs.map((f) => f.code), ['axis_order_swapped']);
    assert.ok(!codes(plot).includes('coordinates_not_on_earth'));
  }
  assert.deepEqual(report.plots.map((p) => p.geometry?.coordinates), [[101.500001, 3.100001], [101.600001, 3.200001]]);
});

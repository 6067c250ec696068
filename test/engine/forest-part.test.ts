/**
 * No forest averaged away: the Surat Thani rubber plot of the demo world, cut and extended across
 * one of its edges into the forest around it, so that a tenth to three fifths of the new plot is
 * forest. Read end to end, none of them may carry a positive finding, and the finding names the
 * share of the plot that reads forest-like.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { insideRing, type Ring, ringArea, toLonLat } from '../../src/demo/geometry.ts';
import { buildSiteModel, type SiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import type { Archive } from '../../src/engine/archive.ts';
import type { ReasonCode } from '../../src/engine/decide.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { plotState } from '../../src/engine/plot-state.ts';
import { type EngineDeps, readPlot } from '../../src/engine/read-plot.ts';
import { loadSigningKey } from '../../src/engine/signing.ts';
import { createPool, type EnginePool } from '../../src/engine/worker/pool.ts';
import { demoWorld } from '../support/demo-world.ts';

const SITE = 'th-surat-thani-rubber';
/** What may stand in the way: a structural instrument, a map, or the record itself once forest dominates it. */
const NOT_A_PLANTATION: ReasonCode[] = ['structural_reading_says_forest', 'eu_forest_maps_read_forest', 'landsat_record_reads_undisturbed_forest', 'cycle_not_consistent', 'no_canopy_cycle', 'evergreen_canopy_unsupported', 'record_too_thin'];
/** The extended plots' area: over the 4 ha floor, near the site's own 9.2 ha. */
const TOTAL_M2 = 90_000;

/** The part of a ring on the inner side of a line parallel to edge `k`, `depth` metres inside it (Sutherland–Hodgman). */
function clipBehindEdge(ring: Ring, k: number, depth: number): Ring {
  const [a, b] = [ring[k], ring[(k + 1) % ring.length]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n = [(b[1] - a[1]) / len, -(b[0] - a[0]) / len];
  const inside = (p: [number, number]) => (p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1] + depth;
  const out: Ring = [];
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i];
    const q = ring[(i + 1) % ring.length];
    const fp = inside(p);
    const fq = inside(q);
    if (fp >= 0) out.push(p);
    if (fp >= 0 !== fq >= 0) {
      const t = fp / (fp - fq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

/**
 * The plot, cut to the ground within some depth of edge `k` and extended across that edge by a
 * strip `stripM` deep, the strip holding `share` of the result's area.
 */
function extendedPlot(m: SiteModel, k: number, share: number): { ring: Ring; stripM: number } {
  const ring = m.ring;
  const [a, b] = [ring[k], ring[(k + 1) % ring.length]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n = [(b[1] - a[1]) / len, -(b[0] - a[0]) / len];
  const stripM = (share * TOTAL_M2) / len;
  // The depth of plantation kept: bisected until the kept part holds the rest of the area.
  let lo = 0;
  let hi = 2000;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (ringArea(clipBehindEdge(ring, k, mid)) < (1 - share) * TOTAL_M2) lo = mid;
    else hi = mid;
  }
  const kept = clipBehindEdge(ring, k, hi);
  // Edge k survives the clip whole; the strip goes in between its two corners.
  const at = kept.findIndex((p) => p[0] === a[0] && p[1] === a[1]);
  assert.ok(at >= 0 && kept[(at + 1) % kept.length] === b, 'the kept part keeps edge k');
  const out: Ring = [...kept.slice(0, at + 1), [a[0] + stripM * n[0], a[1] + stripM * n[1]], [b[0] + stripM * n[0], b[1] + stripM * n[1]], ...kept.slice(at + 1)];
  return { ring: out, stripM };
}

/** Share of a ring's ground the site model puts in forest, sampled every 5 m. */
function forestShare(m: SiteModel, ring: Ring): number {
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  let forest = 0;
  let all = 0;
  for (let x = Math.min(...xs) + 2.5; x < Math.max(...xs); x += 5) {
    for (let y = Math.min(...ys) + 2.5; y < Math.max(...ys); y += 5) {
      if (!insideRing(x, y, ring)) continue;
      all++;
      if (m.coverAt(x, y, 18_000) === 'forest') forest++;
    }
  }
  return forest / all;
}

let deps: EngineDeps;
let pool: EnginePool;
let archive: Archive;
let dataDir: string;

before(async () => {
  const { root } = await demoWorld(DEMO_SITES.map((s) => s.name));
  dataDir = mkdtempSync(join(tmpdir(), 'pce-forest-part-'));
  archive = await openDemoArchive({ dataDir, root });
  pool = createPool({ size: 1 });
  deps = { archive, pool, tiles: new DecodedTiles(), signingKey: loadSigningKey(null, dataDir) };
});

after(async () => {
  await pool.close();
  await archive.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const spec = DEMO_SITES.find((s) => s.name === SITE)!;
const model = buildSiteModel(spec, DEMO_SEED);
/** The edge whose outer strip is most forest on the site model: the rubber's surround is forest with rubber patches. */
const EDGE = [0, 1, 2, 3].map((k) => ({ k, forest: forestShare(model, extendedPlot(model, k, 0.6).ring) })).sort((x, y) => y.forest - x.forest)[0].k;

for (const share of [0.1, 0.25, 0.4, 0.6]) {
  test(`the rubber plot extended into the forest by ${share * 100}% of its area reads no positive finding, and says how much reads forest-like`, async () => {
    const { ring, stripM } = extendedPlot(model, EDGE, share);
    const truth = forestShare(model, ring);
    assert.ok(Math.abs(truth - share) < 0.05, `the plot is ${(truth * 100).toFixed(1)}% forest on the site model, meant ${share * 100}%`);
    const lonLat = [...ring, ring[0]].map(([x, y]) => toLonLat(model.frame, x, y));
    const reading = await readPlot({
      id: `forest-part-${share}`, workspaceId: 'forest-part', ref: `extended-${share}`,
      geometry: { type: 'Polygon', coordinates: [lonLat] }, areaHa: ringArea(ring) / 10_000, declaredAreaHa: null, country: spec.country, producerCountry: spec.country,
    }, deps);
    const e = reading.evidence;
    const say = `${share * 100}% forest (strip ${stripM.toFixed(0)} m): ${e.verdict} ${e.reasons.join(',')} — ${e.finding}`;
    assert.notEqual(e.verdict, 'prior_management_evidenced', say);
    assert.ok(e.reasons.some((r) => NOT_A_PLANTATION.includes(r)), say);
    // Where the record still reads a cycle, the instruments' forest is the reason, and the part without the dip is named.
    if (e.seasons_with_dip >= 3) {
      assert.equal(e.reason, 'structural_reading_says_forest', say);
      assert.equal(e.phase_locked, false, say);
      assert.match(e.finding, /ha \(\d+%\) in the \S+ shows no dry-season dip/, say);
    }
    // Canopy height is read per 30 m block, so even the thinnest strip is found, and its share named.
    assert.equal(e.height.forest_like, true, say);
    const named = e.height.blocks!.forest_like_share!;
    assert.ok(Math.abs(named - truth) < 0.1, `height names ${named} of the plot forest-like, the model ${truth.toFixed(3)}: ${say}`);
    assert.ok(e.finding.includes(`(${Math.round(named * 100)}%)`), say);
    // The register's summary uses the same blocks: a plot with a forest part is never "cleared before 2021".
    assert.ok(Math.abs(reading.facts.forest_part_share! - truth) < 0.1, JSON.stringify(reading.facts));
    const summary = plotState({ ...reading.facts, evidence_state: 'done', area_ha: ringArea(ring) / 10_000, positive_finding: false }).summary;
    assert.doesNotMatch(summary, /cleared before 2021/);
    assert.match(summary, /Structural readings: forest-like on \d+% of the plot\./);
  });
}

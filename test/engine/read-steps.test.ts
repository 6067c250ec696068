// A plot's record is read a group of scenes at a time, each group's tiles let go before the next
// is shipped: whatever the groups, the plot task answers exactly what one group of the whole record gives.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Archive } from '../../src/engine/archive.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { sceneGroups } from '../../src/engine/plan/clear-scenes.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { planRead } from '../../src/engine/plan/read-plan.ts';
import { computePlan } from '../../src/engine/read-plot.ts';
import { demoWorld } from '../support/demo-world.ts';
import { plotToRead, thisThread } from '../support/read-plot.ts';

const dir = mkdtempSync(join(tmpdir(), 'pce-steps-'));
let archive: Archive;
/** Sites whose shade was read per block, at their trough scenes, in a step of its own. */
const shaded: string[] = [];

before(async () => {
  const { root } = await demoWorld();
  archive = await openDemoArchive({ dataDir: dir, root });
});
after(async () => {
  await archive?.close();
  rmSync(dir, { recursive: true, force: true });
});

function sitePlot(name: string) {
  const spec = DEMO_SITES.find((s) => s.name === name)!;
  return plotToRead({ type: 'Polygon', coordinates: [buildSiteModel(spec, DEMO_SEED).lonLatRing] }, spec.country, name);
}

for (const name of ['th-surat-thani-rubber', 'kh-kampong-cham-record', 'gh-dust-no-structure', 'ci-tai-cleared-2022']) {
  test(`${name}: the record read in groups gives what the whole record read at once gives`, async () => {
    const plan = await planRead(sitePlot(name), archive);
    const whole = await computePlan(plan, { pool: thisThread, tiles: new DecodedTiles({ maxBytes: 2 ** 40 }) });
    const tiles = new DecodedTiles({ maxBytes: 0 });
    const grouped = await computePlan(plan, { pool: thisThread, tiles });
    const groups = sceneGroups(grouped.plan, 64 * 2 ** 20);
    assert.ok(groups.length > 1, `the record is read in ${groups.length} group(s)`);
    assert.equal(sceneGroups(whole.plan, 2 ** 40).length, 1);
    assert.deepEqual(grouped.plan, whole.plan);
    assert.deepEqual(grouped.result, whole.result);
    assert.equal(whole.result.shade_blocks, false);
    if (whole.result.structure.blocks !== null) shaded.push(name);
  });
}

test('the shade per block was read at the troughs of a site whose plot-wide shade answered', () => {
  assert.ok(shaded.length > 0, 'no site read its shade per block');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openByteSource } from '../../src/engine/sources/byte-source.ts';
import { openCog } from '../../src/engine/sources/cog.ts';
import { DemoArchiveError, demoPlotBookPath, ensureDemoArchive } from '../../src/demo/archive.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_WORLD_VERSION, WORLD_MANIFEST, generateDemoWorld } from '../../src/demo/world.ts';
import { demoWorld } from '../support/demo-world.ts';
import { sharedDemoData } from '../support/processes.ts';

const SOME = ['ci-bouafle-eu-maps', 'lk-kalutara-inconsistent'];

async function digest(root: string): Promise<string> {
  const h = createHash('sha256');
  for (const f of (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort()) {
    h.update(f.slice(root.length)).update(await readFile(f));
  }
  return h.digest('hex');
}

test('the same seed gives the same bytes, whatever the number of threads; another seed does not', async () => {
  const dirs = await Promise.all([1, 2, 3].map(() => mkdtemp(join(tmpdir(), 'demo-world-'))));
  try {
    await generateDemoWorld(dirs[0], { sites: SOME, threads: 1 });
    await generateDemoWorld(dirs[1], { sites: SOME, threads: 2 });
    await generateDemoWorld(dirs[2], { sites: SOME, threads: 2, seed: 'another world' });
    const [a, b, c] = await Promise.all(dirs.map(digest));
    assert.equal(a, b);
    assert.notEqual(a, c);
  } finally {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
});

test('everything the generator writes says it is synthetic', async () => {
  const { root } = await demoWorld();
  const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const json = files.filter((f) => f.endsWith('.json'));
  const tifs = files.filter((f) => /\.tif$/i.test(f));
  assert.ok(json.length > 100 && tifs.length > 1000);
  for (const f of json) {
    const text = await readFile(f, 'utf8');
    assert.match(text, /"(demo:)?synthetic": true/, f);
  }
  // Every product folder: a COG says so in its GDAL metadata.
  const byHost = new Map<string, string>();
  for (const f of tifs) byHost.set(f.slice(root.length + 1).split('/')[0], f);
  for (const f of byHost.values()) {
    const cog = await openCog(openByteSource(f));
    assert.equal(cog.metadata.SYNTHETIC, 'demo', f);
  }
});

test('the world manifest records its version, seed, sites and the BOA cases of its scenes', async () => {
  const { root, manifest } = await demoWorld();
  assert.deepEqual(JSON.parse(await readFile(join(root, WORLD_MANIFEST), 'utf8')), manifest);
  assert.equal(manifest.version, DEMO_WORLD_VERSION);
  assert.ok(manifest.sentinel2.some((s) => s.offsetInPixels && s.flag), 'a scene flagged "applied" that still holds the offset');
  assert.ok(manifest.sentinel2.some((s) => !s.offsetInPixels && !s.flag && s.date >= '2022-01-25'), 'a scene flagged "not applied" that lost it');
  assert.ok(manifest.sentinel2.some((s) => s.offsetInPixels && !s.flag), 'a scene rightly flagged "not applied"');
});

test('ensureDemoArchive leaves alone a folder that is not a demo archive', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'demo-data-'));
  try {
    await mkdir(join(dataDir, 'archive'));
    await writeFile(join(dataDir, 'archive', 'mine.tif'), 'not demo');
    await assert.rejects(ensureDemoArchive(dataDir), (e: unknown) => e instanceof DemoArchiveError && e.code === 'archive_not_demo');
    assert.equal(await readFile(join(dataDir, 'archive', 'mine.tif'), 'utf8'), 'not demo');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('ensureDemoArchive generates the world and its plot book once, then only confirms them', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'demo-data-'));
  try {
    // Two sites: the full world is generated once per machine for the tests that read it (below).
    const [first, second] = await Promise.all([ensureDemoArchive(dataDir, SOME), ensureDemoArchive(dataDir, SOME)]);
    assert.deepEqual([first.generated, second.generated].sort(), [false, true]);
    assert.deepEqual(await ensureDemoArchive(dataDir, SOME), { generated: false, version: DEMO_WORLD_VERSION });
    const book = JSON.parse(await readFile(demoPlotBookPath(dataDir), 'utf8'));
    assert.deepEqual([...new Set(book.features.map((f: { properties: { demo_site: string } }) => f.properties.demo_site))].sort(), [...SOME].sort());
    // A stale world (another generator version) is replaced.
    const manifestPath = join(dataDir, 'archive', WORLD_MANIFEST);
    const m = JSON.parse(await readFile(manifestPath, 'utf8'));
    await writeFile(manifestPath, JSON.stringify({ ...m, version: '0.0.0' }));
    assert.equal((await ensureDemoArchive(dataDir, SOME)).generated, true);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('the default demo archive holds every demo site, and its plot book every site\'s plot as the portal takes it', async () => {
  const book = JSON.parse(await readFile(demoPlotBookPath(await sharedDemoData()), 'utf8'));
  assert.equal(book.synthetic, true);
  const sites = new Set(book.features.map((f: { properties: { demo_site: string } }) => f.properties.demo_site));
  assert.equal(sites.size, DEMO_SITES.length);
  for (const f of book.features) {
    const p = f.properties;
    assert.match(p.ref, /^DEMO-[A-Z]{2}-\d{2}(-P)?$/);
    assert.ok(p.commodity && /^[A-Z]{2}$/.test(p.country) && p.area_ha > 0);
    if (f.geometry.type === 'Polygon') assert.ok(f.geometry.coordinates[0].every((c: number[]) => c.every((v) => Math.round(v * 1e6) / 1e6 === v)));
  }
  assert.ok(book.features.some((f: { geometry: { type: string } }) => f.geometry.type === 'Point'));
  assert.ok(book.features.some((f: { properties: { area_ha: number } }) => f.properties.area_ha < 4));
});

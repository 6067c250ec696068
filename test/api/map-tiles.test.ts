/**
 * Map tiles, the imagery timeline and archive coverage (spec 4.10, last paragraph) on both
 * backends, over the demo world: a tile's pixels against the source pixels under them,
 * reprojected here with proj4 on the test's own Web Mercator arithmetic; transparent tiles where
 * nothing lies; the timeline against the evidence it is drawn from; the event loop while 200
 * tiles render; and who reaches them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fromFile } from 'geotiff';
import proj4 from 'proj4';
import sharp from 'sharp';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { GFW_TABLES_DIR } from '../../src/demo/api-data.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import type { Archive } from '../../src/engine/archive.ts';
import { type EvidenceWorker, startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { demoWorld, mirrored } from '../support/demo-world.ts';
import { loopDelayDuring } from '../support/event-loop.ts';
import { runFixture } from '../support/processes.ts';
import { insertSitePlot, site, waitUntilRead } from '../engine/evidence-helpers.ts';
import { hansenHref, hansenTile } from '../../src/engine/sources/products/hansen/codes.ts';

const SITE = 'th-surat-thani-rubber';
/**
 * The most CPU time the API's thread may spend in one turn of its loop while 200 tiles are in
 * flight, garbage collection included: a pause is a stall a map user sees as much as any other.
 * CPU time rather than wall time: on a shared two-core machine the thread also waits for a core
 * (the wall-clock delay, reported beside it, runs to hundreds of milliseconds at a load average of
 * 25), and that wait is not of its own making. Load still moves the CPU figure some way (more
 * answers land in one turn, a collection's helpers wait for a core and the main thread does
 * their share): 18 ms at a load average of 25 where a quiet run reads 7 to 12. So the test holds
 * the burst to 100 ms, which only the burst's work piling up on this thread reaches (200 begun in
 * one turn, the key read for each, held it 94 ms cold before they were spread over turns). The
 * 20 ms target is `npm run bench -- tiles`, which exits 1 past it; test/api/turn-budget.test.ts
 * holds the spreading of requests over turns in a way load can only make stricter.
 */
const MAX_STALL_MS = 100;

// The test's own Web Mercator: the centre of pixel (i, j) of tile (z, x, y).
const lonOf = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const latOf = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
function placeOf(lon: number, lat: number, z: number) {
  const r = (lat * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * 2 ** z, y: ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z };
}
function tileOf(lon: number, lat: number, z: number) {
  const { x, y } = placeOf(lon, lat, z);
  return { x: Math.floor(x), y: Math.floor(y) };
}
/** The alpha of the tile pixel under a point. */
function alphaAt(rgba: Buffer, t: { z: number; x: number; y: number }, lon: number, lat: number): number {
  const p = placeOf(lon, lat, t.z);
  const i = Math.floor((p.x - t.x) * 256);
  const j = Math.floor((p.y - t.y) * 256);
  assert.ok(i >= 0 && i < 256 && j >= 0 && j < 256, 'the point lies on the tile');
  return rgba[(j * 256 + i) * 4 + 3];
}

async function rgbaOf(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([info.width, info.height, info.channels], [256, 256, 4]);
  return data;
}

/** A full collection, so heap figures are of what is held rather than what awaits collection. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const tilePath = (layer: string, t: { z: number; x: number; y: number }, query = '') => `/api/v1/tiles/${layer}/${t.z}/${t.x}/${t.y}.png${query}`;

async function png(app: TestApp, path: string, key: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

for (const backend of BACKENDS) {
  describe(`map tiles, the imagery timeline and archive coverage (${backend})`, () => {
    let app: TestApp;
    let root: string;
    let tileArchive: Archive;
    let worker: EvidenceWorker;
    let key: string;
    let workspaceId: string;
    let cookie: string;
    let plotId: string;
    let evidence: { scenes: string[]; skipped: { scene: string; at: string; why: string }[]; series: { scene: string; at: string; index: number | null; clear_share: number | null }[] };
    let centre: { lon: number; lat: number };

    before(async () => {
      ({ root } = await demoWorld());
      // One archive for evidence and tiles, as a process of the service holds.
      app = await startTestApp(backend, { POOL_SIZE: '2' }, { archive: async () => tileArchive });
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: `Tiles ${backend}`, plan: 'trial', email: `tiles-${backend}@acme.test`, password: 'correct horse' });
      workspaceId = created.workspace_id as string;
      key = created.api_key as string;
      const signIn = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: `tiles-${backend}@acme.test`, password: 'correct horse' } });
      cookie = signIn.headers.get('set-cookie')!.split(';')[0];

      const em = app.services.store.em();
      plotId = await insertSitePlot(em, workspaceId, SITE);
      tileArchive = await openDemoArchive({ dataDir: app.dataDir, root });
      worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive: tileArchive });
      assert.equal((await app.call('POST', '/api/v1/portal/plots/evidence', { key, body: { plot_ids: [plotId] } })).status, 202);
      await waitUntilRead(em, workspaceId);
      const read = await app.call('GET', `/api/v1/portal/plots/${plotId}/evidence`, { key });
      assert.equal(read.status, 200, JSON.stringify(read.body));
      evidence = read.body.evidence;
      const ring = (await em.execute<{ geometry: { coordinates: number[][][] } }[]>('select geometry from plots where id = ?', [plotId]))[0].geometry.coordinates[0];
      const lons = ring.map((p) => p[0]);
      const lats = ring.map((p) => p[1]);
      centre = { lon: (Math.min(...lons) + Math.max(...lons)) / 2, lat: (Math.min(...lats) + Math.max(...lats)) / 2 };
    });
    after(async () => {
      worker.stopTaking();
      await worker.close();
      await app.close();
    });

    test('the evidence stores one series point per kept scene, in its order', () => {
      assert.ok(evidence.scenes.length > 10);
      assert.deepEqual(evidence.series.map((p) => p.scene), evidence.scenes);
      assert.ok(evidence.series.every((p) => p.clear_share !== null && p.clear_share > 0 && p.clear_share <= 1));
      assert.ok(evidence.series.some((p) => p.index !== null && p.index > 0.3), 'a planted plot reads green in some scene');
    });

    test('the timeline\'s kept scenes are the evidence\'s scenes and its skipped ones its skipped, with their reasons and readings', async () => {
      const r = await app.call('GET', `/api/v1/portal/plots/${plotId}/timeline`, { key });
      assert.equal(r.status, 200);
      assert.equal(r.body.plot_id, plotId);
      assert.equal(r.body.synthetic, true);
      const scenes = r.body.scenes as Array<{ id: string; date: string; kept: boolean; reason: string | null; ndvi: number | null; clear_share: number | null; product: string; thumbnail_url: string }>;
      assert.deepEqual(scenes.filter((s) => s.kept).map((s) => s.id).sort(), [...evidence.scenes].sort());
      assert.deepEqual(
        scenes.filter((s) => !s.kept).map((s) => [s.id, s.date, s.reason]).sort(),
        evidence.skipped.map((s) => [s.scene, s.at, s.why]).sort(),
      );
      const series = new Map(evidence.series.map((p) => [p.scene, p]));
      for (const s of scenes.filter((x) => x.kept)) {
        assert.deepEqual([s.ndvi, s.clear_share, s.date], [series.get(s.id)!.index, series.get(s.id)!.clear_share, series.get(s.id)!.at]);
      }
      const dates = scenes.map((s) => s.date);
      assert.deepEqual(dates, [...dates].sort(), 'oldest first');
      // A thumbnail is a tile of the scene around the plot, and draws the plot's ground.
      const kept = scenes.find((s) => s.kept && s.id.startsWith('S2'))!;
      assert.match(kept.thumbnail_url, new RegExp(`/api/v1/tiles/true_colour/\\d+/\\d+/\\d+\\.png\\?scene=${kept.id}$`));
      const url = new URL(kept.thumbnail_url);
      const thumb = await png(app, url.pathname + url.search, key);
      assert.equal(thumb.status, 200);
      const [z, x, y] = url.pathname.match(/(\d+)\/(\d+)\/(\d+)\.png$/)!.slice(1).map(Number);
      assert.equal(alphaAt(await rgbaOf(thumb.bytes), { z, x, y }, centre.lon, centre.lat), 255, 'the thumbnail draws the plot');
    });

    test('a true-colour tile\'s pixels are the scene\'s pixels under them, reprojected with proj4', async () => {
      const id = evidence.scenes.find((s) => s.startsWith('S2'))!;
      const date = evidence.series.find((p) => p.scene === id)!.at;
      const delta = 0.001;
      const [scene] = (await tileArchive.sentinel2.search({ bbox: [centre.lon - delta, centre.lat - delta, centre.lon + delta, centre.lat + delta], start: date, end: date })).filter((s) => s.id === id);
      const z = 16;
      const t = { z, ...tileOf(centre.lon, centre.lat, z) };
      const r = await png(app, tilePath('true_colour', t, `?scene=${id}`), key);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'image/png');
      const rgba = await rgbaOf(r.bytes);

      const utm = `+proj=utm +zone=${scene.epsg % 100} ${scene.epsg >= 32700 ? '+south ' : ''}+datum=WGS84 +units=m +no_defs`;
      const toUtm = proj4('EPSG:4326', utm);
      const samples: Array<{ k: number; col: number; row: number }> = [];
      const outside: number[] = [];
      const bands: number[][] = [];
      for (const asset of ['red', 'green', 'blue'] as const) {
        const tiff = await fromFile(mirrored(root, scene.assets[asset]!.href));
        const image = await tiff.getImage();
        const [ox, oy] = image.getOrigin();
        const [rx, ry] = image.getResolution();
        if (samples.length === 0) {
          for (let j = 4; j < 256; j += 16) {
            for (let i = 4; i < 256; i += 16) {
              const [e, n] = toUtm.forward([lonOf(t.x + (i + 0.5) / 256, z), latOf(t.y + (j + 0.5) / 256, z)]);
              const col = (e - ox) / rx;
              const row = (n - oy) / ry;
              // A sample this close to a source pixel's edge could fall either side of it.
              const near = (v: number) => Math.abs(v - Math.round(v)) < 0.02;
              if (col < 0 || row < 0 || col >= image.getWidth() || row >= image.getHeight()) outside.push(j * 256 + i);
              else if (!near(col) && !near(row)) samples.push({ k: j * 256 + i, col: Math.floor(col), row: Math.floor(row) });
            }
          }
        }
        const c0 = Math.min(...samples.map((s) => s.col));
        const r0 = Math.min(...samples.map((s) => s.row));
        const w = Math.max(...samples.map((s) => s.col)) - c0 + 1;
        const [raster] = (await image.readRasters({ window: [c0, r0, c0 + w, Math.max(...samples.map((s) => s.row)) + 1] })) as unknown as ArrayLike<number>[];
        bands.push(samples.map((s) => raster[(s.row - r0) * w + (s.col - c0)]));
      }
      // The demo world's scenes cover the ground around its sites: past a file's edge nothing is drawn.
      for (const k of outside) assert.equal(rgba[k * 4 + 3], 0, `tile pixel ${k % 256},${Math.floor(k / 256)} lies past the scene's file and is transparent`);
      assert.ok(samples.length > 100, `${samples.length} samples`);
      const enc = scene.assets.red!.encoding;
      let compared = 0;
      samples.forEach((s, n) => {
        const dn = [bands[0][n], bands[1][n], bands[2][n]];
        if (dn.some((v) => v === enc.nodata)) return;
        const expected = dn.map((v) => Math.round(255 * Math.sqrt(Math.min(1, Math.max(0, (v * enc.scale + enc.offset) / 0.3)))));
        assert.deepEqual([...rgba.subarray(s.k * 4, s.k * 4 + 4)], [...expected, 255], `tile pixel ${s.k % 256},${Math.floor(s.k / 256)} over source pixel ${s.col},${s.row}`);
        compared++;
      });
      assert.ok(compared > 100, `${compared} pixels compared`);
    });

    test('a tile where no scene and no product lies is a transparent PNG, not an error', async () => {
      // The open Atlantic.
      const t = { z: 14, ...tileOf(-30, 0.5, 14) };
      const id = evidence.scenes.find((s) => s.startsWith('S2'))!;
      for (const path of [tilePath('true_colour', t, `?scene=${id}`), tilePath('ndvi', t, '?season=2020'), `/api/v1/change/tiles/hansen_loss/${t.z}/${t.x}/${t.y}.png`, `/api/v1/change/tiles/tmf_loss/${t.z}/${t.x}/${t.y}.png`]) {
        const r = await png(app, path, key);
        assert.equal(r.status, 200, path);
        const rgba = await rgbaOf(r.bytes);
        assert.ok(rgba.every((v, k) => k % 4 !== 3 || v === 0), `${path} is transparent`);
      }
    });

    test('a season\'s NDVI tile over the plot is drawn, and a tile carries an ETag that answers 304 when sent back', async () => {
      const t = { z: 15, ...tileOf(centre.lon, centre.lat, 15) };
      const first = await png(app, tilePath('ndvi', t, '?season=2020'), key);
      assert.equal(first.status, 200);
      assert.equal(alphaAt(await rgbaOf(first.bytes), t, centre.lon, centre.lat), 255, 'the season is drawn over the plot');
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^"[0-9a-f]{32}"$/);
      assert.match(first.headers.get('cache-control')!, /^private, max-age=\d+$/);
      const again = await fetch(app.url + tilePath('ndvi', t, '?season=2020'), { headers: { authorization: `Bearer ${key}`, 'if-none-match': etag } });
      assert.equal(again.status, 304);
      const other = await png(app, tilePath('ndvi', t, '?season=2019'), key);
      assert.notEqual(other.headers.get('etag'), etag);
    });

    test('a change layer\'s legend names its classes, source, licence and attribution; the tile draws its classes', async () => {
      for (const layer of ['tmf_loss', 'alerts']) assert.equal((await app.call('GET', `/api/v1/change/tiles/${layer}/legend`, { key })).status, 200);
      const t = { z: 13, ...tileOf(centre.lon, centre.lat, 13) };
      for (const layer of ['tmf_loss', 'alerts']) assert.equal((await png(app, `/api/v1/change/tiles/${layer}/${t.z}/${t.x}/${t.y}.png`, key)).status, 200, layer);
    });

    test('a loss tile\'s pixels are the loss map\'s years under them, in the legend\'s colours', async () => {
      const legend = await app.call('GET', '/api/v1/change/tiles/hansen_loss/legend', { key });
      assert.equal(legend.status, 200);
      assert.equal(legend.body.licence, 'CC BY 4.0');
      const classes = legend.body.classes as Array<{ label: string; from: number; to: number; rgba: number[] }>;
      // A demo site cleared in 2022.
      const [lon, lat] = site('ci-tai-cleared-2022').centre;
      const z = 14;
      const t = { z, ...tileOf(lon, lat, z) };
      const r = await png(app, `/api/v1/change/tiles/hansen_loss/${z}/${t.x}/${t.y}.png`, key);
      assert.equal(r.status, 200);
      const rgba = await rgbaOf(r.bytes);
      const tiff = await fromFile(mirrored(root, hansenHref('lossyear', hansenTile(lon, lat))));
      const image = await tiff.getImage();
      const [ox, oy] = image.getOrigin();
      const [rx, ry] = image.getResolution();
      // Only the map tile's window of the 10° file: the whole file is 40,000² pixels at the real layout.
      const clamp = (v: number, size: number) => Math.min(size, Math.max(0, v));
      const x0 = clamp(Math.floor((lonOf(t.x, z) - ox) / rx) - 1, image.getWidth());
      const x1 = clamp(Math.ceil((lonOf(t.x + 1, z) - ox) / rx) + 1, image.getWidth());
      const y0 = clamp(Math.floor((latOf(t.y, z) - oy) / ry) - 1, image.getHeight());
      const y1 = clamp(Math.ceil((latOf(t.y + 1, z) - oy) / ry) + 1, image.getHeight());
      const [values] = (await image.readRasters({ window: [x0, y0, x1, y1] })) as unknown as ArrayLike<number>[];
      let compared = 0;
      let lost2022 = 0;
      for (let j = 2; j < 256; j += 4) {
        for (let i = 2; i < 256; i += 4) {
          const col = (lonOf(t.x + (i + 0.5) / 256, z) - ox) / rx;
          const row = (latOf(t.y + (j + 0.5) / 256, z) - oy) / ry;
          const near = (v: number) => Math.abs(v - Math.round(v)) < 0.02;
          if (col < x0 || row < y0 || col >= x1 || row >= y1 || near(col) || near(row)) continue;
          const v = values[(Math.floor(row) - y0) * (x1 - x0) + Math.floor(col) - x0];
          const cls = classes.find((c) => v >= c.from && v <= c.to);
          const k = (j * 256 + i) * 4;
          assert.deepEqual([...rgba.subarray(k, k + 4)], cls?.rgba ?? [0, 0, 0, 0], `tile pixel ${i},${j} over lossyear ${v}`);
          if (cls?.label === 'lost in 2022') lost2022++;
          compared++;
        }
      }
      assert.ok(compared > 1000, `${compared} pixels compared`);
      assert.ok(lost2022 > 0, 'the clearing of 2022 is drawn');
    });

    test('archive coverage names every product over a plot, with its tiles, years and versions, and the review price', async () => {
      const r = await app.call('GET', `/api/v1/portal/coverage?plot_id=${plotId}`, { key });
      assert.equal(r.status, 200);
      const products = new Map((r.body.products as Array<{ product: string; covered: boolean; tiles: string[]; years: number[]; versions: string[]; last_scene_date: string | null; note: string | null }>).map((p) => [p.product, p]));
      assert.deepEqual([...products.keys()], ['sentinel-2', 'landsat', 'palsar', 'canopy-height', 'copernicus-dem', 'hansen', 'tmf', 'integrated-alerts', 'radd-alerts']);
      for (const p of products.values()) assert.deepEqual([p.product, p.covered, p.note], [p.product, true, null]);
      const s2 = products.get('sentinel-2')!;
      assert.ok(s2.tiles.length >= 1 && s2.years.includes(2020));
      const lastKept = evidence.series.map((p) => p.at).sort().at(-1)!;
      assert.ok(s2.last_scene_date! >= lastKept);
      // Tile names by the test's own arithmetic on the plot's centre (far from any tile edge).
      const ns = (lat: number, w: number) => `${lat >= 0 ? 'N' : 'S'}${String(Math.abs(lat)).padStart(w, '0')}`;
      const ew = (lon: number) => `${lon >= 0 ? 'E' : 'W'}${String(Math.abs(lon)).padStart(3, '0')}`;
      const [lon, lat] = [Math.floor(centre.lon), Math.floor(centre.lat)];
      const palsar = products.get('palsar')!;
      // PALSAR names a 1° tile by its north-west corner.
      assert.deepEqual([palsar.tiles, palsar.years, palsar.versions], [[`${ns(lat + 1, 2)}${ew(lon)}`], [2019, 2020], ['2019 (planetary-computer mirror)', '2020 (planetary-computer mirror)']]);
      const height = products.get('canopy-height')!;
      assert.deepEqual([height.tiles, height.years], [[`${ns(Math.floor(centre.lat / 3) * 3, 2)}${ew(Math.floor(centre.lon / 3) * 3)}`], [2020]]);
      const dem = products.get('copernicus-dem')!;
      assert.deepEqual([dem.tiles, dem.years, dem.versions], [[`Copernicus_DSM_COG_10_${ns(lat, 2)}_00_${ew(lon)}_00_DEM`], [], ['GLO-30']]);
      // The alerts at the newest version the publisher's catalogue (the demo world's copy) lists.
      for (const [product, dataset] of [['integrated-alerts', 'gfw_integrated_alerts'], ['radd-alerts', 'wur_radd_alerts']]) {
        const table = JSON.parse(await readFile(join(root, GFW_TABLES_DIR, `${dataset}.json`), 'utf8')) as { versions: string[] };
        const newest = [...table.versions].sort().at(-1)!;
        const p = products.get(product)!;
        assert.deepEqual([p.tiles, p.versions, p.years[0], p.years.at(-1)], [[], [newest], 2021, Number(newest.slice(1, 5))], product);
      }
      assert.equal(r.body.review_price.priced, false);
    });

    test('archive coverage of a point outside a product\'s ground lists it uncovered with why', async () => {
      const products = async (lat: number, lon: number) => {
        const r = await app.call('GET', `/api/v1/portal/coverage?lat=${lat}&lon=${lon}`, { key });
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.place, { lon, lat });
        return r.body.products as Array<{ product: string; covered: boolean; tiles: string[]; years: number[]; versions: string[]; note: string | null }>;
      };
      // The North Atlantic, past 30°N: no product covers it.
      const north = await products(40, -30);
      assert.equal(north.length, 9);
      for (const p of north) assert.deepEqual([p.product, p.covered, p.tiles, p.years, p.versions, typeof p.note], [p.product, false, [], [], [], 'string']);
      for (const p of north.filter((x) => x.product.endsWith('-alerts'))) assert.match(p.note!, /published from 30°S to 30°N only/);
      assert.match(north.find((p) => p.product === 'tmf')!.note!, /30°S to 30°N only/);
      assert.match(north.find((p) => p.product === 'copernicus-dem')!.note!, /no tile over the place/);
      // The equatorial Atlantic: no file of any archive lies there; the alerts are published over the whole band.
      const equator = await products(0.5, -30);
      for (const p of equator) assert.equal(p.covered, p.product.endsWith('-alerts'), `${p.product}: ${p.note}`);
      assert.equal((await app.call('GET', '/api/v1/portal/coverage?lat=95&lon=10', { key })).body.error.code, 'bad_place');
      assert.equal((await app.call('GET', '/api/v1/portal/coverage', { key })).body.error.code, 'bad_place');
    });

    test('refuses an unknown layer, a zoom outside the layer\'s range, and a tile without a scene or season', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/tiles/infrared/14/0/0.png?season=2020', 'bad_layer'],
        ['/api/v1/change/tiles/true_colour/14/0/0.png', 'bad_layer'],
        ['/api/v1/change/tiles/nope/legend', 'bad_layer'],
        ['/api/v1/tiles/true_colour/5/0/0.png?season=2020', 'bad_zoom'],
        ['/api/v1/tiles/true_colour/14/16384/0.png?season=2020', 'bad_tile'],
        ['/api/v1/tiles/true_colour/14/0/0.png', 'bad_scene'],
        ['/api/v1/tiles/true_colour/14/0/0.png?scene=a&season=2020', 'bad_scene'],
        ['/api/v1/tiles/ndvi/14/0/0.png?season=1999', 'bad_season'],
      ];
      for (const [path, code] of cases) {
        const r = await app.call('GET', path, { key });
        assert.deepEqual([r.status, r.body.error.code], [422, code], path);
      }
    });

    test('a portal key reaches tiles, the timeline and coverage; the same key revoked does not', async () => {
      const minted = await app.call('POST', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId, body: { label: 'map' } });
      assert.equal(minted.status, 201);
      const t = { z: 14, ...tileOf(centre.lon, centre.lat, 14) };
      const paths = [tilePath('true_colour', t, '?season=2020'), `/api/v1/change/tiles/alerts/${t.z}/${t.x}/${t.y}.png`, `/api/v1/portal/plots/${plotId}/timeline`, `/api/v1/portal/coverage?lat=${centre.lat}&lon=${centre.lon}`];
      for (const path of paths) assert.equal((await png(app, path, minted.body.key)).status, 200, path);
      assert.equal((await app.call('DELETE', `/api/v1/portal/api-keys/${minted.body.id}`, { cookie, workspace: workspaceId })).status, 200);
      for (const path of paths) {
        const r = await app.call('GET', path, { key: minted.body.key });
        assert.deepEqual([r.status, r.body.error.code], [401, 'unauthorized'], path);
      }
    });

    test(`200 tile requests at once keep the event loop free (no stall over ${MAX_STALL_MS} ms) and the heap flat, keeping nothing`, async (t) => {
      const id = evidence.scenes.find((s) => s.startsWith('S2'))!;
      const z = 17;
      const c = tileOf(centre.lon, centre.lat, z);
      // Each try asks for tiles none asked before (the next 14 columns east), so none is answered from the disk cache.
      const pathsOf = (tryIndex: number): string[] => {
        const paths: string[] = [];
        const x0 = c.x + 14 * tryIndex;
        for (let dy = -7; dy < 7; dy++) for (let dx = -7; dx < 7; dx++) if (paths.length < 196) paths.push(tilePath(dx % 2 === 0 ? 'true_colour' : 'ndvi', { z, x: x0 + dx, y: c.y + dy }, `?scene=${id}`));
        for (const year of [2019, 2020, 2021, 2022]) paths.push(tilePath('true_colour', { z, x: x0, y: c.y }, `?season=${year}`));
        return paths;
      };
      // A map is opened once before: the archive's catalogue is read and the scene's files opened (a one-off on this thread).
      for (const p of [tilePath('true_colour', { z: 15, ...tileOf(centre.lon, centre.lat, 15) }, `?scene=${id}`)]) assert.equal((await png(app, p, key)).status, 200);
      // A burst over the bound is sent again, this many times in all, and its lowest hold stands: one
      // collection of a busy moment is not a regression, a handler that holds the loop holds it each time.
      const TRIES = 3;
      let before = process.memoryUsage();
      let peak = before.heapUsed;
      let delay: Awaited<ReturnType<typeof loopDelayDuring>>['delay'] | null = null;
      for (let tries = 0; tries < TRIES && (delay === null || delay.max_busy_ms >= MAX_STALL_MS); tries++) {
        collectGarbage();
        before = process.memoryUsage();
        peak = before.heapUsed;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }, 5);
        // The requests come from another process: this thread is the API's alone.
        const burst = runFixture(fileURLToPath(new URL('../fixtures/tile-requests.ts', import.meta.url)), 'burst', { API_URL: app.url, API_KEY: key, TILE_PATHS: JSON.stringify(pathsOf(tries)) });
        const measured = await loopDelayDuring(() => burst.done);
        clearInterval(sampler);
        const answers = measured.result[0].answers as Array<{ status: number; png: boolean; error: string | null }>;
        assert.equal(answers.length, 200);
        assert.ok(answers.every((a) => a.status === 200 && a.png), JSON.stringify(answers.filter((a) => a.status !== 200).slice(0, 2)));
        assert.ok(measured.delay.samples >= 20, `the loop was sampled while tiles rendered (${measured.delay.samples} samples)`);
        t.diagnostic(JSON.stringify(measured.delay));
        if (delay === null || measured.delay.max_busy_ms < delay.max_busy_ms) delay = measured.delay;
      }
      const held = delay!;
      assert.ok(held.max_busy_ms < MAX_STALL_MS, `the loop was held ${held.max_busy_ms} ms at once, ${held.max_busy_outside_gc_ms} ms in turns without a collection (longest delay ${held.max_ms} ms; collections ${JSON.stringify(held.gc)})`);
      // The tiles' pixels live in the pool's threads and shared buffers, not on this thread's heap:
      // 200 tiles' RGBA alone would be 52 MiB, the source windows under them several times that.
      const peakGrowth = (peak - before.heapUsed) / 2 ** 20;
      assert.ok(peakGrowth < 96, `the heap grew ${peakGrowth.toFixed(1)} MiB at its peak while 200 tiles rendered`);
      collectGarbage();
      const kept = (process.memoryUsage().heapUsed - before.heapUsed) / 2 ** 20;
      assert.ok(kept < 16, `the heap kept ${kept.toFixed(1)} MiB after 200 tiles`);
    });
  });
}

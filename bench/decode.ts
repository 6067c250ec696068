// Windowed COG reads: this service's reader against GDAL over the same windows of the same
// file, in the same run. A 4096×4096 uint16 DEFLATE/predictor-2 COG with 512-pixel tiles
// (the Sentinel-2 reflectance encoding) is read as 16 disjoint 768×768 windows, each touching
// four tiles, so every tile is decoded exactly once a round by every reader.
//   local          openCog over the file, then the engine's path on one thread: shipRasters
//                  (fetch, slot) and assembleRasters (inflate, predictor, copy into the window)
//   fast path      decodeTile alone on bytes already in memory, into a fresh SharedArrayBuffer
//   geotiff.js     readRasters per tile, for scale
//   gdal           python3 osgeo ReadAsArray over the same windows, timed inside python
//                  (its rounds alternate with ours, so a busy machine slows both alike)
//   http 50 ms     the local archive server with 50 ms latency, a cold range cache a round;
//                  windows one after another, and all at once; GDAL through /vsicurl/
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fromFile } from 'geotiff';
import { openByteSource } from '../src/engine/sources/byte-source.ts';
import { type Cog, openCog, type PixelWindow } from '../src/engine/sources/cog.ts';
import { createHttpClient } from '../src/engine/sources/http-client.ts';
import { startArchiveServer } from '../test/support/archive-server.ts';
import { RangeCache } from '../src/engine/sources/range-cache.ts';
import { rasterRequest } from '../src/engine/sources/raster-request.ts';
import { DecodedTiles, shipRasters } from '../src/engine/plan/raster-shipment.ts';
import { assembleRasters } from '../src/engine/worker/raster-window.ts';
import { decodedByteLength, decodeTile } from '../src/engine/worker/tile-decode.ts';

const SIZE = 4096;
const TILE = 512;
const WINDOW = 768;
const LATENCY_MS = 50;

const MAKE_COG = String.raw`
import sys
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
n = int(sys.argv[2])
rng = np.random.default_rng(20201231)
y, x = np.mgrid[0:n, 0:n].astype(np.float32)
field = 1500 + 800 * np.sin(x / 40) * np.cos(y / 55) + 300 * np.sin((x + 2 * y) / 150)
dn = np.clip(field + rng.normal(0, 60, (n, n)), 1, 10000).astype(np.uint16)
mem = gdal.GetDriverByName('MEM').Create('', n, n, 1, gdal.GDT_UInt16)
mem.SetGeoTransform([399960, 10, 0, 5600040, 0, -10])
mem.SetProjection('EPSG:32633')
b = mem.GetRasterBand(1); b.WriteArray(dn); b.SetNoDataValue(0); b.SetScale(0.0001); b.SetOffset(-0.1)
gdal.GetDriverByName('COG').CreateCopy(sys.argv[1], mem, options=['COMPRESS=DEFLATE', 'PREDICTOR=STANDARD', 'BLOCKSIZE=${TILE}', 'OVERVIEWS=NONE'])
`;

const GDAL_READ = String.raw`
import json, sys, time
from osgeo import gdal
gdal.UseExceptions()
gdal.SetConfigOption('GDAL_NUM_THREADS', '1')
gdal.SetConfigOption('GDAL_DISABLE_READDIR_ON_OPEN', 'EMPTY_DIR')
a = json.loads(sys.argv[1])
seconds = []
for _ in range(a['rounds']):
    gdal.VSICurlClearCache()
    t0 = time.perf_counter()
    ds = gdal.Open(a['path'])
    band = ds.GetRasterBand(1)
    for x, y, w, h in a['windows']:
        band.ReadAsArray(x, y, w, h)
    ds = None
    seconds.append(time.perf_counter() - t0)
print(json.dumps(seconds))
`;

function pythonWithGdal(): string {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(candidate, ['-c', 'from osgeo import gdal; import numpy'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error('bench decode needs GDAL for python3 (python3-gdal, python3-numpy)');
}

const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Rounds of `ours` and `theirs` taken in turn; each returns its own seconds.
async function alternate(n: number, ours: () => Promise<void>, theirs?: () => Promise<number>): Promise<[number[], number[]]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await ours();
    a.push((performance.now() - t0) / 1000);
    if (theirs) b.push(await theirs());
  }
  return [a, b];
}

export default async function decodeBench(): Promise<void> {
  const python = pythonWithGdal();
  const dir = mkdtempSync(join(os.tmpdir(), 'bench-decode-'));
  const path = join(dir, 'B04.tif');
  try {
    execFileSync(python, ['-c', MAKE_COG, path, String(SIZE)], { stdio: ['ignore', 'ignore', 'inherit'] });
    const windows: PixelWindow[] = [];
    for (let y = TILE / 4; y + WINDOW <= SIZE; y += 2 * TILE) for (let x = TILE / 4; x + WINDOW <= SIZE; x += 2 * TILE) windows.push({ x0: x, y0: y, width: WINDOW, height: WINDOW });
    const probe = await openCog(openByteSource(path));
    const tiles = windows.flatMap((w) => probe.tilesFor(w));
    const tileBytes = decodedByteLength(probe.tileSpec(tiles[0]));
    const decodedMB = (tiles.length * tileBytes) / 1e6;
    const compressedMB = tiles.reduce((s, t) => s + t.length, 0) / 1e6;
    console.log(`file ${(statSync(path).size / 1e6).toFixed(1)} MB, ${windows.length} windows of ${WINDOW}², ${tiles.length} tiles of ${TILE}² uint16, ${decodedMB.toFixed(1)} MB decoded a round (${compressedMB.toFixed(1)} MB compressed)`);
    // The best round stands for each reader (this machine is shared, and noise only slows);
    // the median is kept beside it to show the spread.
    const figures = (seconds: number[]) => {
      const s = Math.min(...seconds);
      return {
        seconds: +s.toFixed(4),
        median_seconds: +median(seconds).toFixed(4),
        mb_per_s: +(decodedMB / s).toFixed(1),
        tiles_per_s: +(tiles.length / s).toFixed(1),
      };
    };
    const report = (label: string, f: ReturnType<typeof figures>) =>
      console.log(
        `${label.padEnd(34)} ${f.mb_per_s.toFixed(1).padStart(7)} MB/s decoded ${f.tiles_per_s.toFixed(1).padStart(7)} tiles/s  (best round ${f.seconds}s, median ${f.median_seconds}s)`,
      );

    const gdalArgs = (p: string) => JSON.stringify({ path: p, rounds: 1, windows: windows.map((w) => [w.x0, w.y0, w.width, w.height]) });
    // Asynchronous, so the local server in this process keeps answering GDAL's requests.
    const gdalRound = async (p: string) => (JSON.parse((await run(python, ['-c', GDAL_READ, gdalArgs(p)])).stdout) as number[])[0];
    // Each window shipped and assembled as a plot task does it, with no decoded tile kept between windows.
    const readWindow = async (cog: Cog, w: PixelWindow) => {
      const shipment = await shipRasters([rasterRequest(cog, w)], new DecodedTiles());
      assembleRasters(shipment.rasters, shipment.tiles);
    };
    const readAll = async (cog: Cog) => {
      for (const w of windows) await readWindow(cog, w);
    };

    // Warm the JIT and the page cache before anything is timed.
    await alternate(2, async () => readAll(await openCog(openByteSource(path))), () => gdalRound(path));

    const [localRounds, gdalRounds] = await alternate(9, async () => readAll(await openCog(openByteSource(path))), () => gdalRound(path));
    const local = figures(localRounds);
    const gdal = figures(gdalRounds);
    report('local file, ship + assemble', local);
    report('gdal ReadAsArray, local', gdal);

    const compressed = await Promise.all(tiles.map((t) => probe.readTileBytes(t)));
    const [fastRounds] = await alternate(9, async () => {
      for (let i = 0; i < tiles.length; i++) decodeTile(compressed[i], probe.tileSpec(tiles[i]), new SharedArrayBuffer(tileBytes));
    });
    const fast = figures(fastRounds);
    report('fast path, decodeTile only', fast);

    const tiff = await fromFile(path);
    const image = await tiff.getImage(0);
    const [gtjsRounds] = await alternate(2, async () => {
      for (const t of tiles) await image.readRasters({ window: [t.x0, t.y0, t.x0 + TILE, t.y0 + TILE] });
    });
    await tiff.close();
    const gtjs = figures(gtjsRounds);
    report('geotiff.js readRasters', gtjs);

    const server = await startArchiveServer({ root: dir, latencyMs: LATENCY_MS });
    const http = createHttpClient();
    const url = `${server.url}/B04.tif`;
    const remote = () => openCog(openByteSource(url, { http, cache: new RangeCache({ maxBytes: 256 << 20 }) }));
    let requestsPerRound = 0;
    const [seqRounds, gdalHttpRounds] = await alternate(
      5,
      async () => {
        server.clearRequests();
        await readAll(await remote());
        requestsPerRound = server.requests().length;
      },
      () => gdalRound(`/vsicurl/${url}`),
    );
    const sequential = figures(seqRounds);
    const gdalHttp = figures(gdalHttpRounds);
    report(`http ${LATENCY_MS} ms, one window at a time`, sequential);
    report(`gdal /vsicurl/ ${LATENCY_MS} ms`, gdalHttp);
    const [concRounds] = await alternate(5, async () => {
      const cog = await remote();
      await Promise.all(windows.map((w) => readWindow(cog, w)));
    });
    const concurrent = figures(concRounds);
    report(`http ${LATENCY_MS} ms, all windows at once`, concurrent);
    http.close();
    await server.close();

    const result = {
      bench: 'decode',
      tiles: tiles.length,
      tile: `${TILE}x${TILE} uint16 deflate predictor 2`,
      decoded_mb_per_round: +decodedMB.toFixed(2),
      local,
      fast_path: { ...fast, ms_per_tile: +((fast.seconds * 1000) / tiles.length).toFixed(3) },
      geotiffjs: { ...gtjs, ms_per_tile: +((gtjs.seconds * 1000) / tiles.length).toFixed(3) },
      gdal: { ...gdal, ms_per_tile: +((gdal.seconds * 1000) / tiles.length).toFixed(3) },
      http_50ms: { sequential, concurrent, requests_per_round: requestsPerRound },
      gdal_http_50ms: gdalHttp,
      // Throughput over GDAL's on the same windows: above 1 is faster than GDAL.
      ratio_to_gdal: +(local.mb_per_s / gdal.mb_per_s).toFixed(3),
      ratio_fast_path_to_gdal: +(fast.mb_per_s / gdal.mb_per_s).toFixed(3),
      ratio_http_to_gdal_http: +(sequential.mb_per_s / gdalHttp.mb_per_s).toFixed(3),
      cores: os.availableParallelism(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
    };
    console.log(JSON.stringify(result));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

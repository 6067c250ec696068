// Test COGs written by GDAL (python3 osgeo), from pixels the test builds itself. GDAL is a
// requirement of the suite: without it these helpers fail with a message saying so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedArray } from '../../../src/engine/worker/tile-decode.ts';

let python: string | null = null;

/** A python3 that imports osgeo.gdal; Debian's python3-gdal lives under /usr/bin. */
export function pythonWithGdal(): string {
  if (python !== null) return python;
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(candidate, ['-c', 'from osgeo import gdal; import numpy'], { stdio: 'ignore' });
      python = candidate;
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error('GDAL for python3 is required by these tests: install python3-gdal and python3-numpy (apt-get install python3-gdal gdal-bin)');
}

export function tempDir(prefix = 'sources-test-'): { path: string; [Symbol.dispose](): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}

const GDAL_TYPES: Record<string, string> = {
  Uint8Array: 'Byte',
  Uint16Array: 'UInt16',
  Int16Array: 'Int16',
  Uint32Array: 'UInt32',
  Int32Array: 'Int32',
  Float32Array: 'Float32',
  Float64Array: 'Float64',
};

export interface CogFixture {
  width: number;
  height: number;
  /** One array per band, row-major. */
  bands: TypedArray[];
  epsg: number;
  geoTransform: [number, number, number, number, number, number];
  nodata?: number;
  scale?: number;
  offset?: number;
  compress?: 'DEFLATE' | 'LZW' | 'NONE';
  /** COG driver PREDICTOR: NO, STANDARD (2) or FLOATING_POINT (3). */
  predictor?: 'NO' | 'STANDARD' | 'FLOATING_POINT';
  blockSize?: number;
  /** Plain tiled GTiff with PlanarConfiguration 2 instead of a COG (one tile per band). */
  planarSeparate?: boolean;
  /** Plain striped GTiff (RowsPerStrip) instead of a COG. */
  stripRows?: number;
  metadata?: Record<string, string>;
  /** SPARSE_OK: tiles that are all nodata are not written at all. */
  sparse?: boolean;
}

const SCRIPT = String.raw`
import json, sys
import numpy as np
from osgeo import gdal, osr
gdal.UseExceptions()
a = json.loads(sys.argv[1])
dtype = {'Byte': np.uint8, 'UInt16': np.uint16, 'Int16': np.int16, 'UInt32': np.uint32, 'Int32': np.int32, 'Float32': np.float32, 'Float64': np.float64}[a['type']]
mem = gdal.GetDriverByName('MEM').Create('', a['width'], a['height'], len(a['bands']), getattr(gdal, 'GDT_' + a['type']))
mem.SetGeoTransform(a['geoTransform'])
srs = osr.SpatialReference(); srs.ImportFromEPSG(a['epsg']); mem.SetProjection(srs.ExportToWkt())
for k, v in (a.get('metadata') or {}).items(): mem.SetMetadataItem(k, v)
for i, path in enumerate(a['bands']):
    band = mem.GetRasterBand(i + 1)
    band.WriteArray(np.fromfile(path, dtype=dtype).reshape(a['height'], a['width']))
    if a.get('nodata') is not None: band.SetNoDataValue(a['nodata'])
    if a.get('scale') is not None: band.SetScale(a['scale'])
    if a.get('offset') is not None: band.SetOffset(a['offset'])
if a.get('planarSeparate') or a.get('stripRows'):
    opts = ['COMPRESS=' + a['compress']]
    if a['predictor'] != 'NO': opts.append('PREDICTOR=' + ('2' if a['predictor'] == 'STANDARD' else '3'))
    if a.get('planarSeparate'): opts += ['TILED=YES', 'INTERLEAVE=BAND', 'BLOCKXSIZE=%d' % a['blockSize'], 'BLOCKYSIZE=%d' % a['blockSize']]
    else: opts += ['TILED=NO', 'BLOCKYSIZE=%d' % a['stripRows']]
    gdal.GetDriverByName('GTiff').CreateCopy(a['out'], mem, options=opts)
else:
    opts = ['COMPRESS=' + a['compress'], 'PREDICTOR=' + a['predictor'], 'BLOCKSIZE=%d' % a['blockSize'], 'OVERVIEWS=NONE']
    if a.get('sparse'): opts.append('SPARSE_OK=TRUE')
    gdal.GetDriverByName('COG').CreateCopy(a['out'], mem, options=opts)
`;

/** Writes `f` as a COG (GDAL's COG driver) at `path`. */
export function writeGdalCog(path: string, f: CogFixture): string {
  const type = GDAL_TYPES[f.bands[0].constructor.name];
  const bandFiles = f.bands.map((b, i) => {
    const file = `${path}.band${i}.bin`;
    writeFileSync(file, new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    return file;
  });
  const args = {
    ...f,
    type,
    bands: bandFiles,
    out: path,
    compress: f.compress ?? 'DEFLATE',
    predictor: f.predictor ?? 'NO',
    blockSize: f.blockSize ?? 256,
  };
  try {
    execFileSync(pythonWithGdal(), ['-c', SCRIPT, JSON.stringify(args)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } finally {
    for (const file of bandFiles) rmSync(file, { force: true });
  }
  return path;
}

/** Pixels the test can predict anywhere: a smooth field plus a hash, in the array's range. */
export function pattern<T extends TypedArray>(make: (n: number) => T, width: number, height: number, f: (x: number, y: number) => number): T {
  const a = make(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) a[y * width + x] = f(x, y);
  return a;
}

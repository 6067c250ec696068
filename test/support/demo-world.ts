// A demo world for tests, generated once per machine and version into the system's temporary
// folder and shared by the test files that read it (generated beside, then renamed into place).
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { underGenerationLock } from '../../src/demo/generation-lock.ts';
import { DEMO_WORLD_VERSION, type WorldManifest, WORLD_MANIFEST, generateDemoWorld } from '../../src/demo/world.ts';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { mirrorPath } from '../../src/engine/sources/products/archive-url.ts';
import type { ArchiveLocation } from '../../src/engine/sources/products/provenance.ts';

export const TEST_SITES = [
  'th-surat-thani-rubber', 'ci-tai-cleared-2022', 'gh-dust-no-structure', 'my-johor-oil-palm',
  'id-jambi-pulpwood-concession', 'id-kalbar-rubber', 'kh-kampong-cham-record',
];

export async function demoWorld(sites: string[] = TEST_SITES): Promise<{ root: string; manifest: WorldManifest }> {
  const key = createHash('sha256').update(sites.join(',')).digest('hex').slice(0, 12);
  const root = join(tmpdir(), `precutoff-demo-${DEMO_WORLD_VERSION}-${key}`);
  // Worlds of earlier generator versions are of no more use.
  for (const name of await readdir(tmpdir())) {
    if (name.startsWith('precutoff-demo-') && !name.startsWith(`precutoff-demo-${DEMO_WORLD_VERSION}-`) && !name.startsWith('precutoff-demo-staging-')) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
  // Test files run in parallel processes: one generates each world while the others wait for it.
  return underGenerationLock(`${root}.generating`, {
    ready: () => readFile(join(root, WORLD_MANIFEST), 'utf8').then((m) => ({ root, manifest: JSON.parse(m) as WorldManifest }), () => null),
    waitMs: 30 * 60_000,
    timedOut: () => new Error(`${root}.generating is held by a process that is still generating`),
    generate: async () => {
      const staging = await mkdtemp(join(tmpdir(), 'precutoff-demo-staging-'));
      const manifest = await generateDemoWorld(staging, { sites });
      await rename(staging, root).catch(() => rm(staging, { recursive: true, force: true }));
      return { root, manifest };
    },
  });
}

/** The archive location of a generated world on disk. */
export function onDisk(root: string): ArchiveLocation {
  return { root: pathToFileURL(root).href, synthetic: true };
}

/** The file a real URL is mirrored at under a root. */
export function mirrored(root: string, realUrl: string): string {
  return join(root, mirrorPath(realUrl));
}

/**
 * The raw values of every band of a file at a point, read by GDAL (Debian's python3-gdal), the
 * independent reader the adapters are checked against.
 */
export function gdalPixel(path: string, lon: number, lat: number): number[] {
  const script = `
import sys, json
from osgeo import gdal, osr
gdal.UseExceptions()
ds = gdal.Open(sys.argv[1])
srs = osr.SpatialReference(); srs.ImportFromWkt(ds.GetProjection()); srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
wgs = osr.SpatialReference(); wgs.ImportFromEPSG(4326); wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
x, y, _ = osr.CoordinateTransformation(wgs, srs).TransformPoint(float(sys.argv[2]), float(sys.argv[3]))
gt = ds.GetGeoTransform()
c = int((x - gt[0]) / gt[1]); r = int((y - gt[3]) / gt[5])
print(json.dumps([float(ds.GetRasterBand(b).ReadAsArray(c, r, 1, 1)[0][0]) for b in range(1, ds.RasterCount + 1)]))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, path, String(lon), String(lat)], { encoding: 'utf8' }));
}

/** Value of a read window at a point (nearest pixel), every band. */
export function windowPixel(w: { raw: ArrayLike<number>; width: number; samplesPerPixel: number; geoTransform: number[]; epsg: number | null }, x: number, y: number): number[] {
  const c = Math.floor((x - w.geoTransform[0]) / w.geoTransform[1]);
  const r = Math.floor((y - w.geoTransform[3]) / w.geoTransform[5]);
  const at = (r * w.width + c) * w.samplesPerPixel;
  return Array.from({ length: w.samplesPerPixel }, (_, s) => w.raw[at + s]);
}


// Google Open Buildings 2.5D Temporal v1 from its public bucket: manifests per S2 level-2 cell
// and year list the GeoTIFF tiles (UTM, 0.5 m, three float32 bands). data-products.md §9.
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import { s2CellToken } from '../s2-cell.ts';

export const OPEN_BUILDINGS = {
  bucket: 'open-buildings-temporal-data',
  version: 'v1',
  manifests: 'v1/manifests_merged_s2_level_2_float',
  manifestLevel: 2,
  firstYear: 2016,
  lastYear: 2023,
} as const;
const GCS = 'https://storage.googleapis.com';

/** Band order of the GeoTIFFs (1-based band = index + 1). */
export const OPEN_BUILDINGS_BANDS = ['building_fractional_count', 'building_height', 'building_presence'] as const;
/** Where each band lies within a pixel's samples, as the building cells take them (kernels/building-cells.ts). */
export const OPEN_BUILDINGS_BAND_AT = {
  count: OPEN_BUILDINGS_BANDS.indexOf('building_fractional_count'),
  height: OPEN_BUILDINGS_BANDS.indexOf('building_height'),
  presence: OPEN_BUILDINGS_BANDS.indexOf('building_presence'),
} as const;
/**
 * Assumed where the producer is silent: nodata −99 (unconfirmed), float32, 25000 px tiles of 0.5 m in
 * the UTM zone of the ground. The adapter takes the nodata a file declares over this one.
 */
export const OPEN_BUILDINGS_ASSUMED = { nodata: -99, pixelMetres: 0.5, dtype: 'float32' } as const;
/** The reader's rule for a file's nodata: the one it declares, else the producer's stated one. */
export const openBuildingsNodata = (declared: number | null) => declared ?? OPEN_BUILDINGS_ASSUMED.nodata;
/** Each year's raster is the model's inference for 30 June of that year. */
export function inferenceDate(year: number): string {
  return `${year}-06-30`;
}

export function manifestToken(lon: number, lat: number): string {
  return s2CellToken(lon, lat, OPEN_BUILDINGS.manifestLevel);
}

/** GCS JSON API listing of the manifests of one cell (anonymous on a public bucket). */
export function manifestListingUrl(token: string, pageToken?: string): string {
  const q = new URLSearchParams({ prefix: `${OPEN_BUILDINGS.manifests}/${token}_` });
  if (pageToken) q.set('pageToken', pageToken);
  return `${GCS}/storage/v1/b/${OPEN_BUILDINGS.bucket}/o?${q}`;
}

export interface GcsListing {
  items?: Array<{ name: string }>;
  nextPageToken?: string;
}

/** Manifest object names of one year (names carry `_<year>_`). */
export function manifestNamesForYear(listing: GcsListing, year: number): string[] {
  return (listing.items ?? []).map((i) => i.name).filter((n) => n.includes(`_${year}_`) && n.endsWith('.json')).sort();
}

export function objectUrl(name: string): string {
  return `${GCS}/${OPEN_BUILDINGS.bucket}/${name}`;
}

/** `gs://bucket/key` → the public HTTPS address of the object. */
export function gsToHttps(uri: string): string {
  return uri.startsWith('gs://') ? `${GCS}/${uri.slice(5)}` : uri;
}

export interface ManifestJson {
  uriPrefix?: string;
  tilesets: Array<{
    crs: string;
    sources: Array<{
      uris: string[];
      affineTransform: { translateX: number; translateY: number; scaleX: number; scaleY: number };
      dimensions: { width: number; height: number };
    }>;
  }>;
}

export interface OpenBuildingsTile {
  href: string;
  epsg: number;
  /** [minX, minY, maxX, maxY] in the tile's CRS. */
  bounds: [number, number, number, number];
}

export class ManifestError extends Error {
  readonly code = 'invalid_manifest';
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

export function parseManifest(m: ManifestJson): OpenBuildingsTile[] {
  if (!Array.isArray(m?.tilesets)) throw new ManifestError('manifest has no tilesets');
  const out: OpenBuildingsTile[] = [];
  for (const ts of m.tilesets) {
    const epsg = Number(/EPSG:(\d+)/i.exec(ts.crs)?.[1]);
    if (!Number.isInteger(epsg)) throw new ManifestError(`manifest tileset CRS ${ts.crs} is not an EPSG code`);
    for (const s of ts.sources) {
      const a = s.affineTransform;
      const x1 = a.translateX + a.scaleX * s.dimensions.width;
      const y1 = a.translateY + a.scaleY * s.dimensions.height;
      out.push({
        href: gsToHttps(`${m.uriPrefix ?? ''}${s.uris[0]}`),
        epsg,
        bounds: [Math.min(a.translateX, x1), Math.min(a.translateY, y1), Math.max(a.translateX, x1), Math.max(a.translateY, y1)],
      });
    }
  }
  return out;
}

export function tilesTouching(tiles: OpenBuildingsTile[], epsg: number, bbox: [number, number, number, number]): OpenBuildingsTile[] {
  return tiles.filter((t) => t.epsg === epsg && t.bounds[0] < bbox[2] && t.bounds[2] > bbox[0] && t.bounds[1] < bbox[3] && t.bounds[3] > bbox[1]);
}

export function openBuildingsProvenance(year: number, tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'Google Open Buildings 2.5D Temporal',
    version: `${OPEN_BUILDINGS.version} (${inferenceDate(year)})`,
    tile,
    licence: 'CC BY 4.0 or ODbL 1.0, at the user\'s choice; source imagery under the Copernicus Sentinel data terms',
    attribution: 'Google Open Buildings 2.5D Temporal; contains modified Copernicus Sentinel data',
    citation: 'Sirko, W. et al. (2023) High-Resolution Building and Road Detection from Sentinel-2. arXiv:2310.11622',
  }, where);
}

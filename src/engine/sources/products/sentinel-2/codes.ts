// Sentinel-2 L2A surface reflectance from Earth Search (v1 `sentinel-2-l2a`, `sentinel-2-c1-l2a`)
// and the Planetary Computer. The three catalogues encode the same pixels differently
// (data-products.md §1); `reflectanceEncoding` holds the one rule for all of them.
import type { Geometry } from 'geojson';
import type { Encoding } from '../../../kernels/raster.ts';
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import { type BoaOffsetInference, boaOffset } from '../../../kernels/boa-offset.ts';
import type { Raster } from '../../../kernels/raster.ts';

export type S2Catalogue = 'earth-search-v1' | 'earth-search-c1' | 'planetary-computer';

export const S2_CATALOGUES: Record<S2Catalogue, { api: string; collection: string; label: string }> = {
  'earth-search-v1': { api: 'https://earth-search.aws.element84.com/v1', collection: 'sentinel-2-l2a', label: 'Earth Search v1 sentinel-2-l2a' },
  'earth-search-c1': { api: 'https://earth-search.aws.element84.com/v1', collection: 'sentinel-2-c1-l2a', label: 'Earth Search sentinel-2-c1-l2a' },
  'planetary-computer': { api: 'https://planetarycomputer.microsoft.com/api/stac/v1', collection: 'sentinel-2-l2a', label: 'Planetary Computer sentinel-2-l2a' },
};

/** Earth Search asset keys with the ESA band each holds and its pixel size (m). */
export const S2_ASSETS = {
  coastal: { band: 'B01', gsd: 60 },
  blue: { band: 'B02', gsd: 10 },
  green: { band: 'B03', gsd: 10 },
  red: { band: 'B04', gsd: 10 },
  rededge1: { band: 'B05', gsd: 20 },
  rededge2: { band: 'B06', gsd: 20 },
  rededge3: { band: 'B07', gsd: 20 },
  nir: { band: 'B08', gsd: 10 },
  nir08: { band: 'B8A', gsd: 20 },
  nir09: { band: 'B09', gsd: 60 },
  swir16: { band: 'B11', gsd: 20 },
  swir22: { band: 'B12', gsd: 20 },
  scl: { band: 'SCL', gsd: 20 },
  aot: { band: 'AOT', gsd: 20 },
  wvp: { band: 'WVP', gsd: 20 },
} as const;

export type S2Asset = keyof typeof S2_ASSETS;
export const S2_REFLECTANCE_ASSETS = ['coastal', 'blue', 'green', 'red', 'rededge1', 'rededge2', 'rededge3', 'nir', 'nir08', 'nir09', 'swir16', 'swir22'] as const;

/** The key of an asset in an item of this catalogue: Earth Search names bands, the Planetary Computer numbers them. */
export function s2AssetKey(catalogue: S2Catalogue, asset: S2Asset): string {
  return catalogue === 'planetary-computer' ? S2_ASSETS[asset].band : asset;
}

// --- Scene classification (SCL) -------------------------------------------------------------

export const SCL = {
  NO_DATA: 0,
  SATURATED_OR_DEFECTIVE: 1,
  DARK_AREA: 2,
  CLOUD_SHADOW: 3,
  VEGETATION: 4,
  BARE_SOIL: 5,
  WATER: 6,
  UNCLASSIFIED: 7,
  CLOUD_MEDIUM: 8,
  CLOUD_HIGH: 9,
  THIN_CIRRUS: 10,
  SNOW_OR_ICE: 11,
} as const;

// --- Encodings -------------------------------------------------------------------------------

export const REFLECTANCE_SCALE = 0.0001;
/** ESA's BOA_ADD_OFFSET of −1000 DN for every band from processing baseline 04.00 (2022-01-25) on. */
export const BOA_ADD_OFFSET_DN = -1000;
export const BOA_OFFSET = BOA_ADD_OFFSET_DN * REFLECTANCE_SCALE;
export const AOT_SCALE = 0.001;
const PB_WITH_OFFSET = '04.00';
const PB_WITH_OFFSET_FROM = '2022-01-25';

/** Compares processing baselines as numbers ("05.09" > "04.00"). */
export function baselineAtLeast(pb: string, than: string): boolean {
  return Number(pb) >= Number(than);
}

/**
 * The processing baseline of an item. Items without `s2:processing_baseline` are assumed to
 * follow the acquisition date (ESA's switch on 2022-01-25); reprocessed Collection-1 items always
 * carry the property, so the assumption touches only old or partial catalogue records.
 */
export function processingBaseline(properties: Record<string, unknown>, datetime: string): string {
  const pb = properties['s2:processing_baseline'];
  if (typeof pb === 'string' && pb.trim() !== '') return pb;
  return datetime.slice(0, 10) >= PB_WITH_OFFSET_FROM ? PB_WITH_OFFSET : '02.14';
}

export interface RasterBandsEntry {
  scale?: number;
  offset?: number;
  nodata?: number;
}

export interface ReflectanceEncoding extends Encoding {
  /** The offset the catalogue states for the band, before the BOA flag is considered. */
  declaredOffset: number;
  /** True when the pixels themselves must settle whether the offset is still in them (see `inferBoaOffset`). */
  verifyWithPixels: boolean;
}

/**
 * How to turn a reflectance DN of one item into surface reflectance:
 * - Earth Search v1 `sentinel-2-l2a`: `DN*scale + (boa_offset_applied ? 0 : offset)`; the flag is the
 *   maintainers' stated truth but is wrong on some items, so PB ≥ 04.00 items are checked against their pixels.
 * - Earth Search `sentinel-2-c1-l2a` (and v2): `raster:bands` is right as written (the offset is in the pixels).
 *   Whether c1 items carry `earthsearch:boa_offset_applied` is unconfirmed; the flag is ignored there.
 * - Planetary Computer: no `raster:bands`; ESA DN as delivered, so −0.1 from PB 04.00 on.
 */
export function reflectanceEncoding(
  catalogue: S2Catalogue, pb: string, rasterBands: RasterBandsEntry | undefined, boaOffsetApplied: boolean | undefined,
): ReflectanceEncoding {
  const withOffset = baselineAtLeast(pb, PB_WITH_OFFSET);
  const scale = rasterBands?.scale ?? REFLECTANCE_SCALE;
  const nodata = rasterBands?.nodata ?? 0;
  const declaredOffset = catalogue === 'planetary-computer' ? (withOffset ? BOA_OFFSET : 0) : (rasterBands?.offset ?? (withOffset ? BOA_OFFSET : 0));
  if (catalogue === 'earth-search-v1') {
    const offset = boaOffsetApplied === true ? 0 : declaredOffset;
    return { scale, offset, nodata, declaredOffset, verifyWithPixels: withOffset };
  }
  return { scale, offset: declaredOffset, nodata, declaredOffset, verifyWithPixels: false };
}

/** Fewest valid pixels the check needs before it overrules a catalogue flag. */
export const BOA_CHECK_MIN_PIXELS = 100;

/**
 * Whether the +1000 DN of the BOA offset is still in a band's pixels. With the offset in, a DN below
 * 1000 means negative reflectance, which Sen2Cor gives only to a few dark pixels; without it, a
 * visible band over vegetation or water sits far below 1000 (reflectance under 0.1). So: almost no
 * DN under 1000 → the offset is in; a clear share under 1000 → it was removed. Use a visible band
 * (blue or red) of a scene with vegetation or water in view; a scene of bright ground or cloud only
 * stays undecided and the catalogue's flag stands.
 */
export function inferBoaOffset(dn: Raster, nodata = 0): BoaOffsetInference {
  return boaOffset({ dn, nodata, offsetDn: -BOA_ADD_OFFSET_DN, minPixels: BOA_CHECK_MIN_PIXELS, inPixelsUnder: 0.005, removedFrom: 0.05 });
}

/** The encoding after the pixel check: the check, when decided, overrules the flag. */
export function settleReflectanceEncoding(enc: ReflectanceEncoding, inference: BoaOffsetInference): Encoding & { flagOverruled: boolean } {
  const base = { scale: enc.scale, nodata: enc.nodata };
  if (!enc.verifyWithPixels || inference === 'undecided') return { ...base, offset: enc.offset, flagOverruled: false };
  const offset = inference === 'offset_in_pixels' ? (enc.declaredOffset !== 0 ? enc.declaredOffset : BOA_OFFSET) : 0;
  return { ...base, offset, flagOverruled: offset !== enc.offset };
}

export function reflectanceFromDn(dn: number, enc: Encoding): number {
  return dn === enc.nodata ? Number.NaN : dn * enc.scale + enc.offset;
}

/** DN for a reflectance under an encoding (for writing test and demo rasters); never the nodata value. */
export function dnFromReflectance(reflectance: number, enc: Encoding): number {
  const dn = Math.round((reflectance - enc.offset) / enc.scale);
  return Math.min(65535, Math.max(1, dn));
}

export function aotFromDn(dn: number, scale = AOT_SCALE): number {
  return dn === 0 ? Number.NaN : dn * scale;
}

// --- Items -----------------------------------------------------------------------------------

export interface StacItemLike {
  id: string;
  collection?: string;
  geometry?: Geometry | null;
  properties: Record<string, unknown>;
  assets: Record<string, { href: string; 'raster:bands'?: RasterBandsEntry[] }>;
}

export interface S2AssetRef {
  href: string;
  /** Reflectance assets only: the encoding before the pixel check. */
  reflectance?: ReflectanceEncoding;
  encoding: Encoding;
}

export interface S2Scene {
  id: string;
  catalogue: S2Catalogue;
  datetime: string;
  cloudCover: number | null;
  processingBaseline: string;
  epsg: number;
  /** MGRS square, e.g. `39QTA`. */
  tile: string;
  platform: string | null;
  boaOffsetApplied: boolean | null;
  assets: Partial<Record<S2Asset, S2AssetRef>>;
  /** The item's geometry (lon/lat): where the tile holds data; null when the item has none. */
  footprint: Geometry | null;
}

export class ProductItemError extends Error {
  readonly code = 'invalid_item';
  constructor(message: string) {
    super(message);
    this.name = 'ProductItemError';
  }
}

function mgrsOf(p: Record<string, unknown>): string {
  if (typeof p['s2:mgrs_tile'] === 'string') return p['s2:mgrs_tile'];
  if (typeof p['grid:code'] === 'string') return p['grid:code'].replace(/^MGRS-/, '');
  const zone = p['mgrs:utm_zone'];
  const band = p['mgrs:latitude_band'];
  const square = p['mgrs:grid_square'];
  if (zone !== undefined && typeof band === 'string' && typeof square === 'string') return `${zone}${band}${square}`;
  return '';
}

/** Reads one STAC item of a Sentinel-2 L2A catalogue into what the engine needs to read it. */
export function parseS2Item(item: StacItemLike, catalogue: S2Catalogue): S2Scene {
  const p = item.properties;
  const datetime = typeof p.datetime === 'string' ? p.datetime : null;
  if (datetime === null) throw new ProductItemError(`item ${item.id} has no datetime`);
  const code = p['proj:code'];
  const epsg = Number(p['proj:epsg'] ?? (typeof code === 'string' ? code.replace(/^EPSG:/, '') : undefined));
  if (!Number.isInteger(epsg)) throw new ProductItemError(`item ${item.id} has no proj:epsg`);
  const pb = processingBaseline(p, datetime);
  const flag = p['earthsearch:boa_offset_applied'];
  const boaOffsetApplied = typeof flag === 'boolean' ? flag : null;
  const assets: Partial<Record<S2Asset, S2AssetRef>> = {};
  for (const asset of Object.keys(S2_ASSETS) as S2Asset[]) {
    const a = item.assets[s2AssetKey(catalogue, asset)];
    if (!a) continue;
    const rb = a['raster:bands']?.[0];
    if ((S2_REFLECTANCE_ASSETS as readonly string[]).includes(asset)) {
      const reflectance = reflectanceEncoding(catalogue, pb, rb, boaOffsetApplied ?? undefined);
      assets[asset] = { href: a.href, reflectance, encoding: { scale: reflectance.scale, offset: reflectance.offset, nodata: reflectance.nodata } };
    } else if (asset === 'aot' || asset === 'wvp') {
      assets[asset] = { href: a.href, encoding: { scale: rb?.scale ?? AOT_SCALE, offset: rb?.offset ?? 0, nodata: rb?.nodata ?? 0 } };
    } else {
      assets[asset] = { href: a.href, encoding: { scale: 1, offset: 0, nodata: rb?.nodata ?? 0 } };
    }
  }
  const cc = p['eo:cloud_cover'];
  return {
    id: item.id,
    catalogue,
    datetime,
    cloudCover: typeof cc === 'number' ? cc : null,
    processingBaseline: pb,
    epsg,
    tile: mgrsOf(p),
    platform: typeof p.platform === 'string' ? p.platform : null,
    boaOffsetApplied,
    assets,
    footprint: item.geometry ?? null,
  };
}

// --- Layout of the real hosts ----------------------------------------------------------------

const EARTH_SEARCH_V1_COGS = 'https://sentinel-cogs.s3.us-west-2.amazonaws.com/sentinel-s2-l2a-cogs';

/** Earth Search v1 item id: `S2A_39QTA_20230628_0_L2A`. */
export function earthSearchV1ItemId(platform: 'sentinel-2a' | 'sentinel-2b', tile: string, date: string, sequence = 0): string {
  return `S2${platform.slice(-1).toUpperCase()}_${tile}_${date.replaceAll('-', '')}_${sequence}_L2A`;
}

/** Earth Search v1 COG address: `…/sentinel-s2-l2a-cogs/39/Q/TA/2023/6/<id>/B04.tif`. */
export function earthSearchV1AssetHref(tile: string, date: string, itemId: string, asset: S2Asset): string {
  const m = /^(\d{1,2})([C-X])([A-Z]{2})$/.exec(tile);
  if (!m) throw new RangeError(`not an MGRS tile: ${tile}`);
  const [year, month] = date.split('-');
  return `${EARTH_SEARCH_V1_COGS}/${m[1]}/${m[2]}/${m[3]}/${year}/${Number(month)}/${itemId}/${S2_ASSETS[asset].band}.tif`;
}

/** The Planetary Computer's SAS token service for this collection (append `?<token>` to blob hrefs). */
export const PC_SAS_TOKEN_URL = 'https://planetarycomputer.microsoft.com/api/sas/v1/token/sentinel-2-l2a';

export const S2_LICENCE = 'Copernicus Sentinel data terms and conditions (https://sentinel.esa.int/documents/247904/690755/Sentinel_Data_Legal_Notice)';
export const S2_CITATION = 'ESA, Sentinel-2 MSI Level-2A BOA reflectance, https://doi.org/10.5270/S2_-742ikth';

export function sentinel2Provenance(scene: S2Scene, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: S2_CATALOGUES[scene.catalogue].label,
    version: `processing baseline ${scene.processingBaseline}`,
    tile: scene.id,
    licence: S2_LICENCE,
    attribution: `Contains modified Copernicus Sentinel data ${scene.datetime.slice(0, 4)}`,
    citation: S2_CITATION,
  }, where);
}

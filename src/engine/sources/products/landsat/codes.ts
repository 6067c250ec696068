// Landsat Collection 2 Level-2 surface reflectance as the Planetary Computer's `landsat-c2-l2`
// catalogue serves it (Earth Search and USGS hold the same scenes behind requester-pays or a
// login, so they are not read). data-products.md §2.
import type { Geometry } from 'geojson';
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import type { Encoding } from '../../../kernels/raster.ts';
import type { RasterBandsEntry, StacItemLike } from '../sentinel-2/codes.ts';
import { ProductItemError } from '../sentinel-2/codes.ts';

export const LANDSAT_CATALOGUE = { api: 'https://planetarycomputer.microsoft.com/api/stac/v1', collection: 'landsat-c2-l2' } as const;
export const LANDSAT_SAS_TOKEN_URL = 'https://planetarycomputer.microsoft.com/api/sas/v1/token/landsat-c2-l2';
const BLOB = 'https://landsateuwest.blob.core.windows.net/landsat-c2/level-2/standard';

/** Surface-reflectance assets of the OLI (Landsat 8/9) and ETM+/TM items, with the OLI band file. */
export const LANDSAT_SR_ASSETS = {
  blue: { oli: 'SR_B2', tm: 'SR_B1' },
  green: { oli: 'SR_B3', tm: 'SR_B2' },
  red: { oli: 'SR_B4', tm: 'SR_B3' },
  nir08: { oli: 'SR_B5', tm: 'SR_B4' },
  swir16: { oli: 'SR_B6', tm: 'SR_B5' },
  swir22: { oli: 'SR_B7', tm: 'SR_B7' },
} as const;
export type LandsatSrAsset = keyof typeof LANDSAT_SR_ASSETS;
export type LandsatAsset = LandsatSrAsset | 'qa_pixel' | 'qa_aerosol';

/** SR: uint16, `refl = DN * 2.75e-05 − 0.2`, nodata 0. */
export const LANDSAT_SR_ENCODING: Encoding = { scale: 0.0000275, offset: -0.2, nodata: 0 };
/** QA_PIXEL's nodata is the value with only the fill bit set. */
export const QA_PIXEL_NODATA = 1;
/** SR_QA_AEROSOL (uint8, OLI only) has the same nodata: bit 0 fill. */
export const QA_AEROSOL_NODATA = 1;
/** The quality bands, as the asset key and the band file of the product. */
const QA_FILES = { qa_pixel: 'QA_PIXEL', qa_aerosol: 'SR_QA_AEROSOL' } as const;

/** An SR_QA_AEROSOL value for a land pixel with a valid retrieval (bit 1) at aerosol level 0–3 (bits 6–7). */
export const qaAerosolValue = (level: number): number => (1 << 1) | ((level & 3) << 6);

export const QA_PIXEL_BITS = {
  FILL: 1 << 0,
  DILATED_CLOUD: 1 << 1,
  CIRRUS: 1 << 2,
  CLOUD: 1 << 3,
  CLOUD_SHADOW: 1 << 4,
  SNOW: 1 << 5,
  CLEAR: 1 << 6,
  WATER: 1 << 7,
} as const;

export type QaConfidence = 'not_set' | 'low' | 'medium_or_reserved' | 'high';
const CONFIDENCE_SHIFT = { cloud: 8, cloud_shadow: 10, snow: 12, cirrus: 14 } as const;

/** Two-bit confidence fields (bits 8–15): 0 not set, 1 low, 2 medium (cloud) or reserved (others), 3 high. */
export function qaPixelConfidence(v: number, field: keyof typeof CONFIDENCE_SHIFT): QaConfidence {
  return (['not_set', 'low', 'medium_or_reserved', 'high'] as const)[(v >> CONFIDENCE_SHIFT[field]) & 3];
}

/** A QA_PIXEL value as Collection 2 would write it for a clear land pixel. */
export const QA_PIXEL_CLEAR_LAND = QA_PIXEL_BITS.CLEAR | (1 << 8) | (1 << 10) | (1 << 12) | (1 << 14);
/** … for a pixel under high-confidence cloud (dilated too). */
export const QA_PIXEL_CLOUD = QA_PIXEL_BITS.CLOUD | QA_PIXEL_BITS.DILATED_CLOUD | (3 << 8) | (1 << 10) | (1 << 12) | (1 << 14);
/** … for a pixel under high-confidence cloud shadow. */
export const QA_PIXEL_SHADOW = QA_PIXEL_BITS.CLOUD_SHADOW | (1 << 8) | (3 << 10) | (1 << 12) | (1 << 14);

export function landsatReflectance(dn: number): number {
  return dn === LANDSAT_SR_ENCODING.nodata ? Number.NaN : dn * LANDSAT_SR_ENCODING.scale + LANDSAT_SR_ENCODING.offset;
}

export function landsatDn(reflectance: number): number {
  return Math.min(65535, Math.max(1, Math.round((reflectance - LANDSAT_SR_ENCODING.offset) / LANDSAT_SR_ENCODING.scale)));
}

// --- Items -----------------------------------------------------------------------------------

export interface LandsatScene {
  id: string;
  datetime: string;
  cloudCover: number | null;
  platform: string | null;
  epsg: number;
  /** WRS-2 path and row, e.g. `127052`. */
  tile: string;
  assets: Partial<Record<LandsatAsset, { href: string; encoding: Encoding }>>;
  /** The item's geometry (lon/lat); null when the item has none. */
  footprint: Geometry | null;
  /** The processing date of its files (YYYY-MM-DD, from the product id in their names); null when they do not carry it. */
  processed: string | null;
}

/** The processing date in a Collection 2 product id: `LC09_L2SP_089090_20240417_20240418_02_T1` was processed on 2024-04-18. */
export function processedOn(href: string): string | null {
  const m = /_L2S[PR]_\d{6}_\d{8}_(\d{4})(\d{2})(\d{2})_\d{2}_(?:T1|T2|RT)/.exec(href);
  return m === null ? null : `${m[1]}-${m[2]}-${m[3]}`;
}

function encodingOf(rb: RasterBandsEntry | undefined, fallback: Encoding): Encoding {
  return { scale: rb?.scale ?? fallback.scale, offset: rb?.offset ?? fallback.offset, nodata: rb?.nodata ?? fallback.nodata };
}

export function parseLandsatItem(item: StacItemLike): LandsatScene {
  const p = item.properties;
  if (typeof p.datetime !== 'string') throw new ProductItemError(`item ${item.id} has no datetime`);
  const epsg = Number(p['proj:epsg']);
  if (!Number.isInteger(epsg)) throw new ProductItemError(`item ${item.id} has no proj:epsg`);
  const assets: LandsatScene['assets'] = {};
  for (const key of [...Object.keys(LANDSAT_SR_ASSETS), ...Object.keys(QA_FILES)] as LandsatAsset[]) {
    const a = item.assets[key];
    if (!a) continue;
    const fallback = key in QA_FILES ? { scale: 1, offset: 0, nodata: QA_PIXEL_NODATA } : LANDSAT_SR_ENCODING;
    assets[key] = { href: a.href, encoding: encodingOf(a['raster:bands']?.[0], fallback) };
  }
  const cc = p['eo:cloud_cover'];
  return {
    id: item.id,
    datetime: p.datetime,
    cloudCover: typeof cc === 'number' ? cc : null,
    platform: typeof p.platform === 'string' ? p.platform : null,
    epsg,
    tile: `${String(p['landsat:wrs_path'] ?? '').padStart(3, '0')}${String(p['landsat:wrs_row'] ?? '').padStart(3, '0')}`,
    assets,
    footprint: item.geometry ?? null,
    processed: Object.values(assets).map((a) => processedOn(a.href)).find((d) => d !== null) ?? null,
  };
}

export type LandsatSensor = 'oli-tirs' | 'etm' | 'tm';

/** `LC09_L2SP_089090_20240417_02_T1` (the Planetary Computer drops the processing date from the id). */
export function landsatItemId(satellite: 'LC08' | 'LC09' | 'LE07', path: number, row: number, date: string): string {
  return `${satellite}_L2SP_${pad3(path)}${pad3(row)}_${date.replaceAll('-', '')}_02_T1`;
}

/** Blob address of one band file: `…/oli-tirs/2024/089/090/<product id>/<product id>_SR_B4.TIF`. */
export function landsatAssetHref(
  satellite: 'LC08' | 'LC09' | 'LE07', path: number, row: number, date: string, processed: string, asset: LandsatAsset,
): string {
  const sensor: LandsatSensor = satellite === 'LE07' ? 'etm' : 'oli-tirs';
  const product = `${satellite}_L2SP_${pad3(path)}${pad3(row)}_${date.replaceAll('-', '')}_${processed.replaceAll('-', '')}_02_T1`;
  const file = asset === 'qa_pixel' || asset === 'qa_aerosol' ? QA_FILES[asset] : LANDSAT_SR_ASSETS[asset][sensor === 'oli-tirs' ? 'oli' : 'tm'];
  return `${BLOB}/${sensor}/${date.slice(0, 4)}/${pad3(path)}/${pad3(row)}/${product}/${product}_${file}.TIF`;
}

function pad3(n: number): string {
  return String(n).padStart(3, '0');
}

export function landsatProvenance(scene: LandsatScene, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'Landsat Collection 2 Level-2 (Planetary Computer landsat-c2-l2)',
    version: 'Collection 2',
    tile: scene.id,
    licence: 'Public domain (U.S. Geological Survey)',
    attribution: 'Landsat imagery courtesy of the U.S. Geological Survey',
    citation: 'U.S. Geological Survey, Landsat Collection 2 Level-2 Science Products, https://doi.org/10.5066/P9OGBGM6',
  }, where);
}

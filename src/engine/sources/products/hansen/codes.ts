// Hansen/UMD Global Forest Change, current version v1.13 (2000–2025), 10°×10° tiles on Google
// Cloud Storage (data-products.md §8).
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

export const HANSEN_VERSION = { release: 'GFC-2025-v1.13', lastYear: 2025 } as const;
const BUCKET = 'https://storage.googleapis.com/earthenginepartners-hansen';

export type HansenLayer = 'treecover2000' | 'loss' | 'gain' | 'lossyear' | 'datamask' | 'first' | 'last';

export const DATAMASK = { NO_DATA: 0, LAND: 1, WATER: 2 } as const;

/** Tile named by its upper-left corner, zero-padded: `10N_100E`, `00N_070W`. */
export function hansenTile(lon: number, lat: number): string {
  const north = Math.ceil(lat / 10) * 10;
  const west = Math.floor(lon / 10) * 10;
  return `${String(Math.abs(north)).padStart(2, '0')}${north >= 0 ? 'N' : 'S'}_${String(Math.abs(west)).padStart(3, '0')}${west >= 0 ? 'E' : 'W'}`;
}

export function hansenHref(layer: HansenLayer, tile: string): string {
  return `${BUCKET}/${HANSEN_VERSION.release}/Hansen_${HANSEN_VERSION.release}_${layer}_${tile}.tif`;
}

/** `lossyear`: 0 = no loss, n = 2000 + n. */
export function lossYear(v: number): number | null {
  return v === 0 || v > HANSEN_VERSION.lastYear - 2000 ? null : 2000 + v;
}

/**
 * Grid: EPSG:4326 at 0.00025° (~30 m), uint8, range-readable; whether the files are true COGs is
 * unconfirmed, so the adapter reads tiles by their own IFDs and never assumes overviews.
 */
export const HANSEN_GRID = { epsg: 4326, pixelDegrees: 0.00025, dtype: 'uint8' } as const;

export function hansenProvenance(layer: HansenLayer, tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: `Hansen/UMD Global Forest Change ${layer}`,
    version: HANSEN_VERSION.release,
    tile,
    licence: 'CC BY 4.0',
    attribution: 'Hansen/UMD/Google/USGS/NASA',
    citation: 'Hansen, M. C. et al. (2013) High-Resolution Global Maps of 21st-Century Forest Cover Change. Science 342:850–853',
  }, where);
}

// ETH Global Canopy Height 2020 (Lang et al.), 10 m, in 3°×3° COG tiles (data-products.md §4a).
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

/** Heights in metres; built-up, snow/ice and permanent water are masked to 255. */
export const CANOPY_HEIGHT_NODATA = 255;
/**
 * Assumed, as the producer does not state them: uint8 pixels (implied by the nodata 255) in
 * EPSG:4326. The adapter reads whatever the file declares; the demo world writes these.
 */
export const CANOPY_HEIGHT_ASSUMED = { dtype: 'uint8', epsg: 4326, pixelDegrees: 1 / 12000 } as const;

const LIBDRIVE = 'https://libdrive.ethz.ch/index.php/s/cO8or7iOe5dT2Rt/download';

/** Tile named by its south-west corner: `N00E009` covers 0–3°N, 9–12°E. */
export function canopyHeightTile(lon: number, lat: number): string {
  const lat0 = Math.floor(lat / 3) * 3;
  const lon0 = Math.floor(lon / 3) * 3;
  return `${lat0 >= 0 ? 'N' : 'S'}${String(Math.abs(lat0)).padStart(2, '0')}${lon0 >= 0 ? 'E' : 'W'}${String(Math.abs(lon0)).padStart(3, '0')}`;
}

export function canopyHeightFile(tile: string, layer: 'Map' | 'Map_SD'): string {
  return `ETH_GlobalCanopyHeight_10m_2020_${tile}_${layer}.tif`;
}

/** The libdrive share serves each COG through its download script. */
export function canopyHeightHref(tile: string, layer: 'Map' | 'Map_SD'): string {
  return `${LIBDRIVE}?path=${encodeURIComponent('/3deg_cogs')}&files=${canopyHeightFile(tile, layer)}`;
}

export function canopyHeightMetres(v: number): number {
  return v === CANOPY_HEIGHT_NODATA ? Number.NaN : v;
}

export const CANOPY_HEIGHT_DATASET = { name: 'ETH Global Canopy Height 2020 (10 m)', version: '2020 v1', year: 2020 } as const;

export function canopyHeightProvenance(tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: CANOPY_HEIGHT_DATASET.name,
    version: CANOPY_HEIGHT_DATASET.version,
    tile: canopyHeightFile(tile, 'Map'),
    licence: 'CC BY 4.0',
    attribution: 'Lang, Jetz, Schindler & Wegner, ETH Zürich',
    citation: 'Lang, N., Jetz, W., Schindler, K. & Wegner, J. D. (2023) A high-resolution canopy height model of the Earth. Nature Ecology & Evolution. https://doi.org/10.3929/ethz-b-000609802',
  }, where);
}

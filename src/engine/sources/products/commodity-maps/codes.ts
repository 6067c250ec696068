// Commodity maps (data-products.md §12): oil palm extent 2021 and planting year (Descals et al.
// 2024) and rubber 2021–22 (Wang et al. 2023). Neither has a confirmed range-readable host, so
// both are read from a mirror the operator provides (the demo archive holds one); the layouts
// below are this service's assumptions about such a mirror and are stated where they are used.
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

// --- Oil palm (Descals et al. 2024, Zenodo 10.5281/zenodo.11034131 v1.1) ----------------------

export const OIL_PALM_EXTENT = { OTHER: 0, INDUSTRIAL: 1, SMALLHOLDER: 2 } as const;
/** Planting-year pixels with no palm. */
export const OIL_PALM_YOP_NODATA = 0;

/**
 * Planting year from a YoP pixel. The Earth Engine asset stores `minNBR_date` as days since
 * 1970-01-01 and Whisp reads it as `floor(v/365 + 1970)`; the Zenodo tiles' own encoding is
 * unconfirmed, so the mirror is assumed to hold the Earth Engine encoding.
 */
export function oilPalmPlantingYear(v: number): number | null {
  return v === OIL_PALM_YOP_NODATA ? null : Math.floor(v / 365 + 1970);
}

/** A mid-year day count that `oilPalmPlantingYear` reads back as `year` (for writing test and demo rasters). */
export function oilPalmYopValue(year: number): number {
  return (year - 1970) * 365 + 182;
}

const ZENODO = 'https://zenodo.org/records/11034131/files';
/**
 * The grid of 100×100 km cells (`Grid_OilPalm_2021_v1-1`, property `ID`) and one COG per cell and
 * layer: names assumed, mirroring the Earth Engine asset names.
 */
export const OIL_PALM_GRID_HREF = `${ZENODO}/Grid_OilPalm_2021_v1-1.geojson`;
export function oilPalmHref(layer: 'OP-extent' | 'YoP', cellId: string): string {
  return `${ZENODO}/GlobalOilPalm_${layer}_2021_${cellId}.tif`;
}

export interface GridCellFeature {
  type: 'Feature';
  properties: { ID: string | number };
  geometry: { type: 'Polygon'; coordinates: number[][][] };
}

/** Cells whose bounding box touches a bbox (lon/lat). */
export function oilPalmCells(grid: { features: GridCellFeature[] }, bbox: [number, number, number, number]): string[] {
  const out: string[] = [];
  for (const f of grid.features) {
    const ring = f.geometry.coordinates[0];
    let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
    for (const [x, y] of ring) {
      w = Math.min(w, x); e = Math.max(e, x); s = Math.min(s, y); n = Math.max(n, y);
    }
    if (w < bbox[2] && e > bbox[0] && s < bbox[3] && n > bbox[1]) out.push(String(f.properties.ID));
  }
  return out;
}

export function oilPalmProvenance(cellId: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'Global oil palm extent and planting year (Descals et al. 2024)',
    version: 'v1.1 (extent 2021, planting year 1990–2021)',
    tile: cellId,
    licence: 'CC BY 4.0',
    attribution: 'Descals, A. et al., CREAF',
    citation: 'Descals, A. et al. (2024) Global mapping of oil palm planting year from 1990 to 2021. Earth System Science Data 16:5111–5129. https://doi.org/10.5281/zenodo.11034131',
  }, where);
}

// --- Rubber (Wang et al. 2023, Nature 623:340–346) ---------------------------------------------

export const RUBBER_CLASSES = { FOREST: 1, RUBBER: 2 } as const;
/** The map covers Southeast Asia; this box (lon/lat) is the service's reading of that coverage. */
export const RUBBER_COVERAGE: [number, number, number, number] = [92.0, -11.0, 141.0, 28.6];

export function rubberCovers(lon: number, lat: number): boolean {
  const [w, s, e, n] = RUBBER_COVERAGE;
  return lon >= w && lon <= e && lat >= s && lat <= n;
}

/**
 * The map is published only as an Earth Engine asset; a non-EE host and its licence are
 * unconfirmed. A mirror is assumed to hold an export of `rForeRub202122_perc1585DifESAdist5pxPFfinal`
 * as 10°×10° tiles named by their north-west corner like the EU maps (`N10_E100`), under this address.
 */
export const RUBBER_EE_ASSET = 'users/wangyxtina/MapRubberPaper/rForeRub202122_perc1585DifESAdist5pxPFfinal';
const RUBBER_MIRROR = `https://earthengine.googleapis.com/${RUBBER_EE_ASSET}`;
export function rubberHref(tile: string): string {
  return `${RUBBER_MIRROR}/${tile}.tif`;
}
/** Whether rubber can be read at all: only from a mirror (the real host is Earth Engine, not a file server). */
export function rubberReadable(where: ArchiveLocation): boolean {
  return where.root !== undefined;
}

export function rubberProvenance(tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'Rubber plantations of Southeast Asia 2021–22 (Wang et al. 2023)',
    version: '2021–2022',
    tile,
    licence: 'Unconfirmed (published as an Earth Engine asset)',
    attribution: 'Wang, Y. et al., Royal Botanic Garden Edinburgh',
    citation: 'Wang, Y. et al. (2023) High-resolution maps show that rubber causes substantial deforestation. Nature 623:340–346',
  }, where);
}

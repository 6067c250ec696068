// Copernicus DEM GLO-30 in 1°×1° COG tiles on the open AWS bucket (data-products.md §5).
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

const BUCKET = 'https://copernicus-dem-30m.s3.amazonaws.com';

/** Tile named by its lower-left corner: `Copernicus_DSM_COG_10_N00_00_W080_00_DEM`. */
export function demTile(lon: number, lat: number): string {
  const lat0 = Math.floor(lat);
  const lon0 = Math.floor(lon);
  const ns = `${lat0 >= 0 ? 'N' : 'S'}${String(Math.abs(lat0)).padStart(2, '0')}`;
  const ew = `${lon0 >= 0 ? 'E' : 'W'}${String(Math.abs(lon0)).padStart(3, '0')}`;
  return `Copernicus_DSM_COG_10_${ns}_00_${ew}_00_DEM`;
}

export function demHref(tile: string): string {
  return `${BUCKET}/${tile}/${tile}.tif`;
}

/**
 * Columns of a tile: 1″ in latitude everywhere, and in longitude 1″ below 50°, widening toward
 * the poles (1.5″, 2″, 3″, 5″, 10″), so a tile holds 3600 rows and fewer columns up north.
 */
export function demColumns(lat: number): number {
  const lat0 = Math.floor(lat);
  // Degrees from the equator to the tile's equator-side edge.
  const a = lat0 >= 0 ? lat0 : -(lat0 + 1);
  const arcsec = a < 50 ? 1 : a < 60 ? 1.5 : a < 70 ? 2 : a < 80 ? 3 : a < 85 ? 5 : 10;
  return Math.round(3600 / arcsec);
}

/**
 * Heights in metres above the EGM2008 geoid, float32. A declared nodata value is unconfirmed;
 * the ocean simply has no tiles, which the service reads as "no ground to measure".
 */
export const DEM_ASSUMED_NODATA: number | null = null;

export const DEM_DATASET = { name: 'Copernicus DEM GLO-30', version: 'GLO-30' } as const;

// The attribution wording is the one the producer's licence annex is reported to ask for; unconfirmed.
export function demProvenance(tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: DEM_DATASET.name,
    version: DEM_DATASET.version,
    tile,
    licence: 'Copernicus DEM licence (https://spacedata.copernicus.eu/documents/20126/0/CSCDA_ESA_Mission-specific+Annex.pdf)',
    attribution: 'Produced using Copernicus WorldDEM-30 © DLR e.V. 2010-2014 and © Airbus Defence and Space GmbH 2014-2018 provided under COPERNICUS by the European Union and ESA',
    citation: 'European Space Agency (2021) Copernicus Global Digital Elevation Model. https://doi.org/10.5270/ESA-c5d3d65',
  }, where);
}

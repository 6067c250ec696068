// The Commission's 2020 forest maps: JRC Global Forest Cover 2020 (GFC2020) and Global Forest
// Types 2020 (GFT2020), 10 m, in 10°×10° tiles on the JRC open-data FTP mirror (data-products.md §7).
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

const FTP = 'https://jeodpp.jrc.ec.europa.eu/ftp/jrc-opendata/FOREST';

export const GFC2020 = { version: 'V3', FOREST: 1 } as const;
/** GFT2020 V1 classes; 0 is non-forest (or no data), as GFT is built on the GFC2020 mask. */
export const GFT2020 = { version: 'V1', NATURALLY_REGENERATING: 1, PRIMARY: 10, PLANTED: 20 } as const;

/**
 * Assumed grid (unconfirmed by the producer): EPSG:4326 at 0.0001° (~10 m), uint8. Value 0 is
 * "not forest" (or, for GFT, "not a forest class"), even where a file declares 0 as nodata:
 * the maps mask non-forest, so dropping 0 as missing would read every plot as all forest.
 */
export const EU_FOREST_MAPS_ASSUMED = { dtype: 'uint8', epsg: 4326, pixelDegrees: 0.0001, notForest: 0 } as const;

/** Tile tag of the north-west corner without zero padding: `N10_W10`, `N0_E0`, `S10_E20`. */
export function euForestTile(lon: number, lat: number): string {
  const north = Math.floor(lat / 10) * 10 + 10;
  const west = Math.floor(lon / 10) * 10;
  return `${north >= 0 ? 'N' : 'S'}${Math.abs(north)}_${west >= 0 ? 'E' : 'W'}${Math.abs(west)}`;
}

export function gfc2020Href(tile: string): string {
  return `${FTP}/GFC2020/LATEST/tiles/JRC_GFC2020_${GFC2020.version}_${tile}.tif`;
}

export function gft2020Href(tile: string): string {
  return `${FTP}/GFT2020/LATEST/tiles/JRC_GFT2020_${GFT2020.version}_${tile}.tif`;
}

export function gfc2020Provenance(tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'JRC Global Forest Cover 2020',
    version: GFC2020.version,
    tile,
    licence: 'Free use with attribution (European Commission JRC; reported as CC BY 4.0)',
    attribution: 'European Commission, Joint Research Centre',
    citation: 'Bourgoin, C. et al., Global map of forest cover 2020, http://data.europa.eu/89h/8c561543-31df-4e1b-9994-e529afecaf54',
  }, where);
}

export function gft2020Provenance(tile: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: 'JRC Global Forest Types 2020',
    version: GFT2020.version,
    tile,
    licence: 'Free use with attribution (European Commission JRC; reported as CC BY 4.0)',
    attribution: 'European Commission, Joint Research Centre',
    citation: 'Bourgoin, C. et al., Global map of forest types 2020, http://data.europa.eu/89h/45182662-3015-4a25-8d1e-aa857d75235d',
  }, where);
}

// JAXA ALOS/ALOS-2 PALSAR yearly 25 m mosaics (data-products.md §3), read from one of two
// mirrors: the Planetary Computer's blob store (global) and Digital Earth Africa's bucket
// (Africa only). The adapter tries them in order and records which one served.
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

/** Calibration factor of the mosaics (items carry `"cf": "83.0 dB"`). */
export const PALSAR_CF_DB = 83.0;

/** γ⁰ [dB] = 10·log10(DN²) − 83.0; DN 0 and the nodata value have no backscatter. */
export function gamma0Db(dn: number, nodata: number): number {
  if (dn === nodata || dn <= 0) return Number.NaN;
  return 20 * Math.log10(dn) - PALSAR_CF_DB;
}

/** The DN that encodes a backscatter (for writing test and demo rasters). */
export function dnFromGamma0Db(db: number): number {
  return Math.min(65535, Math.max(2, Math.round(10 ** ((db + PALSAR_CF_DB) / 20))));
}

export type PalsarBand = 'HH' | 'HV' | 'linci' | 'date' | 'mask';

/** Nodata by year: 0 everywhere before 2017; from 2017 ("Revision M") 1 for HH/HV/linci/date and 0 for mask. */
export function palsarNodata(year: number, band: PalsarBand): number {
  if (year < 2017 || band === 'mask') return 0;
  return 1;
}

export const PALSAR_MASK = { NO_DATA: 0, WATER: 50, LAYOVER: 100, SHADOWING: 150, LAND: 255 } as const;

/** Mosaic years: ALOS 2007–2010 and ALOS-2 from 2015; none for 2011–2014. */
export function palsarYearExists(year: number): boolean {
  return (year >= 2007 && year <= 2010) || year >= 2015;
}

function latTag(lat: number): string {
  return `${lat >= 0 ? 'N' : 'S'}${String(Math.abs(lat)).padStart(2, '0')}`;
}
function lonTag(lon: number): string {
  return `${lon >= 0 ? 'E' : 'W'}${String(Math.abs(lon)).padStart(3, '0')}`;
}

/**
 * Tile names. JAXA names a tile by its north-west corner (`N02E009` covers 1–2°N, 9–10°E); the
 * Planetary Computer's path `…/2021/N00E070/N00E072_21_F02DAR.xml` files a 1° tile under the
 * 5° tile whose corner lies north-west of it. The north-west reading of the names is an
 * assumption (the sources show names, not extents); it is held here and nowhere else.
 */
export function palsarTile1(lon: number, lat: number): string {
  return `${latTag(Math.floor(lat) + 1)}${lonTag(Math.floor(lon))}`;
}
export function palsarTile5(lon: number, lat: number): string {
  return `${latTag(Math.floor(lat / 5) * 5 + 5)}${lonTag(Math.floor(lon / 5) * 5)}`;
}
/** West, south, east, north of a tile named by its north-west corner and its size in degrees. */
export function palsarTileBounds(name: string, size: 1 | 5): [number, number, number, number] {
  const m = /^([NS])(\d{2})([EW])(\d{3})$/.exec(name);
  if (!m) throw new RangeError(`not a PALSAR tile name: ${name}`);
  const north = (m[1] === 'N' ? 1 : -1) * Number(m[2]);
  const west = (m[3] === 'E' ? 1 : -1) * Number(m[4]);
  return [west, north - size, west + size, north];
}

export interface PalsarMirror {
  name: 'planetary-computer' | 'deafrica';
  /** True when the mirror holds the ground at this point. */
  covers(lon: number, lat: number): boolean;
  /** The real address of a band of the mosaic holding a point in one year. */
  href(lon: number, lat: number, year: number, band: PalsarBand): string;
  /** Pixel extent of that file, in tiles of this many degrees. */
  tileDegrees: 1 | 5;
  /** A service handing out read tokens on the real host, if it has one. */
  sasTokenUrl?: string;
}

function suffix(year: number): string {
  // Files of ALOS-2 years carry the F02DAR product code; the 2007–2010 ALOS files do not.
  return year > 2010 ? '_F02DAR' : '';
}

/** Planetary Computer `alos-palsar-mosaic` (v200): one 1° COG per band, filed under its 5° tile. */
export const PC_MIRROR: PalsarMirror = {
  name: 'planetary-computer',
  covers: () => true,
  tileDegrees: 1,
  href(lon, lat, year, band) {
    const t1 = palsarTile1(lon, lat);
    return `https://pceo.blob.core.windows.net/palsar/v200/alos_palsar_mosaic/${year}/${palsarTile5(lon, lat)}/${t1}_${String(year).slice(2)}_sl_${band}${suffix(year)}.tif`;
  },
  sasTokenUrl: 'https://planetarycomputer.microsoft.com/api/sas/v1/token/alos-palsar-mosaic',
};

// Digital Earth Africa's processing covers the continent's bounding box (its filenames.py tiles).
const AFRICA: [number, number, number, number] = [-26, -36, 53, 38];

/** Digital Earth Africa: the JAXA 5° tiles merged into one COG per band (512 px tiles, DEFLATE). */
export const DEAFRICA_MIRROR: PalsarMirror = {
  name: 'deafrica',
  covers: (lon, lat) => lon >= AFRICA[0] && lon <= AFRICA[2] && lat >= AFRICA[1] && lat <= AFRICA[3],
  tileDegrees: 5,
  href(lon, lat, year, band) {
    const t5 = palsarTile5(lon, lat);
    return `https://deafrica-input-datasets.s3.af-south-1.amazonaws.com/alos_palsar_mosaic/${year}/${t5}/${t5}_${String(year).slice(2)}_sl_${band}${suffix(year)}.tif`;
  },
};

export const PALSAR_MIRRORS: readonly PalsarMirror[] = [PC_MIRROR, DEAFRICA_MIRROR];

/** Provenance of a year's mosaic read from `tiles` (1° tile names, every tile read). */
export function palsarProvenance(tiles: readonly string[], year: number, mirror: PalsarMirror, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: `JAXA ALOS${year > 2010 ? '-2 PALSAR-2' : ' PALSAR'} yearly 25 m mosaic (${mirror.name} mirror)`,
    version: String(year),
    tile: tiles.map((t) => `${t}_${String(year).slice(2)}`).join(', '),
    licence: 'JAXA terms of use (https://earth.jaxa.jp/policy/en.html)',
    attribution: '© JAXA',
    citation: 'Shimada, M. et al. (2014) New global forest/non-forest maps from ALOS PALSAR data (2007–2010). Remote Sensing of Environment 155:13–31',
  }, where);
}

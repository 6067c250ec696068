// UTM zones and MGRS 100 km squares, which name Sentinel-2 tiles (`39QTA`) and fix the CRS
// of Sentinel-2, Landsat and Open Buildings rasters. The Norway and Svalbard zone exceptions
// are not applied: they concern no ground this service reads (tropics and subtropics).
import { transformer } from '../reproject.ts';

export function utmZone(lon: number): number {
  return Math.min(60, Math.floor((lon + 180) / 6) + 1);
}

/** EPSG code of the WGS 84 UTM zone holding a point: 326zz north of the equator, 327zz south. */
export function utmEpsg(lon: number, lat: number): number {
  return (lat >= 0 ? 32600 : 32700) + utmZone(lon);
}

const BAND_LETTERS = 'CDEFGHJKLMNPQRSTUVWX';
const COLUMN_SETS = ['STUVWXYZ', 'ABCDEFGH', 'JKLMNPQR'];
const ROW_LETTERS = 'ABCDEFGHJKLMNPQRSTUV';

export interface MgrsSquare {
  zone: number;
  band: string;
  square: string;
  /** `39QTA`: the Sentinel-2 tile name. */
  code: string;
}

/** The MGRS 100 km square holding a point, as the Sentinel-2 tiling names it. */
export function mgrsSquare(lon: number, lat: number): MgrsSquare {
  if (lat < -80 || lat > 84) throw new RangeError(`MGRS squares cover 80°S to 84°N, not ${lat}`);
  const zone = utmZone(lon);
  const band = BAND_LETTERS[Math.min(19, Math.floor((lat + 80) / 8))];
  // Always the northern-hemisphere false northing (+10,000 km south), as the row letters count from the equator.
  const [easting, northingRaw] = transformer('EPSG:4326', 32600 + zone)(lon, lat);
  const northing = northingRaw < 0 ? northingRaw + 10_000_000 : northingRaw;
  const column = COLUMN_SETS[zone % 3][Math.floor(easting / 100_000) - 1];
  const row = ROW_LETTERS[(Math.floor(northing / 100_000) + (zone % 2 === 0 ? 5 : 0)) % 20];
  const square = `${column}${row}`;
  return { zone, band, square, code: `${zone}${band}${square}` };
}

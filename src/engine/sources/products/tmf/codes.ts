// JRC Tropical Moist Forest (Vancutsem et al. 2021), 30 m, 10°×10° tiles served by a download
// script that ignores Range: tiles are fetched whole and kept on disk (data-products.md §6).
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';

export const TMF_VERSION = 'v1_2025';
export const TMF_FIRST_YEAR = 1990;
export const TMF_LAST_YEAR = 2025;
const DOWNLOAD = 'https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py';

export type TmfDataset = `AnnualChange_${number}` | 'DeforestationYear' | 'DegradationYear' | 'TransitionMap_Subtypes' | 'TransitionMap_MainClasses';

export const ANNUAL_CHANGE = {
  NO_DATA: 0,
  UNDISTURBED: 1,
  DEGRADED: 2,
  DEFORESTED: 3,
  REGROWTH: 4,
  WATER: 5,
  OTHER: 6,
} as const;

export const MAIN_CLASSES = {
  UNDISTURBED: 10,
  DEGRADED: 20,
  REGROWTH: 30,
  DEFORESTED_TO_PLANTATION: 41,
  DEFORESTED_TO_WATER: 42,
  DEFORESTED_TO_OTHER: 43,
  ONGOING_DISTURBANCE: 50,
  WATER: 60,
  OTHER: 70,
} as const;

/**
 * Transition sub-types 81–86 are plantations (Whisp's `TMF_plant`); what tells 81 from 86, and the
 * meaning of each other sub-type, is unconfirmed (TMF Data Users Guide), so only the range is used.
 */
export const SUBTYPE_PLANTATION_MIN = 81;
export const SUBTYPE_PLANTATION_MAX = 86;
export function isPlantationSubtype(v: number): boolean {
  return v >= SUBTYPE_PLANTATION_MIN && v <= SUBTYPE_PLANTATION_MAX;
}

/** DeforestationYear / DegradationYear: calendar year of the first event, 0 = none. */
export function eventYear(v: number): number | null {
  return v === 0 ? null : v;
}

/**
 * The product covers 30°S–30°N. Its official tile list (86 tiles, a derived count) is unconfirmed,
 * so a tile inside the band is tried and a "no file" answer means no tile there.
 */
export function tmfCovers(lat: number): boolean {
  return lat >= -30 && lat < 30;
}

/** Tile tags of the north-west corner: `N0` covers 10°S–0°, `W80` covers 80–70°W. */
export function tmfTile(lon: number, lat: number): { lat: string; lon: string; id: string } {
  const north = Math.floor(lat / 10) * 10 + 10;
  const west = Math.floor(lon / 10) * 10;
  const latTag = north > 0 ? `N${north}` : north === 0 ? 'N0' : `S${-north}`;
  const lonTag = west >= 0 ? `E${west}` : `W${-west}`;
  return { lat: latTag, lon: lonTag, id: `${latTag}_${lonTag}` };
}

export function tmfHref(dataset: TmfDataset, tile: { lat: string; lon: string }): string {
  return `${DOWNLOAD}?type=tile&dataset=${dataset}&lat=${tile.lat}&lon=${tile.lon}`;
}

export function annualChangeDataset(year: number): TmfDataset {
  if (year < TMF_FIRST_YEAR || year > TMF_LAST_YEAR) throw new RangeError(`TMF annual change runs ${TMF_FIRST_YEAR}–${TMF_LAST_YEAR}, not ${year}`);
  return `AnnualChange_${year}`;
}

export function tmfProvenance(dataset: TmfDataset, tileId: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: `JRC Tropical Moist Forest ${dataset}`,
    version: TMF_VERSION,
    tile: tileId,
    licence: 'Free of charge, no restriction of use (European Commission JRC)',
    attribution: 'Source: EC JRC',
    citation: 'Vancutsem, C. et al. (2021) Long-term (1990–2019) monitoring of forest cover changes in the humid tropics. Science Advances 7:eabe1603',
  }, where);
}

import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import { feature, isIn } from '@rapideditor/country-coder';
import { countryClassificationReference } from '../engine/context/country-classification.ts';
import { unknownCountry } from './errors.ts';
import type { Position } from './types.ts';

countries.registerLocale(en);
countries.registerLocale(fr);

export const ACCEPTED_COUNTRY_FORMS =
  'Give an ISO 3166-1 alpha-2 code (CI), an alpha-3 code (CIV), or the English or French name as ISO, the Regulation or common use writes it (Côte d\'Ivoire, Ivory Coast, Viet Nam, Bolivia (Plurinational State of), États-Unis); case, accents and punctuation do not matter. GET /portal/plots/countries lists the recognised countries.';

export interface RecognisedCountry {
  code: string;
  alpha3: string;
  name_en: string;
  name_fr: string;
}

/**
 * Case, accents and punctuation do not matter: "COTE D IVOIRE" and "côte d'ivoire" are one key; nor
 * does the article ISO puts in brackets ("Gambia (the)", "The Gambia").
 */
const countryKey = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bthe\b/g, ' ')
    .replace(/ +/g, ' ')
    .trim();

/**
 * Names people write that neither the service's country table nor the ISO names of
 * i18n-iso-countries hold: ISO 3166 and UN short names, former and common names, French forms, and
 * "Congo", which ISO gives to CG though both Congos are called so.
 */
const COMMON_NAMES: Record<string, string> = {
  Congo: 'CG',
  'Congo-Brazzaville': 'CG',
  'Republic of Congo': 'CG',
  'Congo (the Democratic Republic of the)': 'CD',
  'Congo-Kinshasa': 'CD',
  'DR Congo': 'CD',
  DRC: 'CD',
  RDC: 'CD',
  'Cabo Verde': 'CV',
  'Republic of Moldova': 'MD',
  'Moldova (the Republic of)': 'MD',
  Moldova: 'MD',
  'Bolivia (Plurinational State of)': 'BO',
  'Iran (Islamic Republic of)': 'IR',
  'Venezuela (Bolivarian Republic of)': 'VE',
  'Viet Nam': 'VN',
  'Viêt Nam': 'VN',
  'Tanzania, United Republic of': 'TZ',
  "Korea (the Democratic People's Republic of)": 'KP',
  "Democratic People's Republic of Korea": 'KP',
  'Korea (the Republic of)': 'KR',
  'South Korea': 'KR',
  Syria: 'SY',
  Brunei: 'BN',
  Burma: 'MM',
  Birmanie: 'MM',
  'East Timor': 'TL',
  'Timor oriental': 'TL',
  Swaziland: 'SZ',
  'United Kingdom of Great Britain and Northern Ireland': 'GB',
  Britain: 'GB',
  'États-Unis': 'US',
  Holland: 'NL',
  'Holy See': 'VA',
  Vatican: 'VA',
  'Vatican City': 'VA',
  Macedonia: 'MK',
  'Czech Republic': 'CZ',
  Turkey: 'TR',
  Micronesia: 'FM',
};

const byKey = buildIndex();

function buildIndex(): Map<string, string> {
  const index = new Map<string, string>();
  for (const [alpha2, alpha3] of Object.entries(countries.getAlpha2Codes())) {
    index.set(countryKey(alpha2), alpha2);
    index.set(countryKey(alpha3), alpha2);
  }
  // The Regulation's own spellings, then the common names; then ISO's official names, and an alias
  // only where one country has it ("Congo", which CG and CD share, is named by the common names).
  for (const row of countryClassificationReference().countries) index.set(countryKey(row.country_name), row.country);
  for (const [name, alpha2] of Object.entries(COMMON_NAMES)) {
    if (!index.has(countryKey(name))) index.set(countryKey(name), alpha2);
  }
  for (const lang of ['en', 'fr']) {
    for (const [alpha2, name] of Object.entries(countries.getNames(lang, { select: 'official' }))) {
      if (!index.has(countryKey(name))) index.set(countryKey(name), alpha2);
    }
  }
  const aliasOwners = new Map<string, Set<string>>();
  for (const lang of ['en', 'fr']) {
    for (const [alpha2, names] of Object.entries(countries.getNames(lang, { select: 'all' }))) {
      for (const name of names) {
        const key = countryKey(name);
        if (!aliasOwners.has(key)) aliasOwners.set(key, new Set());
        aliasOwners.get(key)!.add(alpha2);
      }
    }
  }
  for (const [key, owners] of aliasOwners) {
    if (!index.has(key) && owners.size === 1) index.set(key, [...owners][0]);
  }
  return index;
}

/** The alpha-2 code for an accepted form, or null. */
export function lookupCountry(value: string): string | null {
  return byKey.get(countryKey(value)) ?? null;
}

/** The alpha-2 code for an accepted form; refuses anything else with `unknown_country`. */
export function resolveCountry(value: string): string {
  const code = lookupCountry(value);
  if (code === null) throw unknownCountry(value, ACCEPTED_COUNTRY_FORMS);
  return code;
}

/**
 * Countries whose real boundary the registry (country-coder) holds, so membership and the axis-order
 * check can be decided. A country accepted by resolveCountry but missing here is stored unchecked.
 */
const recognised: RecognisedCountry[] = Object.entries(countries.getAlpha2Codes())
  .filter(([alpha2]) => feature(alpha2)?.properties.iso1A2 === alpha2)
  .map(([alpha2, alpha3]) => ({
    code: alpha2,
    alpha3,
    name_en: countries.getName(alpha2, 'en') ?? alpha2,
    name_fr: countries.getName(alpha2, 'fr') ?? alpha2,
  }))
  .sort((a, b) => a.code.localeCompare(b.code));

const recognisedCodes = new Set(recognised.map((c) => c.code));

export function recognisedCountries(): RecognisedCountry[] {
  return recognised.map((c) => ({ ...c }));
}

export function isRecognisedCountry(alpha2: string): boolean {
  return recognisedCodes.has(alpha2);
}

/** Whether a WGS84 position lies in the country's boundary, its overseas parts included (FR holds GF). */
export function countryContains(alpha2: string, at: Position): boolean {
  return isIn(at, alpha2) === true;
}

// The country part of the risk block (spec 2.8.2): the classification of Commission
// Implementing Regulation (EU) 2025/1093, held as a versioned table in
// country-classification.json and never fetched per request. The table is checked once, here,
// where it enters; everything below trusts it.

import isoCountries from 'i18n-iso-countries';
import { z } from 'zod';
import table from './country-classification.json' with { type: 'json' };

export type CountryClassificationErrorCode =
  | 'country_table_invalid' // the data file breaks its own shape or rules
  | 'country_code_invalid'; // a code that is not an ISO 3166-1 alpha-2 code

export class CountryClassificationError extends Error {
  readonly code: CountryClassificationErrorCode;

  constructor(code: CountryClassificationErrorCode, message: string) {
    super(message);
    this.name = 'CountryClassificationError';
    this.code = code;
  }
}

export type Classification = 'low' | 'standard' | 'high';

export interface CountryRiskBlock {
  country: string | null;
  country_name: string | null;
  classification: Classification | null;
  /** true: the Commission names the country; false: the residual standard rule; null: no country given. */
  enumerated: boolean | null;
  instrument: string;
  eli: string;
  celex: string;
  version_date: string;
  checked_on: string;
  amended_by: string | null;
  source: string;
  consequence: string;
}

export interface CountryClassificationRow {
  country: string;
  country_name: string;
  classification: Classification;
  enumerated: boolean;
}

export interface CountryClassificationReference {
  instrument: string;
  eli: string;
  celex: string;
  version_date: string;
  checked_on: string;
  amended_by: string | null;
  countries: CountryClassificationRow[];
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD');
const alpha2 = z.string().refine((code) => /^[A-Z]{2}$/.test(code) && isoCountries.isValid(code), 'an ISO 3166-1 alpha-2 code');

const tableSchema = z.object({
  instrument: z.string().min(1),
  eli: z.url(),
  celex: z.string().regex(/^3\d{4}R\d{4}$/),
  adopted: isoDate,
  in_force: isoDate,
  version_date: isoDate,
  checked_on: isoDate,
  amended_by: z.string().min(1).nullable(),
  source: z.string().min(1),
  consequence: z.object({
    low: z.string().min(1),
    standard: z.string().min(1),
    high: z.string().min(1),
    residual: z.string().min(1),
    none: z.string().min(1),
  }),
  countries: z
    .array(
      z.object({
        country: alpha2,
        country_name: z.string().min(1),
        classification: z.enum(['low', 'standard', 'high']),
        // Only countries the Commission names are held; the residual rule needs no row.
        enumerated: z.literal(true),
      }),
    )
    .min(1),
});

export type CountryTable = z.infer<typeof tableSchema>;

/** Checks a raw country table and returns it typed; throws `country_table_invalid`. */
export function parseCountryTable(raw: unknown): CountryTable {
  const parsed = tableSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CountryClassificationError('country_table_invalid', `country table: ${z.prettifyError(parsed.error)}`);
  }
  const seen = new Set<string>();
  for (const row of parsed.data.countries) {
    if (seen.has(row.country)) {
      throw new CountryClassificationError('country_table_invalid', `country table: ${row.country} is held twice`);
    }
    seen.add(row.country);
  }
  return parsed.data;
}

const held = parseCountryTable(table);
const rowsByCode = new Map(held.countries.map((row) => [row.country, row]));

function blockOf(
  fields: Pick<CountryRiskBlock, 'country' | 'country_name' | 'classification' | 'enumerated' | 'consequence'>,
): CountryRiskBlock {
  // Keys in the order of spec 2.8.2.
  return {
    country: fields.country,
    country_name: fields.country_name,
    classification: fields.classification,
    enumerated: fields.enumerated,
    instrument: held.instrument,
    eli: held.eli,
    celex: held.celex,
    version_date: held.version_date,
    checked_on: held.checked_on,
    amended_by: held.amended_by,
    source: held.source,
    consequence: fields.consequence,
  };
}

/**
 * The `risk.country` block for a country of production given as an alpha-2 code (the
 * producer's country). A code the table does not hold, a territory or dependency included,
 * is standard under the residual rule: it never takes its parent country's level.
 */
export function classifyCountry(alpha2Code: string | null): CountryRiskBlock {
  if (alpha2Code === null) {
    return blockOf({ country: null, country_name: null, classification: null, enumerated: null, consequence: held.consequence.none });
  }
  const code = alpha2Code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !isoCountries.isValid(code)) {
    throw new CountryClassificationError('country_code_invalid', `'${alpha2Code}' is not an ISO 3166-1 alpha-2 country code`);
  }
  const row = rowsByCode.get(code);
  if (row !== undefined) {
    return blockOf({ ...row, consequence: held.consequence[row.classification] });
  }
  return blockOf({
    country: code,
    country_name: isoCountries.getName(code, 'en') ?? code,
    classification: 'standard',
    enumerated: false,
    consequence: `${held.consequence.standard} ${held.consequence.residual}`,
  });
}

/** The table as the reference route serves it: the version fields and one row per country held. */
export function countryClassificationReference(): CountryClassificationReference {
  return {
    instrument: held.instrument,
    eli: held.eli,
    celex: held.celex,
    version_date: held.version_date,
    checked_on: held.checked_on,
    amended_by: held.amended_by,
    countries: held.countries.map((row) => ({ ...row })),
  };
}

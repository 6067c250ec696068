import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  classifyCountry,
  countryClassificationReference,
  CountryClassificationError,
  parseCountryTable,
} from '../../../src/engine/context/country-classification.ts';

const tableUrl = new URL('../../../src/engine/context/country-classification.json', import.meta.url);
const rawTable = (): Record<string, unknown> & { countries: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(tableUrl, 'utf8'));

const blockKeys = [
  'country',
  'country_name',
  'classification',
  'enumerated',
  'instrument',
  'eli',
  'celex',
  'version_date',
  'checked_on',
  'amended_by',
  'source',
  'consequence',
];

function countOf(level: string): number {
  return countryClassificationReference().countries.filter((row) => row.classification === level).length;
}

test('holds the Annex of Implementing Regulation (EU) 2025/1093: 4 high-risk and 140 low-risk countries', () => {
  assert.equal(countOf('high'), 4);
  assert.equal(countOf('low'), 140);
});

test('holds the 50 countries the Commission lists as standard', () => {
  assert.equal(countOf('standard'), 50);
});

test('names the four high-risk countries as the Annex does', () => {
  const high = countryClassificationReference()
    .countries.filter((row) => row.classification === 'high')
    .map((row) => `${row.country} ${row.country_name}`);
  assert.deepEqual(high.sort(), [
    'BY Belarus',
    "KP Democratic People's Republic of Korea",
    'MM Myanmar',
    'RU Russian Federation',
  ]);
});

test('carries the instrument identifiers and an unamended version', () => {
  const ref = countryClassificationReference();
  assert.equal(ref.eli, 'http://data.europa.eu/eli/reg_impl/2025/1093/oj');
  assert.equal(ref.celex, '32025R1093');
  assert.equal(ref.amended_by, null);
  assert.match(ref.instrument, /2025\/1093 of 22 May 2025/);
  assert.match(ref.version_date, /^\d{4}-\d{2}-\d{2}$/);
  assert.match(ref.checked_on, /^\d{4}-\d{2}-\d{2}$/);
});

test('classifies a low-risk country named in the Annex under its Annex name', () => {
  const block = classifyCountry('SB');
  assert.deepEqual(Object.keys(block), blockKeys);
  assert.equal(block.country_name, 'Solomon Island');
  assert.equal(block.classification, 'low');
  assert.equal(block.enumerated, true);
  assert.match(block.consequence, /Article 13/);
});

test('classifies a high-risk country with the high consequence', () => {
  const block = classifyCountry('RU');
  assert.equal(block.classification, 'high');
  assert.equal(block.enumerated, true);
  assert.match(block.consequence, /9%/);
});

test('classifies a country the Commission lists as standard as enumerated standard', () => {
  const block = classifyCountry('BR');
  assert.equal(block.classification, 'standard');
  assert.equal(block.enumerated, true);
  assert.equal(block.country_name, 'Brazil');
});

test('a territory does not inherit its parent country level: French Guiana falls to the residual', () => {
  assert.equal(classifyCountry('FR').classification, 'low');
  const block = classifyCountry('GF');
  assert.equal(block.country, 'GF');
  assert.equal(block.country_name, 'French Guiana');
  assert.equal(block.classification, 'standard');
  assert.equal(block.enumerated, false);
  assert.match(block.consequence, /does not take its parent country's level/);
});

test('every dependency of a listed country is residual standard, never its parent level', () => {
  for (const code of ['RE', 'GP', 'MQ', 'YT', 'NC', 'PF', 'PR', 'GL', 'FO', 'AW', 'CW', 'HK', 'MO', 'BM', 'KY']) {
    const block = classifyCountry(code);
    assert.equal(block.classification, 'standard', code);
    assert.equal(block.enumerated, false, code);
  }
});

test('an unlisted country is standard under the residual rule with its English name', () => {
  const block = classifyCountry('XK');
  assert.deepEqual(Object.keys(block), blockKeys);
  assert.equal(block.country, 'XK');
  assert.equal(block.country_name, 'Kosovo');
  assert.equal(block.classification, 'standard');
  assert.equal(block.enumerated, false);
  assert.equal(block.celex, '32025R1093');
});

test('no country given: classification and enumerated are null, the version fields stay', () => {
  const block = classifyCountry(null);
  assert.deepEqual(Object.keys(block), blockKeys);
  assert.equal(block.country, null);
  assert.equal(block.country_name, null);
  assert.equal(block.classification, null);
  assert.equal(block.enumerated, null);
  assert.equal(block.eli, 'http://data.europa.eu/eli/reg_impl/2025/1093/oj');
  assert.match(block.consequence, /producer's country/);
});

test('reads a lower-case or padded code as the same country', () => {
  assert.deepEqual(classifyCountry(' id '), classifyCountry('ID'));
});

test('refuses a code that is not an ISO 3166-1 alpha-2 code with country_code_invalid', () => {
  for (const bad of ['ZZ', 'BRA', '', 'B1']) {
    assert.throws(
      () => classifyCountry(bad),
      (err: unknown) => err instanceof CountryClassificationError && err.code === 'country_code_invalid',
      bad,
    );
  }
});

test('the reference holds the version fields and one row per country, in the reference shape', () => {
  const ref = countryClassificationReference();
  assert.deepEqual(Object.keys(ref), ['instrument', 'eli', 'celex', 'version_date', 'checked_on', 'amended_by', 'countries']);
  assert.equal(ref.countries.length, 194);
  assert.equal(new Set(ref.countries.map((row) => row.country)).size, 194);
  for (const row of ref.countries) {
    assert.deepEqual(Object.keys(row), ['country', 'country_name', 'classification', 'enumerated']);
    assert.equal(row.enumerated, true);
  }
});

test('the reference rows are copies: changing one leaves the table alone', () => {
  const first = countryClassificationReference().countries[0];
  first.classification = 'low';
  assert.equal(countryClassificationReference().countries[0].classification, 'high');
});

test('the reference agrees with the block for every country it holds', () => {
  for (const row of countryClassificationReference().countries) {
    const block = classifyCountry(row.country);
    assert.equal(block.classification, row.classification, row.country);
    assert.equal(block.country_name, row.country_name, row.country);
  }
});

test('rejects a table that holds a country twice', () => {
  const raw = rawTable();
  raw.countries.push({ ...raw.countries[0], classification: 'low' });
  assert.throws(
    () => parseCountryTable(raw),
    (err: unknown) => err instanceof CountryClassificationError && err.code === 'country_table_invalid' && /held twice/.test(err.message),
  );
});

test('rejects a table row with an unknown code or a level outside low, standard, high', () => {
  const badCode = rawTable();
  badCode.countries[0] = { ...badCode.countries[0], country: 'ZZ' };
  assert.throws(() => parseCountryTable(badCode), CountryClassificationError);
  const badLevel = rawTable();
  badLevel.countries[0] = { ...badLevel.countries[0], classification: 'medium' };
  assert.throws(() => parseCountryTable(badLevel), CountryClassificationError);
});

test('rejects a table that lists a residual row: only countries the Commission names are held', () => {
  const raw = rawTable();
  raw.countries.push({ country: 'GF', country_name: 'French Guiana', classification: 'standard', enumerated: false });
  assert.throws(() => parseCountryTable(raw), CountryClassificationError);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countryContains, isRecognisedCountry, lookupCountry, recognisedCountries, resolveCountry } from '../../src/intake/countries.ts';
import { countryClassificationReference } from '../../src/engine/context/country-classification.ts';
import { HTTP_STATUS } from '../../src/api/errors.ts';
import { DomainError } from '../../src/errors.ts';

test('resolves codes, ISO short and official names, common and former names and French forms, whatever the case, accents and punctuation', () => {
  const forms: [string, string][] = [
    ['FR', 'FR'],
    ['fr', 'FR'],
    ['FRA', 'FR'],
    ['France', 'FR'],
    ["côte d'ivoire", 'CI'],
    ['COTE D IVOIRE', 'CI'],
    ['Ivory Coast', 'CI'],
    ['Allemagne', 'DE'],
    ['  ghana ', 'GH'],
    ['Brésil', 'BR'],
    ['Congo', 'CG'],
    ['Republic of the Congo', 'CG'],
    ['République démocratique du Congo', 'CD'],
    ['Cabo Verde', 'CV'],
    ['Republic of Moldova', 'MD'],
    ['Bolivia (Plurinational State of)', 'BO'],
    ['Iran (Islamic Republic of)', 'IR'],
    ['Viet Nam', 'VN'],
    ['Syria', 'SY'],
    ['Brunei', 'BN'],
    ['Burma', 'MM'],
    ['East Timor', 'TL'],
    ['Swaziland', 'SZ'],
    ['États-Unis', 'US'],
    ['ETATS UNIS', 'US'],
    ['Birmanie', 'MM'],
    ['Gambia (the)', 'GM'],
    ['The Gambia', 'GM'],
    ['viet-nam', 'VN'],
  ];
  for (const [input, code] of forms) assert.equal(resolveCountry(input), code, input);
});

test('every country name of the service\'s own country table resolves to its own code', () => {
  const rows = countryClassificationReference().countries;
  assert.ok(rows.length >= 194);
  for (const row of rows) assert.equal(lookupCountry(row.country_name), row.country, row.country_name);
});

test('refuses an unknown country with unknown_country, listing the accepted forms', () => {
  assert.throws(
    () => resolveCountry('Narnia'),
    (error: DomainError) =>
      error instanceof DomainError && HTTP_STATUS[error.code] === 422 && error.code === 'unknown_country' && /alpha-2.*alpha-3.*English or French name.*Viet Nam.*États-Unis/.test(error.message),
  );
  assert.equal(lookupCountry('XX'), null);
});

test('lists recognised countries with code, alpha-3 and English and French names', () => {
  const list = recognisedCountries();
  assert.ok(list.length > 240);
  assert.deepEqual(list.find((c) => c.code === 'CI'), { code: 'CI', alpha3: 'CIV', name_en: "Cote d'Ivoire", name_fr: "Côte-d'Ivoire" });
  assert.deepEqual(list.map((c) => c.code), [...list.map((c) => c.code)].sort());
  assert.ok(list.every((c) => isRecognisedCountry(c.code) && resolveCountry(c.name_fr) === c.code));
});

test('decides membership on the registry boundaries, overseas parts included', () => {
  assert.equal(countryContains('GH', [-1.2, 6.6]), true); // Kumasi region
  assert.equal(countryContains('GH', [6.6, -1.2]), false); // the same swapped: Gulf of Guinea
  assert.equal(countryContains('FR', [-52.3, 4.9]), true); // Cayenne, French Guiana
  assert.equal(countryContains('GF', [2.35, 48.85]), false); // Paris
});

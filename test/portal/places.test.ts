// The base map's places: the committed file of capitals the maps name, and how its generator reads the
// World Factbook's names and positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { capitalName, factbookPosition, type Place } from '../../scripts/factbook-capitals.ts';

const places = JSON.parse(readFileSync(new URL('../../src/portal/places/capitals.json', import.meta.url), 'utf8')) as Place[];

test('the places file holds at least 150 capitals, each named and placed on the Earth', () => {
  assert.ok(places.length >= 150, `${places.length} places`);
  for (const p of places) {
    assert.deepEqual(Object.keys(p), ['name', 'country', 'lon', 'lat'], JSON.stringify(p));
    assert.ok(typeof p.name === 'string' && p.name.trim() === p.name && p.name.length > 0 && !/[;:(]|\bnote\b/.test(p.name), `name ${JSON.stringify(p.name)}`);
    assert.ok(typeof p.country === 'string' && p.country.length > 0 && p.country !== 'none', `country of ${p.name}`);
    assert.ok(Number.isFinite(p.lon) && p.lon >= -180 && p.lon <= 180, `longitude of ${p.name}: ${p.lon}`);
    assert.ok(Number.isFinite(p.lat) && p.lat >= -90 && p.lat <= 90, `latitude of ${p.name}: ${p.lat}`);
  }
  const names = places.map((p) => `${p.name}\u0000${p.country}`);
  assert.deepEqual(names, [...names].sort(), 'sorted by name, then country');
  assert.equal(new Set(places.map((p) => `${p.name}|${p.lon}|${p.lat}`)).size, places.length, 'no place twice');
});

test('Côte d\'Ivoire\'s capital is Yamoussoukro, at the Factbook\'s 6 49 N, 5 16 W', () => {
  assert.deepEqual(places.filter((p) => p.country === "Cote d'Ivoire"), [{ name: 'Yamoussoukro', country: "Cote d'Ivoire", lon: -5.2667, lat: 6.8167 }]);
});

test('a Factbook position is read as decimal degrees, south and west negative; any other text is none', () => {
  assert.deepEqual(factbookPosition('6 49 N, 5 16 W'), { lon: -5.2667, lat: 6.8167 });
  assert.deepEqual(factbookPosition('34 35 S, 58 40 W'), { lon: -58.6667, lat: -34.5833 });
  assert.deepEqual(factbookPosition('04 51 N 31 37 E'), { lon: 31.6167, lat: 4.85 });
  assert.deepEqual(factbookPosition('8 31 S, 179 13 E'), { lon: 179.2167, lat: -8.5167 });
  for (const text of ['(Brussels) 50 50 N, 4 20 E', '91 00 N, 0 00 E', '10 60 N, 0 00 E', '10 00 N, 181 00 E', '10 00 N', '']) assert.equal(factbookPosition(text), null, text);
});

test('a capital\'s name is read without the Factbook\'s notes, bracketed roles and languages', () => {
  assert.equal(capitalName("Yamoussoukro; note - although Yamoussoukro has been the official capital since 1983, Abidjan remains the commercial and administrative center"), 'Yamoussoukro');
  assert.equal(capitalName('Porto-Novo (official capital); note - Cotonou (seat of government)'), 'Porto-Novo');
  assert.equal(capitalName('Jerusalem: note - Israel proclaimed Jerusalem as its capital in 1950'), 'Jerusalem');
  assert.equal(capitalName('Chisinau in Romanian (Kishinev in Russian)'), 'Chisinau');
  assert.equal(capitalName('Washington, DC'), 'Washington, DC');
});

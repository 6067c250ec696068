/**
 * The V3 statement built from a batch: its element order, the information system's business rules
 * reported as problems (table-tested against the rules the issue and the system's documents name),
 * the geolocation per the EU GeoJSON description, and the rule that makes a batch wood.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { buildStatement, type StatementFacts } from '../../src/statements/payload.ts';
import { goodsMeasure } from '../../src/statements/goods-measure.ts';
import { isWood, parseSpecies } from '../../src/statements/species.ts';
import { filingPlot, statementFacts } from './facts.ts';

const codes = (facts: StatementFacts) => buildStatement(facts).problems.map((p) => p.code);
const decode = (base64: string) => JSON.parse(Buffer.from(base64, 'base64').toString());

describe('the V3 statement payload', () => {
  test('a complete cocoa import has no problem and keeps SubmitDdsRequest\'s element order', () => {
    const built = buildStatement(statementFacts());
    assert.deepEqual(built.problems, []);
    assert.deepEqual(Object.keys(built.payload), ['operatorRole', 'statement']);
    assert.deepEqual(Object.keys(built.payload.statement), ['internalReferenceNumber', 'activityType', 'countryOfActivity', 'commodities', 'geoLocationConfidential']);
    assert.deepEqual(Object.keys(built.payload.statement.commodities[0]), ['position', 'descriptors', 'hsHeading', 'producers']);
    assert.deepEqual(Object.keys(built.payload.statement.commodities[0].producers[0]), ['position', 'country', 'name', 'geometryGeojson']);
    assert.deepEqual(built.payload.statement.commodities[0].descriptors.goodsMeasure, { netWeight: 24000 });
  });

  // What a shipment accepts and V3 refuses is reported, never changed.
  const REFUSED: [string, Partial<StatementFacts>, string, string | null, (f: ReturnType<typeof buildStatement>) => unknown, unknown][] = [
    ['TRADE', { activityType: 'TRADE' }, 'activity_not_in_v3', 'EUDR_ACTIVITY_TYPE_NOT_COMPATIBLE', (b) => b.payload.statement.activityType, 'TRADE'],
    ['an 8-digit HS code', { hsCode: '18010010' }, 'hs_heading_too_long', 'EUDR_COMMODITIES_HS_CODE_INVALID', (b) => b.payload.statement.commodities[0].hsHeading, '18010010'],
    ['a 40-character reference', { internalReference: 'R'.repeat(40) }, 'internal_reference_too_long', null, (b) => b.payload.statement.internalReferenceNumber, 'R'.repeat(40)],
    ['a 151-character description', { descriptionOfGoods: 'd'.repeat(151) }, 'description_too_long', null, (b) => b.payload.statement.commodities[0].descriptors.descriptionOfGoods, 'd'.repeat(151)],
  ];
  for (const [what, over, code, eudr, field, kept] of REFUSED) {
    test(`${what} is reported as ${code} and left as given`, () => {
      const built = buildStatement(statementFacts(over));
      assert.deepEqual(built.problems.map((p) => [p.code, p.eudr_code]), [[code, eudr]]);
      assert.equal(field(built), kept);
    });
  }

  test('a field not given is reported as waiting on the caller, nothing defaulted', () => {
    const built = buildStatement(statementFacts({ descriptionOfGoods: null, hsCode: null, quantity: null, destinationCountry: null }));
    assert.deepEqual(built.problems.map((p) => [p.code, p.field]), [
      ['missing', 'statement.countryOfActivity'],
      ['missing', 'statement.commodities[0].descriptors.descriptionOfGoods'],
      ['missing', 'statement.commodities[0].hsHeading'],
      ['missing', 'statement.commodities[0].descriptors.goodsMeasure'],
    ]);
    assert.equal(built.payload.statement.countryOfActivity, null);
    assert.deepEqual(built.payload.statement.commodities[0].descriptors.goodsMeasure, {});
  });

  test('a batch with no plots is reported; a producer named on the batch without plots is reported', () => {
    assert.deepEqual(codes(statementFacts({ plots: [] })), ['missing']);
    assert.deepEqual(codes(statementFacts({ namedProducers: [{ id: 'p-1', name: 'Ama Owusu', country: 'GH' }] })), ['producer_without_plots']);
  });

  test('a producer without a country is reported with the system\'s code', () => {
    const plot = filingPlot({ producer_country: null, country: null });
    const built = buildStatement(statementFacts({ plots: [plot] }));
    assert.deepEqual(built.problems.map((p) => [p.code, p.eudr_code, p.plot_ids]), [['producer_country_required', 'EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID', [plot.id]]]);
  });
});

describe('goods measure per the units-of-measure guidance', () => {
  // [activity, HS, quantity, unit, measure, problem codes]
  const TABLE: [Parameters<typeof goodsMeasure>[0], string, number, 'kg' | 't' | 'm3', object, string[]][] = [
    ['IMPORT', '1801', 1000, 'kg', { netWeight: 1000 }, []],
    ['EXPORT', '1801', 2.5, 't', { netWeight: 2500 }, []],
    ['IMPORT', '4410', 20, 'm3', { supplementaryUnit: 20, supplementaryUnitQualifier: 'MTQ' }, ['net_mass_required']],
    ['IMPORT', '441011', 20, 't', { netWeight: 20000 }, ['supplementary_unit_required']],
    ['IMPORT', '4701', 5, 't', { netWeight: 5000 }, ['supplementary_unit_required']],
    ['IMPORT', '010221', 5, 't', { netWeight: 5000 }, ['supplementary_unit_required']],
    ['EXPORT', '1801', 3, 'm3', { supplementaryUnit: 3, supplementaryUnitQualifier: 'MTQ' }, ['net_mass_required', 'supplementary_unit_not_allowed']],
    ['DOMESTIC', '4410', 20, 'm3', { supplementaryUnit: 20, supplementaryUnitQualifier: 'MTQ' }, []],
    ['DOMESTIC', '1801', 7, 'kg', { netWeight: 7 }, []],
  ];
  for (const [activity, hs, quantity, unit, measure, problems] of TABLE) {
    test(`${activity} ${hs} ${quantity} ${unit}`, () => {
      const got = goodsMeasure(activity, hs, { quantity, unit, netMassKg: null, supplementaryUnit: null, supplementaryUnitType: null });
      assert.deepEqual(got.measure, measure);
      assert.deepEqual(got.problems.map((p) => p.code), problems);
    });
  }

  // A heading that takes both: net mass and a supplementary unit of its type, as V3 has them side by side.
  const BOTH: [string, Parameters<typeof goodsMeasure>[2], object, string[]][] = [
    ['IMPORT 4403.91 roundwood: kg and m3', { quantity: null, unit: null, netMassKg: 18500, supplementaryUnit: 25, supplementaryUnitType: 'MTQ' }, { netWeight: 18500, supplementaryUnit: 25, supplementaryUnitQualifier: 'MTQ' }, []],
    ['IMPORT 4403.91 given in m3 as quantity, its mass beside it', { quantity: 25, unit: 'm3', netMassKg: 18500, supplementaryUnit: null, supplementaryUnitType: null }, { netWeight: 18500, supplementaryUnit: 25, supplementaryUnitQualifier: 'MTQ' }, []],
    ['IMPORT 4403.91 with mass alone names the m3 it needs', { quantity: null, unit: null, netMassKg: 18500, supplementaryUnit: null, supplementaryUnitType: null }, { netWeight: 18500 }, ['supplementary_unit_required']],
    ['IMPORT 4403.91 with a supplementary unit of another type', { quantity: null, unit: null, netMassKg: 18500, supplementaryUnit: 40, supplementaryUnitType: 'NAR' }, { netWeight: 18500, supplementaryUnit: 40, supplementaryUnitQualifier: 'NAR' }, ['supplementary_unit_required']],
    ['IMPORT 4403.91 with a supplementary unit but no type', { quantity: null, unit: null, netMassKg: 18500, supplementaryUnit: 25, supplementaryUnitType: null }, { netWeight: 18500 }, ['supplementary_unit_type_required', 'supplementary_unit_required']],
  ];
  for (const [name, batch, measure, problems] of BOTH) {
    test(name, () => {
      const got = goodsMeasure('IMPORT', '440391', batch);
      assert.deepEqual(got.measure, measure);
      assert.deepEqual(got.problems.map((p) => p.code), problems);
    });
  }
  for (const [hs, type, amount] of [['4701', 'KSD', 900], ['401110', 'NAR', 400], ['4104', 'NAR', 1200], ['010229', 'NAR', 30]] as const) {
    test(`IMPORT ${hs} (${type}) is ready with net mass and ${amount} ${type}`, () => {
      const got = goodsMeasure('IMPORT', hs, { quantity: null, unit: null, netMassKg: 5000, supplementaryUnit: amount, supplementaryUnitType: type });
      assert.deepEqual(got.measure, { netWeight: 5000, supplementaryUnit: amount, supplementaryUnitQualifier: type });
      assert.deepEqual(got.problems, []);
    });
  }
});

describe('species and wood (spec 4.10)', () => {
  const WOOD: [string | null, string | null, boolean][] = [
    ['wood', null, true], ['Timber', '1801', true], ['cocoa', '4407', false], [null, '4407', true], [null, '47', true], [null, '4812', true],
    [null, '4901', true], [null, '940161', true], [null, '9403', true], [null, '9406', true], [null, '9404', false], [null, '1801', false], [null, null, false],
  ];
  for (const [commodity, hs, wood] of WOOD) {
    test(`commodity ${commodity} with HS ${hs} is ${wood ? '' : 'not '}wood`, () => assert.equal(isWood(commodity, hs), wood));
  }

  test('species are read from objects or plain strings; an entry without a scientific name is refused', () => {
    assert.deepEqual(parseSpecies(['Tectona grandis', { scientific_name: 'Khaya ivorensis', common_name: 'African mahogany' }]), [
      { scientific_name: 'Tectona grandis', common_name: null },
      { scientific_name: 'Khaya ivorensis', common_name: 'African mahogany' },
    ]);
    assert.throws(() => parseSpecies([{ common_name: 'Teak' }]), { code: 'species_scientific_name_required' });
    assert.throws(() => parseSpecies(['  ']), { code: 'species_scientific_name_required' });
    assert.throws(() => parseSpecies(['x'.repeat(101)]), { code: 'bad_species' });
    assert.throws(() => parseSpecies(Array.from({ length: 501 }, (_, i) => `Species ${i}`)), { code: 'bad_species' });
  });

  const wood = { commodity: 'wood', hsCode: '4407', quantity: 12, unit: 't' as const };
  test('a wood batch with species carries speciesInfo after hsHeading and before producers', () => {
    const built = buildStatement(statementFacts({ ...wood, species: [{ scientific_name: 'Tectona grandis', common_name: 'Teak' }] }));
    assert.deepEqual(built.problems, []);
    const commodity = built.payload.statement.commodities[0];
    assert.deepEqual(Object.keys(commodity), ['position', 'descriptors', 'hsHeading', 'speciesInfo', 'producers']);
    assert.deepEqual(commodity.speciesInfo, [{ scientificName: 'Tectona grandis', commonName: 'Teak' }]);
  });

  test('a wood batch without species is reported as waiting on the caller; without a common name as the system\'s pair rule', () => {
    assert.deepEqual(buildStatement(statementFacts(wood)).problems.map((p) => [p.code, p.eudr_code]), [['species_required', 'EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY']]);
    const noCommon = buildStatement(statementFacts({ ...wood, species: [{ scientific_name: 'Tectona grandis', common_name: null }] }));
    assert.deepEqual(noCommon.problems.map((p) => p.eudr_code), ['EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY']);
  });

  test('a batch that is not wood carries no speciesInfo', () => {
    const built = buildStatement(statementFacts({ species: [{ scientific_name: 'Theobroma cacao', common_name: 'Cacao' }] }));
    assert.equal('speciesInfo' in built.payload.statement.commodities[0], false);
  });
});

describe('geolocation per the EU GeoJSON file description', () => {
  test('plots are grouped by producer name and country, each group one FeatureCollection with the four properties', () => {
    const a = filingPlot({ external_ref: 'A', producer_name: 'Kofi Mensah' });
    const b = filingPlot({ external_ref: 'B', producer_name: 'Kofi Mensah' });
    const c = filingPlot({ external_ref: 'C', producer_name: 'Ama Owusu' });
    const producers = buildStatement(statementFacts({ plots: [a, c, b] })).payload.statement.commodities[0].producers;
    assert.deepEqual(producers.map((p) => [p.position, p.name, p.country]), [[1, 'Kofi Mensah', 'GH'], [2, 'Ama Owusu', 'GH']]);
    const first = decode(producers[0].geometryGeojson);
    assert.equal(first.type, 'FeatureCollection');
    assert.deepEqual(first.features.map((f: any) => f.properties), [
      { ProducerName: 'Kofi Mensah', ProducerCountry: 'GH', ProductionPlace: 'A', Area: 120 },
      { ProducerName: 'Kofi Mensah', ProducerCountry: 'GH', ProductionPlace: 'B', Area: 120 },
    ]);
  });

  test('coordinates are put on the 6-decimal grid', () => {
    const plot = filingPlot({ geometry: { type: 'Point', coordinates: [-1.61234567890123, 6.70000049999999] }, declared_area_ha: 2 });
    const [feature] = decode(buildStatement(statementFacts({ plots: [plot] })).payload.statement.commodities[0].producers[0].geometryGeojson).features;
    assert.deepEqual(feature.geometry.coordinates, [-1.612346, 6.7]);
  });

  test('a point of 6 ha and a polygon with a hole stay in the batch and are named among the problems', () => {
    const point = filingPlot({ external_ref: 'PT-6HA', geometry: { type: 'Point', coordinates: [-1.6, 6.7] }, declared_area_ha: 6, area_ha: 6 });
    const holed = filingPlot({
      external_ref: 'HOLED',
      geometry: { type: 'Polygon', coordinates: [[[-1.7, 6.7], [-1.69, 6.7], [-1.69, 6.71], [-1.7, 6.71], [-1.7, 6.7]], [[-1.698, 6.702], [-1.698, 6.704], [-1.696, 6.704], [-1.696, 6.702], [-1.698, 6.702]]] },
    });
    const small = filingPlot({ external_ref: 'PT-2HA', geometry: { type: 'Point', coordinates: [-1.5, 6.7] }, declared_area_ha: 2 });
    const built = buildStatement(statementFacts({ plots: [point, holed, small] }));
    assert.deepEqual(built.problems.map((p) => [p.code, p.eudr_code, p.plot_ids]), [
      ['point_area_out_of_range', 'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID', [point.id]],
      ['polygon_with_hole', 'EUDR_COMMODITIES_PRODUCER_GEO_POLYGON_INVALID', [holed.id]],
    ]);
    assert.deepEqual(built.features.map((f) => f.properties!.ProductionPlace), ['PT-6HA', 'HOLED', 'PT-2HA']);
    assert.equal((built.features[1].geometry as any).coordinates.length, 2, 'the hole is kept, not cut away');
  });

  test('a rejected plot and a plot without geometry stay in the batch and are named', () => {
    const rejected = filingPlot({ validation_state: 'rejected' });
    const empty = filingPlot({ geometry: null });
    const built = buildStatement(statementFacts({ plots: [rejected, empty] }));
    assert.deepEqual(built.problems.map((p) => [p.code, p.plot_ids]), [['plot_rejected', [rejected.id]], ['plot_without_geometry', [empty.id]]]);
  });

  test('vertices that meet on the 6-decimal grid are reported', () => {
    const plot = filingPlot({ geometry: { type: 'Polygon', coordinates: [[[-1.6, 6.7], [-1.6000001, 6.7], [-1.59, 6.7], [-1.59, 6.71], [-1.6, 6.7]]] } });
    assert.deepEqual(codes(statementFacts({ plots: [plot] })), ['vertices_collapse']);
  });

  test('more than 1,000 producers on a commodity is reported', () => {
    const plots = Array.from({ length: 1001 }, (_, i) => filingPlot({ producer_name: `Producer ${i}` }));
    assert.deepEqual(codes(statementFacts({ plots })), ['too_many_producers_per_commodity']);
  });
});

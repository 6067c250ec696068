/**
 * Shipments and statements over HTTP (spec 4.9, 4.10, 7.7), on both backends: every field rule and
 * refusal, plot membership by id, reference and producer, the register's shipment filter, the
 * statement check and its files, and stored statements.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { insertPlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { checkSchema } from '../../src/statements/schema-check.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';

const square = (lon: number, lat: number): PlotColumns['geometry'] => ({
  type: 'Polygon',
  coordinates: [[[lon, lat], [lon + 0.01, lat], [lon + 0.01, lat + 0.01], [lon, lat + 0.01], [lon, lat]]],
});

function plot(ref: string, i: number, over: Partial<PlotColumns> = {}): PlotColumns {
  return {
    id: randomUUID(), external_ref: ref, commodity: 'cocoa', country: 'GH', area_ha: 120, declared_area_ha: null, geometry: square(-1.6 + (i % 100) * 0.011, 6.7 + Math.floor(i / 100) * 0.011),
    validation_state: 'valid', validation_report: { findings: [], repairs: [], rejections: [] }, planted_year: null, producer_id: null, ...over,
  };
}

/** A shipment every statement field of which is given. */
const COMPLETE = {
  commodity: 'cocoa', description_of_goods: 'Cocoa beans, whole, raw', hs_code: '18.01', quantity: 24, unit: 't', destination_country: 'Netherlands',
  shipped_on: '2026-03-01', arrives_on: '2026-03-20',
};

for (const backend of BACKENDS) {
  describe(`shipments and statements (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let otherKey: string;
    let workspaceId: string;
    const plots: PlotColumns[] = [];
    const api = (method: string, path: string, body?: unknown, asKey = key) => app.call(method, `/api/v1${path}`, { key: asKey, body });

    async function refused(method: string, path: string, body: unknown, status: number, code: string) {
      const r = await api(method, path, body);
      assert.equal(r.status, status, `${method} ${path} ${String(JSON.stringify(body)).slice(0, 120)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, code);
      assert.ok(r.body.error.message.length > 10);
      return r;
    }

    /** A statement file; its body is no JSON, so it is read as text beside the documented JSON answers. */
    async function file(path: string): Promise<{ status: number; type: string; text: string }> {
      const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    }

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Co', plan: 'trial', email: 'a@cocoa.test', password: 'cocoa pass' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      otherKey = (await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Other', plan: 'trial', email: 'b@other.test', password: 'other pass' })).api_key as string;
      plots.push(...Array.from({ length: 6 }, (_, i) => plot(`GH-${i}`, i)));
      await app.services.store.em().transactional((tx) => insertPlots(tx, workspaceId, plots));
    });
    after(() => app.close());

    test('creates a shipment with every field, normalised, and its plots by reference', async () => {
      const r = await api('POST', '/portal/statements/shipments', {
        reference: 'SHIP-1', ...COMPLETE, species: ['Theobroma cacao'], note: 'first lot', refs: ['GH-0', 'GH-1', 'NOPE'],
      });
      assert.equal(r.status, 201);
      assert.equal(r.body.hs_code, '1801');
      assert.equal(r.body.destination_country, 'NL');
      assert.equal(r.body.activity_type, 'IMPORT');
      assert.deepEqual(r.body.species, [{ scientific_name: 'Theobroma cacao', common_name: null }]);
      assert.equal(r.body.wood, false);
      assert.deepEqual(r.body.plots_added, { added: 2, already_in: 0, not_found: ['NOPE'], n_not_found: 1, n_plots: 2 });
      assert.deepEqual(r.body.plots.map((p: { external_ref: string }) => p.external_ref), ['GH-0', 'GH-1']);
      assert.equal(r.body.plots[0].state.label, 'Not read yet');
      assert.deepEqual(r.body.counts, { plots: 2, read: 0, with_finding: 0, withheld: 0, not_read: 2, failed: 0 });
      assert.equal(r.body.archive_review_price.priced, false);
    });

    test('nothing left out is defaulted except activity_type', async () => {
      const r = await api('POST', '/portal/statements/shipments', { reference: 'BARE' });
      assert.equal(r.status, 201);
      for (const field of ['commodity', 'description_of_goods', 'hs_code', 'quantity', 'unit', 'destination_country', 'shipped_on', 'arrives_on', 'species', 'note']) {
        assert.equal(r.body[field], null, field);
      }
      assert.equal(r.body.activity_type, 'IMPORT');
      const check = await api('GET', `/portal/statements/shipments/${r.body.id}/statement?format=json`);
      assert.equal(check.status, 200);
      assert.equal(check.body.ready, false);
      assert.deepEqual(check.body.problems.filter((p: { code: string }) => p.code === 'missing').map((p: { field: string }) => p.field), [
        'statement.countryOfActivity', 'statement.commodities[0].descriptors.descriptionOfGoods', 'statement.commodities[0].hsHeading',
        'statement.commodities[0].descriptors.goodsMeasure', 'statement.commodities[0].producers',
      ]);
    });

    // Spec 7.7's 422s, each for what a statement would refuse.
    const REFUSALS: [string, Record<string, unknown>, string][] = [
      ['no reference', { reference: undefined }, 'reference_required'],
      ['a blank reference', { reference: '   ' }, 'reference_required'],
      ['a 51-character reference', { reference: 'R'.repeat(51) }, 'reference_too_long'],
      ['a one-digit HS code', { hs_code: '1' }, 'bad_hs_code'],
      ['a nine-digit HS code', { hs_code: '1801.00.001' }, 'bad_hs_code'],
      ['letters for an HS code', { hs_code: 'cocoa' }, 'bad_hs_code'],
      ['a negative quantity', { quantity: -3 }, 'bad_quantity'],
      ['a quantity as text', { quantity: '3' }, 'bad_quantity'],
      ['pounds', { unit: 'lb' }, 'bad_unit'],
      ['a destination outside the EU', { destination_country: 'US' }, 'bad_destination'],
      ['a producing country as destination', { destination_country: 'Ghana' }, 'bad_destination'],
      ['an activity V3 never had', { activity_type: 'SELL' }, 'bad_activity'],
      ['a date that is none', { shipped_on: '2026-13-01' }, 'bad_date'],
      ['arrival before shipping', { shipped_on: '2026-03-02', arrives_on: '2026-03-01' }, 'bad_date'],
      ['501 species', { species: Array.from({ length: 501 }, (_, i) => `Species ${i}`) }, 'bad_species'],
      ['a species name of 101 characters', { species: ['x'.repeat(101)] }, 'bad_species'],
      ['a species without a scientific name', { species: [{ common_name: 'Teak' }] }, 'species_scientific_name_required'],
      ['refs that are no list', { refs: 'GH-0' }, 'bad_refs'],
    ];
    for (const [what, body, code] of REFUSALS) {
      test(`create refuses ${what} with 422 ${code}`, async () => {
        await refused('POST', '/portal/statements/shipments', { reference: `REF-${code}`, ...body }, 422, code);
      });
    }

    test('409 duplicate_reference for a second shipment with a reference, on create and on change', async () => {
      const first = await api('POST', '/portal/statements/shipments', { reference: 'DUP' });
      assert.equal(first.status, 201);
      await refused('POST', '/portal/statements/shipments', { reference: 'DUP' }, 409, 'duplicate_reference');
      const second = await api('POST', '/portal/statements/shipments', { reference: 'DUP-2' });
      await refused('PATCH', `/portal/statements/shipments/${second.body.id}`, { reference: 'DUP' }, 409, 'duplicate_reference');
    });

    test('404 not_found for a shipment of no workspace or of another, and for an unknown producer', async () => {
      const mine = await api('POST', '/portal/statements/shipments', { reference: 'MINE' });
      await refused('GET', `/portal/statements/shipments/${randomUUID()}`, undefined, 404, 'not_found');
      await refused('GET', '/portal/statements/shipments/not-an-id', undefined, 404, 'not_found');
      const foreign = await api('GET', `/portal/statements/shipments/${mine.body.id}`, undefined, otherKey);
      assert.equal(foreign.status, 404);
      await refused('POST', '/portal/statements/shipments', { reference: 'P', producer_ids: [randomUUID()] }, 404, 'not_found');
      await refused('POST', `/portal/statements/shipments/${mine.body.id}/plots`, { producer_id: randomUUID() }, 404, 'not_found');
    });

    test('adds plots by id, reference and producer together; lists what names nothing; counts what was in', async () => {
      const s = await api('POST', '/portal/statements/shipments', { reference: 'ADD' });
      const producer = await api('POST', '/portal/plots/producers', { name: 'Ama Owusu', country: 'GH' });
      for (const p of [plots[4], plots[5]]) assert.equal((await api('POST', `/portal/plots/${p.id}/producer`, { producer_id: producer.body.id })).status, 200);
      const unknownId = randomUUID();
      const added = await api('POST', `/portal/statements/shipments/${s.body.id}/plots`, { plot_ids: [plots[0].id, unknownId], refs: ['GH-1', 'GH-9'], producer_id: producer.body.id });
      assert.equal(added.status, 200);
      assert.deepEqual(added.body, { added: 4, already_in: 0, not_found: [unknownId, 'GH-9'], n_not_found: 2, n_plots: 4 });
      const again = await api('POST', `/portal/statements/shipments/${s.body.id}/plots`, { refs: ['GH-1', 'GH-2'] });
      assert.deepEqual(again.body, { added: 1, already_in: 1, not_found: [], n_not_found: 0, n_plots: 5 });
      await refused('POST', `/portal/statements/shipments/${s.body.id}/plots`, {}, 422, 'no_plots');
      await refused('POST', `/portal/statements/shipments/${s.body.id}/plots`, { plot_ids: Array.from({ length: 5001 }, () => randomUUID()) }, 422, 'too_many_plots');

      const detail = await api('GET', `/portal/statements/shipments/${s.body.id}`);
      assert.deepEqual(detail.body.producers.map((p: { name: string; plots: number }) => [p.name, p.plots]), [['Ama Owusu', 2]]);
      const filtered = await api('GET', `/portal/plots?shipment_id=${s.body.id}`);
      assert.equal(filtered.status, 200);
      assert.deepEqual(filtered.body.plots.map((p: { external_ref: string }) => p.external_ref).sort(), ['GH-0', 'GH-1', 'GH-2', 'GH-4', 'GH-5']);
      const list = await api('GET', '/portal/statements/shipments');
      assert.equal(list.body.shipments.find((x: { id: string }) => x.id === s.body.id).counts.plots, 5);

      const removed = await api('POST', `/portal/statements/shipments/${s.body.id}/plots/remove`, { plot_ids: [plots[0].id, plots[1].id] });
      assert.deepEqual(removed.body, { removed: 2, n_plots: 3 });
      const one = await api('DELETE', `/portal/statements/shipments/${s.body.id}/plots/${plots[2].id}`);
      assert.deepEqual(one.body, { removed: 1, n_plots: 2 });
      await refused('DELETE', `/portal/statements/shipments/${s.body.id}/plots/${plots[2].id}`, undefined, 404, 'not_found');
      await refused('POST', `/portal/statements/shipments/${s.body.id}/plots/remove`, {}, 422, 'no_plots');
    });

    test('changes any field; null clears one; a later arrival date is checked against the stored one', async () => {
      const s = await api('POST', '/portal/statements/shipments', { reference: 'PATCH', ...COMPLETE });
      const changed = await api('PATCH', `/portal/statements/shipments/${s.body.id}`, { hs_code: '4407 10', commodity: null, species: [{ scientific_name: 'Tectona grandis', common_name: 'Teak' }], activity_type: 'EXPORT' });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.hs_code, '440710');
      assert.equal(changed.body.commodity, null);
      assert.equal(changed.body.wood, true);
      assert.equal(changed.body.activity_type, 'EXPORT');
      assert.equal(changed.body.description_of_goods, COMPLETE.description_of_goods);
      await refused('PATCH', `/portal/statements/shipments/${s.body.id}`, { arrives_on: '2026-02-01' }, 422, 'bad_date');
    });

    test('a roundwood import (HS 4403.91) takes net mass and m3 side by side and its border country, and is filed with both, valid against V3', async () => {
      const wood = { commodity: 'wood', description_of_goods: 'Teak logs', hs_code: '4403.91', destination_country: 'DE', species: [{ scientific_name: 'Tectona grandis', common_name: 'Teak' }], plot_ids: [plots[0].id] };
      const onlyVolume = await api('POST', '/portal/statements/shipments', { reference: 'LOGS-M3', ...wood, quantity: 25, unit: 'm3' });
      const waiting = await api('GET', `/portal/statements/shipments/${onlyVolume.body.id}/statement`);
      assert.deepEqual(waiting.body.problems.map((p: { code: string }) => p.code), ['net_mass_required']);
      assert.match(waiting.body.problems[0].message, /give net_mass_kg beside the supplementary unit in MTQ that HS heading 440391 takes/);

      const s = await api('POST', '/portal/statements/shipments', { reference: 'LOGS', ...wood, net_mass_kg: 18500, supplementary_unit: 25, supplementary_unit_type: 'mtq', border_cross_country: 'Belgium' });
      assert.equal(s.status, 201);
      assert.deepEqual([s.body.net_mass_kg, s.body.supplementary_unit, s.body.supplementary_unit_type, s.body.border_cross_country, s.body.quantity], [18500, 25, 'MTQ', 'BE', null]);
      const check = await api('GET', `/portal/statements/shipments/${s.body.id}/statement`);
      assert.deepEqual(check.body.problems, []);
      assert.equal(check.body.ready, true);
      assert.equal(check.body.payload.statement.borderCrossCountry, 'BE');
      assert.deepEqual(check.body.payload.statement.commodities[0].descriptors.goodsMeasure, { netWeight: 18500, supplementaryUnit: 25, supplementaryUnitQualifier: 'MTQ' });
      const xml = await file(`/portal/statements/shipments/${s.body.id}/statement?format=xml`);
      assert.match(xml.text, /<dds:countryOfActivity>DE<\/dds:countryOfActivity><dds:borderCrossCountry>BE<\/dds:borderCrossCountry>/);
      assert.match(xml.text, /<eudrCommon:netWeight>18500<\/eudrCommon:netWeight><eudrCommon:supplementaryUnit>25<\/eudrCommon:supplementaryUnit><eudrCommon:supplementaryUnitQualifier>MTQ<\/eudrCommon:supplementaryUnitQualifier>/);
      assert.deepEqual(await checkSchema(xml.text, app.services.config.tracesSchemaDir), { checked: true, valid: true, errors: [] });

      await refused('PATCH', `/portal/statements/shipments/${s.body.id}`, { border_cross_country: 'Norway' }, 422, 'bad_border_cross_country');
      await refused('PATCH', `/portal/statements/shipments/${s.body.id}`, { supplementary_unit_type: 'cubic metres' }, 422, 'bad_unit');
      await refused('PATCH', `/portal/statements/shipments/${s.body.id}`, { net_mass_kg: 0 }, 422, 'bad_quantity');
      const domestic = await api('PATCH', `/portal/statements/shipments/${s.body.id}`, { activity_type: 'DOMESTIC' });
      assert.equal(domestic.status, 200);
      assert.equal((await api('GET', `/portal/statements/shipments/${s.body.id}/statement`)).body.payload.statement.borderCrossCountry, undefined, 'no border crossed on the domestic market');
    });

    test('the statement: ready over a complete batch, its files valid against the V3 schemas; 409 not_ready with the problems otherwise', async () => {
      const s = await api('POST', '/portal/statements/shipments', { reference: 'READY', ...COMPLETE, plot_ids: [plots[0].id, plots[3].id] });
      const check = await api('GET', `/portal/statements/shipments/${s.body.id}/statement`);
      assert.equal(check.status, 200);
      assert.deepEqual(check.body.problems, []);
      assert.equal(check.body.schema_checked, true);
      assert.equal(check.body.ready, true);
      assert.equal(check.body.payload.statement.internalReferenceNumber, 'READY');
      const xml = await file(`/portal/statements/shipments/${s.body.id}/statement?format=xml`);
      assert.equal(xml.status, 200);
      assert.match(xml.type, /application\/xml/);
      assert.deepEqual(await checkSchema(xml.text, app.services.config.tracesSchemaDir), { checked: true, valid: true, errors: [] });
      const soap = await file(`/portal/statements/shipments/${s.body.id}/statement?format=soap`);
      assert.match(soap.type, /^text\/xml; charset=utf-8$/, 'a SOAP 1.1 envelope is text/xml');
      assert.match(soap.text, /xmlns:soapenv="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"/);
      assert.match(soap.text, /\{\{wsse_username\}\}/);
      const geojson = await file(`/portal/statements/shipments/${s.body.id}/statement?format=geojson`);
      assert.equal(geojson.status, 200);
      assert.equal(JSON.parse(geojson.text).features.length, 2);
      await refused('GET', `/portal/statements/shipments/${s.body.id}/statement?format=pdf`, undefined, 422, 'bad_format');

      const trade = await api('POST', '/portal/statements/shipments', { reference: 'TRADE', ...COMPLETE, activity_type: 'TRADE', plot_ids: [plots[0].id] });
      const refusedFile = await refused('GET', `/portal/statements/shipments/${trade.body.id}/statement?format=soap`, undefined, 409, 'not_ready');
      assert.match(refusedFile.body.error.message, /TRADE/);
    });

    test('a shipment of 1,000 plots gives a statement that passes the V3 schemas', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => plot(`BIG-${i}`, i));
      await app.services.store.em().transactional((tx) => insertPlots(tx, workspaceId, many));
      const s = await api('POST', '/portal/statements/shipments', { reference: 'BIG', ...COMPLETE, refs: many.map((p) => p.external_ref) });
      assert.equal(s.body.plots_added.added, 1000);
      const check = await api('GET', `/portal/statements/shipments/${s.body.id}/statement?format=json`);
      assert.deepEqual(check.body.problems, []);
      assert.equal(check.body.schema_checked, true);
      const xml = await file(`/portal/statements/shipments/${s.body.id}/statement?format=xml`);
      assert.deepEqual(await checkSchema(xml.text, app.services.config.tracesSchemaDir), { checked: true, valid: true, errors: [] });
    });

    test('filing options: filed by an authorised representative with its geolocation confidential, valid against V3; null files it as the operator again; a bad operator is refused and nothing stored', async () => {
      const s = await api('POST', '/portal/statements/shipments', { reference: 'FILED-FOR', ...COMPLETE, plot_ids: [plots[1].id] });
      const operator = { name: 'Cacao Import BV', identifiers: [{ type: 'eori', value: 'NL123456789' }], address: { country: 'NL', street: 'Havenstraat 12', postal_code: '1013 AB', city: 'Amsterdam' }, email: 'dds@cacao.example' };
      for (const [body, code] of [
        [{ represented_operator: { identifiers: [{ type: 'eori', value: 'NL1' }] } }, 'bad_represented_operator'],
        [{ represented_operator: { name: 'X', identifiers: [{ type: 'ssn', value: '1' }] } }, 'bad_represented_operator'],
        [{ represented_operator: { name: 'X', email: 'not an address' } }, 'bad_represented_operator'],
        [{ represented_operator: { name: 'X', adress: {} } }, 'bad_represented_operator'],
        [{ geolocation_confidential: 'yes' }, 'bad_geolocation_confidential'],
      ] as const) {
        await refused('POST', '/portal/statements', { shipment_id: s.body.id, internal_reference: 'FILED-BAD', ...body }, 422, code);
      }
      assert.equal((await api('GET', '/portal/statements')).body.statements.some((x: { internal_reference: string }) => x.internal_reference === 'FILED-BAD'), false, 'a refused statement writes nothing');

      const stored = await api('POST', '/portal/statements', { shipment_id: s.body.id, represented_operator: operator, geolocation_confidential: true });
      assert.equal(stored.status, 201);
      assertDocumented('POST', '/api/v1/portal/statements', 201, stored.body);
      assert.deepEqual([stored.body.represented_operator, stored.body.geolocation_confidential], [operator, true]);
      const detail = await api('GET', `/portal/statements/${stored.body.id}`);
      assertDocumented('GET', `/api/v1/portal/statements/${stored.body.id}`, 200, detail.body);
      assert.equal(detail.body.check.ready, true, JSON.stringify(detail.body.check.problems));
      assert.equal(detail.body.check.payload.operatorRole, 'REPRESENTATIVE_OPERATOR');
      assert.equal(detail.body.check.payload.statement.representedOperator.operatorName, 'Cacao Import BV');
      assert.equal(detail.body.check.payload.statement.geoLocationConfidential, true);
      const xml = await file(`/portal/statements/${stored.body.id}?format=xml`);
      assert.equal(xml.status, 200);
      assert.deepEqual(await checkSchema(xml.text, app.services.config.tracesSchemaDir), { checked: true, valid: true, errors: [] });
      assert.match(xml.text, /<dds:operatorRole>REPRESENTATIVE_OPERATOR<\/dds:operatorRole>.*<dds:representedOperator>.*<eudrCommon:identifierValue>NL123456789<\/eudrCommon:identifierValue>.*<dds:geoLocationConfidential>true</s);
      // The shipment's own statement is the operator's.
      assert.equal((await api('GET', `/portal/statements/shipments/${s.body.id}/statement`)).body.payload.operatorRole, 'OPERATOR');

      const own = await api('PATCH', `/portal/statements/${stored.body.id}`, { represented_operator: null });
      assert.deepEqual([own.status, own.body.represented_operator, own.body.geolocation_confidential], [200, null, true]);
      const again = (await api('GET', `/portal/statements/${stored.body.id}`)).body.check.payload;
      assert.equal(again.operatorRole, 'OPERATOR');
      assert.equal('representedOperator' in again.statement, false);
      const open = await api('PATCH', `/portal/statements/${stored.body.id}`, { geolocation_confidential: false, represented_operator: { name: 'Cacao Import BV' } });
      assert.equal(open.body.geolocation_confidential, false);
      assert.match((await file(`/portal/statements/${stored.body.id}?format=xml`)).text, /<dds:geoLocationConfidential>false</);
      // Kept after its shipment is deleted, the statement is filed as it was set.
      assert.equal((await api('DELETE', `/portal/statements/shipments/${s.body.id}`)).status, 204);
      const kept = (await api('GET', `/portal/statements/${stored.body.id}`)).body.check;
      assert.deepEqual([kept.ready, kept.payload.operatorRole, kept.payload.statement.representedOperator], [true, 'REPRESENTATIVE_OPERATOR', { operatorName: 'Cacao Import BV' }]);
    });

    test('stored statements: from a shipment under its reference, 409 on the same reference again, species carried back, kept when the shipment goes', async () => {
      const s = await api('POST', '/portal/statements/shipments', { reference: 'STORED', ...COMPLETE, plot_ids: [plots[0].id] });
      const stored = await api('POST', '/portal/statements/from-shipment', { shipment_id: s.body.id });
      assert.equal(stored.status, 201);
      assert.equal(stored.body.internal_reference, 'STORED');
      assert.equal(stored.body.shipment_id, s.body.id);
      await refused('POST', '/portal/statements/from-shipment', { shipment_id: s.body.id }, 409, 'duplicate_reference');
      await refused('POST', '/portal/statements/from-shipment', { shipment_id: randomUUID() }, 404, 'not_found');
      await refused('POST', '/portal/statements', { shipment_id: s.body.id, internal_reference: 'S-2', species: [{ common_name: 'Teak' }] }, 422, 'species_scientific_name_required');

      const second = await api('POST', '/portal/statements', { shipment_id: s.body.id, internal_reference: 'S-2', species: ['Theobroma cacao'] });
      assert.equal(second.status, 201);
      assert.deepEqual(second.body.species, [{ scientific_name: 'Theobroma cacao', common_name: null }]);
      const patched = await api('PATCH', `/portal/statements/${second.body.id}`, { species: [{ scientific_name: 'Theobroma cacao', common_name: 'Cacao' }] });
      assert.deepEqual(patched.body.species, [{ scientific_name: 'Theobroma cacao', common_name: 'Cacao' }]);
      await refused('PATCH', `/portal/statements/${second.body.id}`, { internal_reference: 'STORED' }, 409, 'duplicate_reference');

      const detail = await api('GET', `/portal/statements/${stored.body.id}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.check.ready, true);
      const xml = await file(`/portal/statements/${second.body.id}?format=xml`);
      assert.match(xml.text, /<dds:internalReferenceNumber>S-2<\/dds:internalReferenceNumber>/);
      assert.equal((await api('GET', '/portal/statements')).body.statements.length >= 2, true);

      assert.equal((await api('DELETE', `/portal/statements/shipments/${s.body.id}`)).status, 204);
      await refused('GET', `/portal/statements/shipments/${s.body.id}`, undefined, 404, 'not_found');
      const kept = await api('GET', '/portal/statements');
      assert.equal(kept.body.statements.find((x: { id: string }) => x.id === stored.body.id).shipment_id, null);
      // Spec 4.9: statements stay, served from the batch as it stood when it was deleted.
      const afterDelete = await api('GET', `/portal/statements/${stored.body.id}`);
      assert.equal(afterDelete.status, 200);
      assert.equal(afterDelete.body.check.ready, true);
      assert.deepEqual(afterDelete.body.check.payload, detail.body.check.payload);
      const keptXml = await file(`/portal/statements/${second.body.id}?format=xml`);
      assert.equal(keptXml.text, xml.text, 'the same file as before the deletion');
      const renamed = await api('PATCH', `/portal/statements/${second.body.id}`, { internal_reference: 'S-2-KEPT' });
      assert.equal(renamed.status, 200);
      assert.match((await file(`/portal/statements/${second.body.id}?format=xml`)).text, /<dds:internalReferenceNumber>S-2-KEPT<\/dds:internalReferenceNumber>/);
      assert.equal((await api('GET', `/portal/plots/${plots[0].id}`)).status, 200, 'the plots stay');
    });
  });
}

/**
 * The statement's files checked against the information system's V3 schemas (libxml2 through
 * xmllint-wasm, the schemas the service ships under schemas/traces-v3), on every format for a batch of
 * 1 and of 1,000 plots; and the official sample requests compared field by field with what the
 * service builds for the same facts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { loadConfig } from '../../src/config.ts';
import { checkSchema } from '../../src/statements/schema-check.ts';
import { statement, STATEMENT_FORMATS } from '../../src/statements/statement-task.ts';
import { COMMON_NS, DDS_NS, SOAP_PLACEHOLDERS } from '../../src/statements/xml.ts';
import type { StatementFacts } from '../../src/statements/payload.ts';
import type { RepresentedOperator } from '../../src/statements/filing-options.ts';
import { filingPlot, manyPlots, statementFacts } from './facts.ts';
import { readPlotFile } from '../../src/intake/plot-file.ts';
import { validatePlots } from '../../src/intake/validate.ts';
import type { PlotGeometry } from '../../src/intake/types.ts';

const schemaDir = loadConfig({}).tracesSchemaDir;
const DOCS = path.resolve('../shared/refdata/traces/mfrntic-eudr-api-client/docs');
const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (name) => ['commodities', 'producers', 'speciesInfo', 'features'].includes(name) });

/** The SubmitDdsRequest element of a SOAP envelope as a document of its own. */
function bodyOf(soap: string): string {
  const start = soap.indexOf('<dds:SubmitDdsRequest');
  const end = soap.indexOf('</dds:SubmitDdsRequest>') + '</dds:SubmitDdsRequest>'.length;
  return soap.slice(start, end).replace('<dds:SubmitDdsRequest', `<dds:SubmitDdsRequest xmlns:dds="${DDS_NS}" xmlns:eudrCommon="${COMMON_NS}"`);
}

const run = (facts: StatementFacts, format: (typeof STATEMENT_FORMATS)[number]) => statement({ facts, format, schemaDir });

for (const size of [1, 1000]) {
  describe(`every format of a ${size}-plot statement passes the V3 schemas`, () => {
    const facts = statementFacts({ plots: manyPlots(size, { producer_name: null }).map((p, i) => ({ ...p, producer_name: `Producer ${i % 50}` })) });

    test('json: ready and schema_checked, nothing stored, no file', async () => {
      const result = await run(facts, 'json');
      assert.deepEqual(result.problems, []);
      assert.equal(result.schema_checked, true);
      assert.equal(result.ready, true);
      assert.equal(result.file, null);
      const features = result.payload.statement.commodities[0].producers.flatMap((p) => JSON.parse(Buffer.from(p.geometryGeojson, 'base64').toString()).features);
      assert.equal(features.length, size);
    });

    test('xml: the file validates against the V3 schemas', async () => {
      const { file } = await run(facts, 'xml');
      assert.deepEqual(await checkSchema(file!, schemaDir), { checked: true, valid: true, errors: [] });
      assert.equal(parser.parse(file!).SubmitDdsRequest.statement.commodities[0].producers.length, Math.min(size, 50));
    });

    test('soap: the envelope\'s body validates; the header carries the WS-Security placeholders', async () => {
      const { file } = await run(facts, 'soap');
      assert.deepEqual(await checkSchema(bodyOf(file!), schemaDir), { checked: true, valid: true, errors: [] });
      for (const name of SOAP_PLACEHOLDERS) assert.ok(file!.includes(`{{${name}}}`), name);
      assert.ok(file!.indexOf('<soapenv:Header>') < file!.indexOf('<soapenv:Body>'));
    });

    test('geojson: every plot once, with the four properties, on the 6-decimal grid', async () => {
      const { file } = await run(facts, 'geojson');
      const collection = JSON.parse(file!);
      assert.equal(collection.type, 'FeatureCollection');
      assert.equal(collection.features.length, size);
      // Producer by producer, as the payload groups them.
      assert.deepEqual(collection.features.map((f: any) => f.properties.ProductionPlace).sort(), facts.plots.map((p) => p.external_ref).sort());
      for (const f of collection.features) {
        assert.deepEqual(Object.keys(f.properties), ['ProducerName', 'ProducerCountry', 'ProductionPlace', 'Area']);
        for (const [lon, lat] of f.geometry.coordinates[0]) assert.ok(Math.round(lon * 1e6) / 1e6 === lon && Math.round(lat * 1e6) / 1e6 === lat);
      }
    });
  });
}

test('an exported geolocation writes six decimals, so a re-upload of it passes the service\'s own low_precision check', async () => {
  const given: PlotGeometry = { type: 'Polygon', coordinates: [[[99.13, 8.85], [99.14, 8.85], [99.14, 8.86], [99.13, 8.86], [99.13, 8.85]]] };
  const { file } = await statement({ facts: statementFacts({ plots: [filingPlot({ geometry: given, country: 'TH', producer_country: 'TH' })] }), format: 'geojson', schemaDir });
  assert.match(file!, /\[99\.130000,8\.850000\]/);
  assert.deepEqual(JSON.parse(file!).features[0].geometry, given, 'the coordinates as given');
  const report = validatePlots(await readPlotFile(Buffer.from(file!), 'statement.geojson'), { country: 'TH' });
  assert.deepEqual(report.plots[0].findings.filter((f) => f.code === 'low_precision'), []);
});

describe('what V3 refuses is reported with the schema\'s own check', () => {
  test('TRADE and an 8-digit HS code fail the schema: not schema_checked, files refused', async () => {
    for (const over of [{ activityType: 'TRADE' as const }, { hsCode: '18010010' }]) {
      const result = await run(statementFacts(over), 'json');
      assert.equal(result.schema_checked, false);
      assert.equal(result.ready, false);
      assert.ok(result.problems.some((p) => p.code === 'schema_invalid'), JSON.stringify(result.problems));
      assert.equal((await run(statementFacts(over), 'xml')).file, null);
    }
  });

  test('a 40-character reference passes the schema (50) but not the system\'s rule (35): schema_checked, not ready', async () => {
    const result = await run(statementFacts({ internalReference: 'R'.repeat(40) }), 'json');
    assert.equal(result.schema_checked, true);
    assert.equal(result.ready, false);
    assert.deepEqual(result.problems.map((p) => p.code), ['internal_reference_too_long']);
  });

  test('without the schemas the statement says it was not checked', async () => {
    const result = await statement({ facts: statementFacts(), format: 'json', schemaDir: path.join(schemaDir, 'nowhere') });
    assert.equal(result.schema_checked, false);
    assert.equal(result.ready, false);
    assert.deepEqual(result.problems.map((p) => p.code), ['schema_unavailable']);
  });
});

describe('filing options: an authorised representative and confidential geolocation', () => {
  const represented: RepresentedOperator = {
    name: 'Cacao Import BV',
    identifiers: [{ type: 'eori', value: 'NL123456789' }, { type: 'vat', value: 'NL123456789B01' }],
    address: { country: 'nl', street: 'Havenstraat 12', postal_code: '1013 AB', city: 'Amsterdam' },
    email: 'compliance@cacao-import.example',
    phone: '+31 20 555 0100',
  };
  const filed = (filing: StatementFacts['filing']) => statementFacts({ filing });

  test('REPRESENTATIVE_OPERATOR with the represented operator, in V3 order, and geoLocationConfidential true pass the V3 schemas in every format', async () => {
    const facts = filed({ representedOperator: represented, geolocationConfidential: true });
    const json = await run(facts, 'json');
    assert.deepEqual([json.ready, json.schema_checked, json.problems], [true, true, []]);
    assert.equal(json.payload.operatorRole, 'REPRESENTATIVE_OPERATOR');
    assert.deepEqual(json.payload.statement.representedOperator, {
      operatorReferenceNumber: [{ identifierType: 'eori', identifierValue: 'NL123456789' }, { identifierType: 'vat', identifierValue: 'NL123456789B01' }],
      operatorAddress: { country: 'NL', street: 'Havenstraat 12', postalCode: '1013 AB', city: 'Amsterdam' },
      operatorEmail: 'compliance@cacao-import.example',
      operatorPhone: '+31 20 555 0100',
      operatorName: 'Cacao Import BV',
    });
    assert.equal(json.payload.statement.geoLocationConfidential, true);
    const { file } = await run(facts, 'xml');
    assert.deepEqual(await checkSchema(file!, schemaDir), { checked: true, valid: true, errors: [] });
    const request = parser.parse(file!).SubmitDdsRequest;
    assert.equal(request.operatorRole, 'REPRESENTATIVE_OPERATOR');
    assert.equal(request.statement.geoLocationConfidential, 'true');
    assert.equal(request.statement.representedOperator.operatorName, 'Cacao Import BV');
    const order = elementOrder(request);
    assert.ok(inOrder(['operatorRole', 'internalReferenceNumber', 'activityType', 'representedOperator', 'operatorReferenceNumber', 'operatorAddress', 'operatorEmail', 'operatorPhone', 'operatorName', 'countryOfActivity', 'commodities', 'geoLocationConfidential'], order), order.join(' '));
    const soap = await run(facts, 'soap');
    assert.deepEqual(await checkSchema(bodyOf(soap.file!), schemaDir), { checked: true, valid: true, errors: [] });
  });

  test('a represented operator with its name alone passes; without options the operator files and the geolocation is open', async () => {
    const named = await run(filed({ representedOperator: { name: 'Small Trader' }, geolocationConfidential: false }), 'xml');
    assert.equal(named.ready, true);
    assert.ok(named.file!.includes('<dds:representedOperator><eudrCommon:operatorName>Small Trader</eudrCommon:operatorName></dds:representedOperator>'));
    const own = await run(statementFacts(), 'json');
    assert.equal(own.payload.operatorRole, 'OPERATOR');
    assert.equal('representedOperator' in own.payload.statement, false);
    assert.equal(own.payload.statement.geoLocationConfidential, false);
  });

  test('the V3 schema itself checks the represented operator: an e-mail it does not take is refused', async () => {
    const result = await run(filed({ representedOperator: { ...represented, email: 'not an address' }, geolocationConfidential: false }), 'json');
    assert.equal(result.schema_checked, false);
    assert.ok(result.problems.some((p) => p.code === 'schema_invalid' && p.message.includes('operatorEmail')), JSON.stringify(result.problems));
  });
});

/** The elements of a parsed statement in document order, by local name, descending into objects. */
function elementOrder(node: unknown, out: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return out;
  for (const [name, value] of Object.entries(node)) {
    if (name.startsWith('@_')) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      out.push(name);
      elementOrder(item, out);
    }
  }
  return out;
}

/** Whether `part` appears within `whole` in the same order. */
const inOrder = (part: string[], whole: string[]) => {
  let i = 0;
  for (const name of whole) if (name === part[i]) i++;
  return i === part.length;
};

describe('the official sample requests, compared field by field with the statement built for the same facts', () => {
  const polygon = JSON.parse(fs.readFileSync(path.join(DOCS, 'eudr_docs 1.3/EudrSubmissionService/poligon.geojson'), 'utf8'));

  test('the V3 submitDds sample of the Operator API reference: same values, same element order', async () => {
    const reference = fs.readFileSync(path.join(DOCS, 'eudr_docs 1.5/EUDR Operator API Reference v1.0.md'), 'utf8');
    const sampleSoap = reference.slice(reference.indexOf('<soapenv:Envelope', reference.indexOf('## 5.1.1 submitDds')), reference.indexOf('</soapenv:Body>', reference.indexOf('## 5.1.1 submitDds')));
    // Its producer's geometry is a placeholder; the sample is otherwise taken as published.
    const sample = bodyOf(sampleSoap.replace('BASE64_ENCODED_GEOJSON', Buffer.from(JSON.stringify(polygon)).toString('base64')));
    assert.deepEqual(await checkSchema(sample, schemaDir), { checked: true, valid: true, errors: [] }, 'the validator accepts the official V3 sample');
    const theirs = parser.parse(sample).SubmitDdsRequest;

    const facts = statementFacts({
      internalReference: 'WOOD-1', activityType: 'IMPORT', destinationCountry: 'BE', commodity: null, descriptionOfGoods: 'Test wood product', hsCode: '4410',
      quantity: 200, unit: 'kg', species: [{ scientific_name: 'Bifora testiculata', common_name: 'Test Name' }],
      plots: [filingPlot({ producer_name: 'Producer Name', producer_country: 'FR', geometry: polygon.features?.[0]?.geometry ?? polygon.geometry })],
    });
    const built = await run(facts, 'json');
    const xml = (await statement({ facts, format: 'json', schemaDir })).payload;
    const ours = parser.parse((await import('../../src/statements/xml.ts')).statementXml(xml)).SubmitDdsRequest;

    assert.equal(ours.operatorRole, theirs.operatorRole);
    for (const field of ['activityType', 'countryOfActivity', 'geoLocationConfidential']) assert.equal(ours.statement[field], theirs.statement[field], field);
    const [oc, tc] = [ours.statement.commodities[0], theirs.statement.commodities[0]];
    assert.equal(oc.position, tc.position);
    assert.equal(oc.descriptors.descriptionOfGoods, tc.descriptors.descriptionOfGoods);
    assert.equal(oc.descriptors.goodsMeasure.netWeight, tc.descriptors.goodsMeasure.netWeight);
    assert.equal(oc.hsHeading, tc.hsHeading);
    assert.deepEqual(oc.speciesInfo, tc.speciesInfo);
    for (const field of ['position', 'country', 'name']) assert.equal(oc.producers[0][field], tc.producers[0][field], field);
    assert.ok(inOrder(elementOrder(ours), elementOrder(theirs)), `${elementOrder(ours).join(',')} within ${elementOrder(theirs).join(',')}`);
    // The sample gives the volume beside the mass; a batch holds one quantity, so HS 4410's MTQ is named as missing.
    assert.deepEqual(built.problems.map((p) => p.code), ['supplementary_unit_required']);
  });

  const V2_SAMPLES: [string, Partial<StatementFacts>][] = [
    ['eudr_docs 1.4/EUDR - API EO CF2 v1.4/submitDdsRequestV2-Operator.xml', { internalReference: 'BE 102', activityType: 'IMPORT', destinationCountry: 'BE', quantity: 77 }],
    ['eudr_docs 1.4/EUDR - API EO CF2 v1.4/domestic_with_geolocations_request_example.xml', { internalReference: 'FR-000002', activityType: 'DOMESTIC', destinationCountry: 'FR', quantity: 40 }],
  ];
  for (const [file, over] of V2_SAMPLES) {
    test(`${path.basename(file)}: the fields V3 kept from V2 match`, async () => {
      const theirs = Object.values(parser.parse(fs.readFileSync(path.join(DOCS, file), 'utf8')).Envelope.Body)[0] as any;
      const tc = theirs.statement.commodities[0];
      const theirGeo = JSON.parse(Buffer.from(tc.producers[0].geometryGeojson.trim(), 'base64').toString());
      const facts = statementFacts({
        ...over, descriptionOfGoods: tc.descriptors.descriptionOfGoods, hsCode: tc.hsHeading, unit: 'kg', commodity: 'cocoa',
        plots: [filingPlot({ external_ref: theirGeo.features[0].properties.ProductionPlace, producer_name: tc.producers[0].name, producer_country: tc.producers[0].country, geometry: theirGeo.features[0].geometry })],
      });
      const result = await run(facts, 'xml');
      assert.deepEqual(result.problems, []);
      const ours = parser.parse(result.file!).SubmitDdsRequest;
      assert.equal(ours.operatorRole, theirs.operatorType, 'operatorType became operatorRole');
      for (const field of ['internalReferenceNumber', 'activityType', 'geoLocationConfidential']) assert.equal(ours.statement[field], theirs.statement[field], field);
      const oc = ours.statement.commodities[0];
      assert.equal(oc.descriptors.descriptionOfGoods, tc.descriptors.descriptionOfGoods);
      assert.equal(Number(oc.descriptors.goodsMeasure.netWeight), Number(tc.descriptors.goodsMeasure.netWeight));
      assert.equal(oc.hsHeading, tc.hsHeading);
      assert.equal(oc.producers[0].country, tc.producers[0].country);
      assert.equal(oc.producers[0].name, tc.producers[0].name);
      const ourGeo = JSON.parse(Buffer.from(oc.producers[0].geometryGeojson, 'base64').toString());
      assert.deepEqual(ourGeo.features[0].geometry, theirGeo.features[0].geometry);
      assert.equal(ourGeo.features[0].properties.ProductionPlace, theirGeo.features[0].properties.ProductionPlace);
    });
  }
});

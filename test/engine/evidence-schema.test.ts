import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { oilPalmNotRead, rubberNotRead } from '../../src/engine/context/commodity-maps.ts';
import { forestTypesNotRead } from '../../src/engine/context/forest-types.ts';
import { historyNotRead } from '../../src/engine/context/history.ts';
import { neighbourhoodNotRead } from '../../src/engine/context/risk.ts';
import { settlementYearNotRead } from '../../src/engine/context/settlement.ts';
import { whispSwitchedOff } from '../../src/engine/context/whisp.ts';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import { evidenceObjectSchema } from '../../src/engine/evidence-schema.ts';
import { readWhisp } from '../../src/engine/worker/context/whisp.ts';
import { openApiDocument } from '../../src/api/openapi/index.ts';
import { fixtureEvidence } from '../fixtures/evidence-wrapper.ts';

/** The document's EvidenceObject, as an integrator's validator reads it. */
const served = (() => {
  const doc = openApiDocument('http://localhost/api/v1');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(JSON.parse(JSON.stringify({ $id: 'doc', components: doc.components }).replaceAll('"#/components/', '"doc#/components/')));
  return ajv.getSchema('doc#/components/schemas/EvidenceObject')!;
})();

const stored = (edit: (e: EvidenceObject) => void) => fixtureEvidence({ seed: 5, edit });
const NOT_READ = 'the archive timed out';

test('takes every block as the engine writes it, read or not read, in the stored check and the served document alike', () => {
  const variants: Record<string, EvidenceObject> = {
    'as read': stored(() => {}),
    'nothing context read': stored((e) => {
      e.history = historyNotRead({ source: 's', version: 'v', licence: 'l', citation: 'c', acknowledgement: 'a' }, { kind: 'unreadable', tile: null, why: NOT_READ }, true).history;
      e.forest_types = forestTypesNotRead({ source: 's', licence: 'l', citation: 'c' }, NOT_READ).forest_types;
      e.commodity_maps = { oil_palm: oilPalmNotRead('c', { kind: 'unreadable', why: NOT_READ }), rubber: rubberNotRead('c', { kind: 'outside_coverage', why: NOT_READ }) };
      (e.risk as { neighbourhood: unknown }).neighbourhood = neighbourhoodNotRead({ source: 's', dataset: 'd', version: 'v', licence: 'l', citation: 'c' }, NOT_READ);
      (e.settlement as { years: Record<string, unknown> }).years['2020'] = settlementYearNotRead('unavailable', NOT_READ);
      e.whisp = whispSwitchedOff();
    }),
    'the perennial-crop rating on': stored((e) => {
      e.whisp = readWhisp({ EUFO_2020: 0.8, TMF_undist: 0.6, Rubber_RBGE: 0.7 });
    }),
  };
  for (const [name, evidence] of Object.entries(variants)) {
    const check = evidenceObjectSchema.safeParse(evidence);
    assert.ok(check.success, `${name}: ${check.error?.message}`);
    assert.ok(served(evidence), `${name}: ${JSON.stringify(served.errors)}`);
  }
});

test('refuses a stored object missing a field of a block', () => {
  const evidence = stored((e) => {
    delete (e.risk as { country: { classification?: unknown } }).country.classification;
  });
  const check = evidenceObjectSchema.safeParse(evidence);
  assert.equal(check.success, false);
  assert.deepEqual(check.error!.issues[0].path, ['risk', 'country', 'classification']);
});

test('the served document refuses a withdrawn decision line in any block', () => {
  for (const [block, line] of [['radar', 'threshold_db'], ['structure', 'aot_limit'], ['height', 'forest_line_m'], ['terrain', 'max_slope_deg']] as const) {
    const evidence = stored((e) => {
      (e[block] as unknown as Record<string, unknown>)[line] = 1;
    });
    assert.equal(served(evidence), false, `${block}.${line}`);
  }
});

test('phase_sd_days and mean_depth are null where the record cannot give them, and the served document says why against spec 2.7\'s number', () => {
  const thin = stored((e) => {
    e.phase_sd_days = null;
    e.mean_depth = null;
  });
  assert.ok(evidenceObjectSchema.safeParse(thin).success);
  assert.ok(served(thin), JSON.stringify(served.errors));
  const doc = openApiDocument('http://localhost/api/v1') as unknown as { components: { schemas: Record<string, { properties: Record<string, { description?: string; type?: string[] }> }> } };
  const { properties } = doc.components.schemas.EvidenceObject;
  for (const field of ['phase_sd_days', 'mean_depth']) {
    assert.deepEqual(properties[field].type, ['number', 'null'], field);
    assert.match(String(properties[field].description), /Spec 2\.7 types it a number; it is null when .*, (as|since) /, field);
  }
});

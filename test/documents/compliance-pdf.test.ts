/** The compliance document's cover, and the integrity steps of a document about a studio boundary. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compliancePdf, NOT_GIVEN } from '../../src/documents/compliance-pdf.ts';
import { integritySection } from '../../src/documents/evidence/integrity.ts';
import { fixtureMap, fixtureWrapper } from '../fixtures/evidence-wrapper.ts';
import { pdfText } from './pdf-text.ts';

const BASE = 'https://evidence.example/api/v1';
const subject = { noun: 'studio boundary', path: '/eudr/exoneration/export?aoi_id=b0b0&format=json&layer=optical', addedKeys: ['sensors', 'landsat'] };

test('a studio boundary\'s integrity steps fetch its export less the two added keys, not a register plot', () => {
  const wrapper = fixtureWrapper();
  const text = JSON.stringify(integritySection(wrapper, BASE, subject));
  assert.ok(text.includes(`GET ${BASE}/eudr/exoneration/export?aoi_id=b0b0&format=json&layer=optical without its members \\"sensors\\" and \\"landsat\\"`), text.slice(0, 600));
  assert.ok(!text.includes('/portal/plots/'));
  assert.ok(JSON.stringify(integritySection(wrapper, BASE)).includes(`${BASE}/portal/plots/${wrapper.plot_id}/evidence`));
});

test('the cover carries operator, plot reference and commodity as given, and says which were not given', async () => {
  const input = { subject, wrapper: fixtureWrapper(), register: { commodity: 'rubber' }, map: await fixtureMap(), read: { sensors: ['Sentinel-2 MSI L2A'], landsat: 'queued' } };
  const given = await pdfText(await compliancePdf({ ...input, cover: { operator: 'Kautschuk Handel AG', plot_ref: 'TH-SRT-7', commodity: 'rubber' } }, { baseUrl: BASE }));
  for (const value of ['Kautschuk Handel AG', 'TH-SRT-7', 'rubber', 'the Landsat half is queued']) assert.ok(given.pages[0].includes(value), value);
  assert.ok(!given.pages[0].includes(NOT_GIVEN));
  const partial = await pdfText(await compliancePdf({ ...input, cover: { operator: null, plot_ref: 'TH-SRT-7', commodity: null } }, { baseUrl: BASE }));
  assert.equal((partial.pages[0].match(new RegExp(NOT_GIVEN, 'g')) ?? []).length, 2);
  assert.match(partial.pages[0], /TH-SRT-7/);
});

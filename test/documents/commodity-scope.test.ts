/**
 * Each commodity's honest scope: the line the plot page and the evidence PDF give for it, and the
 * supporting context the record holds for an evergreen crop, said as context, never as a verdict.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evidencePdf } from '../../src/documents/evidence-pdf.ts';
import { COMMODITY_SCOPES, commodityScope } from '../../src/documents/meanings.ts';
import { fixtureWrapper } from '../fixtures/evidence-wrapper.ts';
import { pdfText } from './pdf-text.ts';

test('every EUDR commodity has a line; register spellings find it; an unknown one has none', () => {
  assert.deepEqual(Object.keys(COMMODITY_SCOPES).sort(), ['cattle', 'cocoa', 'coffee', 'oil_palm', 'rubber', 'soya', 'wood']);
  assert.equal(commodityScope('Oil palm'), COMMODITY_SCOPES.oil_palm);
  assert.equal(commodityScope('palm-oil'), COMMODITY_SCOPES.oil_palm);
  assert.equal(commodityScope(' Cocoa '), COMMODITY_SCOPES.cocoa);
  assert.equal(commodityScope('tea'), null);
  assert.equal(commodityScope(null), null);
  for (const evergreen of ['cocoa', 'coffee', 'oil_palm'] as const) assert.match(COMMODITY_SCOPES[evergreen], /cannot reach a positive finding from this record/);
  assert.match(COMMODITY_SCOPES.rubber, /can reach a positive finding/);
});

test('the PDF of an oil palm plot says what the record cannot show, and gives the palm map and the clearing date as supporting context only', async () => {
  const wrapper = fixtureWrapper({
    edit: (e) => {
      e.verdict = 'prior_management_weak';
      e.reason = 'evergreen_canopy_unsupported';
      e.reasons = ['evergreen_canopy_unsupported'];
      (e.commodity_maps as { oil_palm: Record<string, unknown> }).oil_palm.planted_by_2020 = true;
      (e.commodity_maps as { oil_palm: Record<string, unknown> }).oil_palm.median_planting_year = 2009;
      (e.history as Record<string, unknown>).deforestation_year = { ...((e.history as Record<string, unknown>).deforestation_year as object), share_before_2021: 0.82 };
    },
  });
  const text = (await pdfText(await evidencePdf({ wrapper, register: { commodity: 'Oil palm' }, map: null }, { baseUrl: 'http://127.0.0.1/api/v1' }))).text.replace(/\s+/g, ' ');
  assert.ok(text.includes('What this record can show for Oil palm'), text.slice(0, 2000));
  assert.ok(text.includes('Oil palm cannot reach a positive finding from this record'));
  assert.ok(text.includes('Supporting context, not a verdict: The oil palm map (Descals et al. 2024) shows oil palm planted here by 2020 (median planting year 2009). The Landsat moist-forest record dates the clearing of 82% of the plot before 2021.'));
  // The verdict stands as read.
  assert.ok(text.includes('prior_management_weak'));
});

test('a rubber plot carries its line; with no clearing dated and no palm mapped, no supporting context', async () => {
  const wrapper = fixtureWrapper({ edit: (e) => ((e.history as { deforestation_year: Record<string, unknown> }).deforestation_year.share_before_2021 = 0) });
  const text = (await pdfText(await evidencePdf({ wrapper, register: { commodity: 'rubber' }, map: null }, { baseUrl: 'http://127.0.0.1/api/v1' }))).text.replace(/\s+/g, ' ');
  assert.ok(text.includes('Rubber can reach a positive finding'));
  assert.ok(!text.includes('Supporting context, not a verdict'));
});

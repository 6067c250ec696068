/**
 * A cocoa shipment of three plots in Côte d'Ivoire, each read (signed evidence stored through the
 * engine's own write): all the moist forest of one lost in 2021 and 2022, half of another (2.96 ha of
 * 5.92) lost in 2022 under an open alert case (a highest-confidence integrated alert of 3 ha), none on
 * the third. No plot reaches a positive finding (an evergreen crop), and
 * every statement field is given, so the statement is formally complete.
 */
import { randomUUID } from 'node:crypto';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import { nextStep } from '../../src/engine/next-step.ts';
import { openCase } from '../../src/store/register/alert-queue.ts';
import { insertPlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { fixtureEvidence, fixtureKey, storeFixtureRead } from '../fixtures/evidence-wrapper.ts';
import type { TestApp } from '../support/app.ts';

const square = (lon: number, lat: number): PlotColumns['geometry'] => ({
  type: 'Polygon',
  coordinates: [[[lon, lat], [lon + 0.02, lat], [lon + 0.02, lat + 0.02], [lon, lat + 0.02], [lon, lat]]],
});

export interface ShipmentPlot {
  id: string;
  area_ha: number;
}

export interface CocoaShipment {
  shipmentId: string;
  all: ShipmentPlot;
  half: ShipmentPlot;
  none: ShipmentPlot;
}

/** An evergreen crop the seasonal method cannot confirm, with the loss the Landsat record dates, if any. */
function cocoaEvidence(areaHa: number, loss: { share: number; years: number[] } | null): EvidenceObject {
  return fixtureEvidence({
    edit: (e) => {
      e.verdict = 'prior_management_weak';
      e.reason = 'evergreen_canopy_unsupported';
      e.reasons = ['evergreen_canopy_unsupported'];
      e.finding = 'No positive finding: the canopy keeps its leaves through the dry season, so the seasonal method cannot confirm the crop.';
      e.plot_area_km2 = areaHa / 100;
      e.post_cutoff_loss = loss === null ? null : { share: loss.share, area_ha: Number((loss.share * areaHa).toFixed(2)), years: loss.years, source: 'JRC TMF v1-2024, DeforestationYear' };
      e.next_step = nextStep({ evidence_state: 'done', verdict: e.verdict, reasons: e.reasons, area_ha: areaHa });
    },
  });
}

export async function cocoaShipment(app: TestApp, workspaceId: string, key: string): Promise<CocoaShipment> {
  const plot = (ref: string, i: number, area: number): PlotColumns => ({
    id: randomUUID(), external_ref: ref, commodity: 'cocoa', country: 'CI', area_ha: area, declared_area_ha: null, geometry: square(-7.4 + i * 0.03, 5.9),
    validation_state: 'valid', validation_report: { findings: [], repairs: [], rejections: [] }, planted_year: null, producer_id: null,
  });
  const plots = [plot('CI-ALL', 0, 4.5), plot('CI-HALF', 1, 5.92), plot('CI-NONE', 2, 6.1)];
  const em = () => app.services.store.em();
  await em().transactional((tx) => insertPlots(tx, workspaceId, plots));
  const losses = [{ share: 1, years: [2021, 2022] }, { share: 0.5, years: [2022] }, null];
  for (const [i, p] of plots.entries()) {
    await storeFixtureRead(em(), fixtureKey(), {
      workspaceId, plotId: p.id, evidence: cocoaEvidence(p.area_ha!, losses[i]), facts: { seasons_measured: 4, eu_maps_forest_share: losses[i] === null ? 0 : 0.8, landsat_2020: 'undisturbed_forest' },
    });
  }
  const shipment = await app.call('POST', '/api/v1/portal/statements/shipments', {
    key,
    body: {
      reference: `COCOA-${randomUUID().slice(0, 6)}`, commodity: 'cocoa', description_of_goods: 'Cocoa beans, whole, raw', hs_code: '1801', quantity: 24, unit: 't',
      destination_country: 'NL', shipped_on: '2026-03-01', arrives_on: '2026-03-20', species: ['Theobroma cacao'], plot_ids: plots.map((p) => p.id),
    },
  });
  if (shipment.status !== 201) throw new Error(`the shipment was refused: ${JSON.stringify(shipment.body)}`);
  const [all, half, none] = plots.map((p) => ({ id: p.id, area_ha: p.area_ha! }));
  // An open case on the half-cleared plot, as a monitor finding a published alert over it opens one.
  await em().transactional(async (tx) => {
    openCase(tx, new Date('2022-08-01T00:00:00Z'), {
      workspaceId, monitorId: randomUUID(), plotId: half.id, product: 'integrated', firstDate: '2022-03-02', lastDate: '2022-07-20',
      confidence: 'highest', pixels: 300, areaHa: 3, flaggedAreaKm2: 0.03, severity: 'high', centroid: null, bbox: null, source: {},
    });
  });
  return { shipmentId: shipment.body.id, all, half, none };
}

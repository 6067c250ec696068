/**
 * Alert adjudication (spec 4.4): each alert becomes a plot with `geometry_source: alert`, read over
 * its read window by the same engine as any plot, one job for the batch. Every alert is checked
 * before any is written (on an intake thread), and the register, the allowance and the job are
 * written in one transaction under the workspace's register lock: the batch lands whole or not at
 * all, two concurrent batches cannot take one reference, and a queue that cannot take the job
 * leaves nothing registered and no reference taken.
 */
import { randomUUID } from 'node:crypto';
import { admitReads } from '../accounts/allowance.ts';
import { queueReadJob, readyQueue } from '../reading-service/evidence-runs.ts';
import { alertRefusal, DomainError, notFound } from '../errors.ts';
import { ACCEPTED_COUNTRY_FORMS, lookupCountry } from '../intake/countries.ts';
import type { Shape } from '../intake/shape.ts';
import type { PlotGeometry } from '../intake/types.ts';
import type { Plan } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import type { Queue } from '../store/queue.ts';
import { producerCountries, refsHeld } from '../store/register/alerts.ts';
import { readsInFlight } from '../store/register/evidence.ts';
import { insertPlots, type PlotColumns } from '../store/register/imports.ts';
import { lockRegister } from '../store/register/lock.ts';
import type { StoredAlertEntry } from '../store/register/stored-json.ts';
import type { AlertJudgement, AlertToJudge, JudgedAlert } from './judge-alerts.ts';
import { namingRefs } from './judge-alerts.ts';

/** One alert of an adjudicate call (spec 2.11), as its body schema admits it. */
export interface AlertInput {
  ref: string;
  geometry: unknown;
  alert_date: string;
  producer_id?: string | null;
  commodity?: string | null;
  country?: string | null;
}

/** An adjudicate answer element (spec 2.11). */
export interface AdjudicatedAlert {
  ref: string;
  plot_id: string;
  job_id: string;
  read_window: { area_ha: number; constructed: boolean };
}

export interface AdjudicateDeps {
  em: Em;
  queue: Queue | null;
  /** Checks a batch off the event loop (the intake pool). */
  judge: (batch: AlertToJudge[], workspaceId: string) => Promise<AlertJudgement>;
}

const geometryOf = (shape: Shape): PlotGeometry =>
  shape.kind === 'point'
    ? { type: 'Point', coordinates: shape.at }
    : shape.polygons.length === 1
      ? { type: 'Polygon', coordinates: shape.polygons[0] }
      : { type: 'MultiPolygon', coordinates: shape.polygons };

/** Each alert's country for the axis check: its own (any accepted form), else its producer's. */
async function countriesOf(em: Em, workspaceId: string, inputs: readonly AlertInput[]): Promise<(string | null)[]> {
  const producerIds = [...new Set(inputs.flatMap((a) => (a.producer_id ? [a.producer_id.toLowerCase()] : [])))];
  const producers = await producerCountries(em, workspaceId, producerIds);
  const unknownProducer = producerIds.find((id) => !producers.has(id));
  if (unknownProducer !== undefined) throw notFound(`no producer ${unknownProducer} in this workspace`);
  const unknown = inputs.filter((a) => a.country && lookupCountry(a.country) === null).map((a) => a.ref);
  if (unknown.length > 0) throw new DomainError('unknown_country', namingRefs(unknown, `country is not a recognised country. ${ACCEPTED_COUNTRY_FORMS}`));
  return inputs.map((a) => (a.country ? lookupCountry(a.country) : null) ?? (a.producer_id ? producers.get(a.producer_id.toLowerCase()) ?? null : null));
}

function plotColumns(input: AlertInput, judged: JudgedAlert, country: string | null): PlotColumns {
  const alert: StoredAlertEntry = {
    alert_date: input.alert_date,
    footprint_area_ha: judged.footprint_area_ha,
    window_area_ha: judged.window.area_ha,
    window_constructed: judged.window.constructed,
    footprint: geometryOf(judged.footprint),
  };
  return {
    id: randomUUID(),
    external_ref: input.ref,
    commodity: input.commodity ?? null,
    country: input.country ? country : null,
    area_ha: judged.window.area_ha,
    declared_area_ha: null,
    planted_year: null,
    producer_id: input.producer_id ? input.producer_id.toLowerCase() : null,
    geometry: judged.window.geometry,
    validation_state: 'valid',
    validation_report: { findings: [], repairs: [], rejections: [], alert },
  };
}

/**
 * Registers and queues a batch of 1 to 500 alerts (the route has counted them), or refuses it
 * whole with the first rule an alert breaks.
 */
export async function adjudicateAlerts(deps: AdjudicateDeps, workspace: { id: string; plan: Plan }, inputs: AlertInput[]): Promise<AdjudicatedAlert[]> {
  const countries = await countriesOf(deps.em, workspace.id, inputs);
  const judgement = await deps.judge(inputs.map((a, i) => ({ ref: a.ref, geometry: a.geometry, alert_date: a.alert_date, country: countries[i] })), workspace.id);
  if ('refusal' in judgement) throw alertRefusal(judgement.refusal.code, judgement.refusal.message);
  const rows = judgement.alerts.map((judged, i) => plotColumns(inputs[i], judged, countries[i]));
  const queue = await readyQueue(deps.queue);
  return deps.em.transactional(async (tx) => {
    await lockRegister(tx, workspace.id);
    const held = await refsHeld(tx, workspace.id, inputs.map((a) => a.ref));
    if (held.length > 0) throw alertRefusal('ref_in_use', namingRefs(held, 'the reference is already in the register; give each alert a reference of its own'));
    await admitReads(tx, workspace, rows.length, await readsInFlight(tx, workspace.id, []));
    await insertPlots(tx, workspace.id, rows, 'alert');
    const ids = rows.map((r) => r.id);
    const jobId = await queueReadJob(tx, queue, workspace.id, ids);
    return judgement.alerts.map((judged, i) => ({
      ref: inputs[i].ref,
      plot_id: ids[i],
      job_id: jobId,
      read_window: { area_ha: judged.window.area_ha, constructed: judged.window.constructed },
    }));
  });
}

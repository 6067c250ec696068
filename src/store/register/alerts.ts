/**
 * The register's statements over alerts (spec 2.11, 4.4): plots made from alerts are ordinary
 * register rows with `geometry_source = 'alert'`, written by the import's batch insert (./imports.ts)
 * and moved through the evidence transitions like any plot (./transitions.ts).
 */
import type { PlotGeometry } from '../../intake/types.ts';
import type { EvidenceState } from '../entities/index.ts';
import { isUuid } from '../ids.ts';
import type { Em } from '../orm.ts';
import { alertEntry, plotGeometry, validationReport, type StoredAlertEntry } from './stored-json.ts';

/** The ids of `ids` that can be cast to uuid: any other names nothing, and must not reach the cast. */
export const uuidsOf = (ids: readonly string[]) => ids.filter(isUuid);

/** Of the given references, those a plot of the workspace already carries. */
export async function refsHeld(em: Em, workspaceId: string, refs: readonly string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const rows = await em.execute<{ ref: string }[]>(
    `select p.external_ref as ref from plots p join jsonb_array_elements_text(?::jsonb) with ordinality as f(ref, n) on p.external_ref = f.ref
      where p.workspace_id = ? order by f.n`,
    [JSON.stringify(refs), workspaceId],
  );
  return rows.map((r) => r.ref);
}

/** The producers of the workspace among the given ids, with their countries. */
export async function producerCountries(em: Em, workspaceId: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<{ id: string; country: string | null }[]>(
    'select id, country from producers where workspace_id = ? and id = any(?::uuid[])',
    [workspaceId, `{${uuidsOf(ids).join(',')}}`],
  );
  return new Map(rows.map((r) => [r.id, r.country]));
}

/** An alert's plot as its answer reads it. */
export interface AlertRecord {
  id: string;
  external_ref: string | null;
  evidence_state: EvidenceState;
  evidence_job_id: string | null;
  verdict: string | null;
  /** The plot's `validation_report.alert`. */
  alert: StoredAlertEntry;
}

/** The alert's plot; null when the workspace has no such plot or it was not made from an alert. */
export async function alertRecord(em: Em, workspaceId: string, plotId: string): Promise<AlertRecord | null> {
  const [r] = await em.execute<(Omit<AlertRecord, 'alert'> & { validation_report: unknown })[]>(
    `select id, external_ref, evidence_state, evidence_job_id, verdict, validation_report from plots
      where id = ? and workspace_id = ? and geometry_source = 'alert'`,
    [plotId, workspaceId],
  );
  if (r === undefined) return null;
  const { validation_report: report, ...row } = r;
  return { ...row, alert: alertEntry.parse(validationReport.parse(report).alert) };
}

/** A plot as a scan reads it: its boundary, and what an alert adjudicated on it inherits. */
export interface ScannedPlot {
  id: string;
  external_ref: string | null;
  area_ha: number | null;
  geometry: PlotGeometry | null;
  commodity: string | null;
  country: string | null;
  producer_id: string | null;
}

/** The named plots of the workspace, in the order named; a plot not in the workspace is absent. */
export async function plotsToScan(em: Em, workspaceId: string, ids: readonly string[]): Promise<ScannedPlot[]> {
  const rows = await em.execute<(Omit<ScannedPlot, 'geometry'> & { geometry: unknown })[]>(
    `select p.id, p.external_ref, p.area_ha, p.geometry, p.commodity, p.country, p.producer_id
       from plots p join jsonb_array_elements_text(?::jsonb) with ordinality as f(id, n) on p.id = f.id::uuid
      where p.workspace_id = ? order by f.n`,
    [JSON.stringify(uuidsOf(ids)), workspaceId],
  );
  return rows.map((r) => ({ ...r, geometry: r.geometry === null ? null : plotGeometry.parse(r.geometry) }));
}

/** Plots and their stored evidence written straight into the tables, as a finished read leaves them. */
import { randomUUID } from 'node:crypto';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import type { EvidenceFacts } from '../../src/engine/plot-state.ts';
import { sealEvidence, type Integrity } from '../../src/engine/integrity.ts';
import type { SigningKey } from '../../src/engine/signing.ts';
import type { EvidenceState } from '../../src/store/entities/index.ts';
import type { Em } from '../../src/store/orm.ts';
import type { EvidenceMap } from '../../src/documents/footprint-map.ts';

export interface PlotSpec {
  ref: string | null;
  commodity?: string;
  country?: string;
  area_ha: number;
  state: EvidenceState;
  /** The stored evidence, when the plot has been read. */
  evidence?: EvidenceObject;
  facts?: EvidenceFacts;
  /** `valid` unless given; a rejected plot is stored without a boundary, as an upload leaves it. */
  validation?: 'valid' | 'rejected';
}

/** A square of about 9 ha in southern Thailand: a boundary a read could be run on. */
const BOUNDARY = { type: 'Polygon', coordinates: [[[99.1, 8.8], [99.1027, 8.8], [99.1027, 8.8027], [99.1, 8.8027], [99.1, 8.8]]] };

/** Inserts a plot (and, when given, its current evidence) and answers its id. */
export async function insertPlot(em: Em, workspaceId: string, spec: PlotSpec, key: SigningKey, map: EvidenceMap): Promise<string> {
  const id = randomUUID();
  const e = spec.evidence;
  const rejected = spec.validation === 'rejected';
  await em.execute(
    `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, geometry, validation_state, validation_report, evidence_state,
       verdict, reason, evidence_at, evidence_facts, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, '{"findings":[],"repairs":[],"rejections":[]}'::jsonb, ?, ?, ?, ?::timestamptz, ?::jsonb, now(), now())`,
    [id, workspaceId, spec.ref, spec.commodity ?? 'rubber', spec.country ?? 'TH', spec.area_ha, rejected ? null : JSON.stringify(BOUNDARY),
      rejected ? 'rejected' : 'valid', spec.state, e?.verdict ?? null, e?.reason ?? null, e?.issued ?? null, e ? JSON.stringify(spec.facts ?? {}) : null],
    'run',
  );
  if (e) await insertEvidence(em, workspaceId, id, e, sealEvidence(e, key), map, true);
  return id;
}

export async function insertEvidence(em: Em, workspaceId: string, plotId: string, e: EvidenceObject, integrity: Integrity, map: EvidenceMap, current: boolean): Promise<void> {
  if (current) await em.execute('update evidence set current = false where plot_id = ?', [plotId], 'run');
  const chip = map.chip === null ? null : { bbox: map.chip.bbox, scene: map.chip.scene };
  await em.execute(
    `insert into evidence (id, workspace_id, plot_id, job_id, issued, object, integrity, current, map, chip_png)
     values (?, ?, ?, null, ?::timestamptz, ?::jsonb, ?::jsonb, ?, ?::jsonb, ?)`,
    [randomUUID(), workspaceId, plotId, e.issued, JSON.stringify(e), JSON.stringify(integrity), current,
      JSON.stringify({ footprint: map.footprint, chip }), map.chip?.png ?? null],
    'run',
  );
}

/**
 * The single-boundary evidence of spec 4.6: `GET /eudr/exoneration` answers the evidence object of
 * a studio boundary directly, from its published analyses, with `sensors` and `landsat` added. The
 * first call queues the Landsat half (the merged read) once; until it lands the answer is the
 * optical half's, and `landsat.state` says which: `queued`, `reading`, `merged` or `failed`.
 */
import type { EvidenceMap } from '../documents/footprint-map.ts';
import { invalid, noEvidence, notFound } from '../errors.ts';
import type { AnalysisHalf, AnalysisState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import type { Queue } from '../store/queue.ts';
import { type AnalysisRecord, boundaryAnalyses, boundaryRow } from '../store/register/studio.ts';
import { failStranded, prepareHalfQueue, queueHalf } from './boundary-reads.ts';
import type { EvidenceObject } from '../engine/evidence-object.ts';
import type { Integrity } from '../engine/integrity.ts';

export const LANDSAT_STATES = ['queued', 'reading', 'merged', 'failed'] as const;
export type LandsatState = (typeof LANDSAT_STATES)[number];

const LANDSAT_STATE: Record<AnalysisState, LandsatState> = { queued: 'queued', running: 'reading', done: 'merged', failed: 'failed' };

/** A layer of the boundary's evidence: the trajectory of one half's read. */
export const LAYERS = ['optical', 'merged'] as const satisfies readonly AnalysisHalf[];
export type Layer = (typeof LAYERS)[number];

/** The state of the Landsat half, added to the object as served. */
export interface LandsatHalf {
  state: LandsatState;
  /** When the first exoneration call queued it. */
  queued_at: string;
  /** Why its read failed, in words; null unless `state` is `failed`. */
  error: string | null;
}

/** The evidence object of spec 2.7 with the two keys spec 2.6 adds on this route. */
export type ExonerationObject = EvidenceObject & { sensors: string[]; landsat: LandsatHalf };

/** What the JSON route serves, and what its exports are rendered from. */
export interface Exoneration {
  boundary: { id: string; name: string };
  /** The half the object was read by. */
  layer: Layer;
  object: ExonerationObject;
  /** The signed object as stored (without the added keys) with its integrity block and map. */
  signed: { evidence: EvidenceObject; integrity: Integrity; map: EvidenceMap };
}

export function layerOf(value: unknown): Layer | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(LAYERS as readonly string[]).includes(value)) {
    throw invalid('bad_layer', `layer must be one of ${LAYERS.join(', ')}: optical is the Sentinel-2 read, merged the read with the Landsat half`);
  }
  return value as Layer;
}

const HALF_WORDS: Record<AnalysisState, string> = {
  queued: 'is queued',
  running: 'is being read',
  done: 'is published',
  failed: 'failed',
};

/** The half a call is answered from: the one named, else the merged read once it landed, else the optical one. */
function servedHalf(analyses: Partial<Record<AnalysisHalf, AnalysisRecord>>, boundaryId: string, layer: Layer | undefined): AnalysisRecord & { stored: NonNullable<AnalysisRecord['stored']> } {
  if (layer !== undefined) {
    const a = analyses[layer];
    if (a?.stored) return { ...a, stored: a.stored };
    const why = a === undefined ? 'has not been queued' : `${HALF_WORDS[a.state]}${a.error ? ` (${a.error})` : ''}`;
    throw invalid('bad_layer', `the ${layer} layer of boundary ${boundaryId} has no trajectory: its read ${why}; ask for ${layer === 'merged' ? 'layer=optical, or again once landsat.state is merged' : 'layer=merged once landsat.state is merged'}`);
  }
  for (const half of ['merged', 'optical'] as const) {
    const a = analyses[half];
    if (a?.stored) return { ...a, stored: a.stored };
  }
  const optical = analyses.optical;
  const why = optical === undefined ? 'has not been queued' : `${HALF_WORDS[optical.state]}${optical.error ? ` (${optical.error})` : ''}`;
  throw noEvidence(`boundary ${boundaryId} has no published analysis yet: its optical read ${why}; ask again once it is published`);
}

/**
 * The boundary's evidence as served. The first call queues the Landsat half; the half's row is
 * unique, so repeated and concurrent calls queue it once.
 */
export async function exoneration(em: Em, queue: Queue | null, workspaceId: string, boundaryId: string, layer?: Layer): Promise<Exoneration> {
  const boundary = await boundaryRow(em, workspaceId, boundaryId);
  if (boundary === null) throw notFound(`no studio boundary ${boundaryId} in this workspace`);
  let analyses = await boundaryAnalyses(em, workspaceId, boundaryId);
  if ((await failStranded(em, queue, workspaceId, [analyses.optical, analyses.merged])) > 0) analyses = await boundaryAnalyses(em, workspaceId, boundaryId);
  if (analyses.merged === undefined) {
    const ready = await prepareHalfQueue(queue);
    await em.transactional((tx) => queueHalf(tx, ready, workspaceId, boundaryId, 'merged'));
    analyses = await boundaryAnalyses(em, workspaceId, boundaryId);
  }
  const served = servedHalf(analyses, boundaryId, layer);
  const merged = analyses.merged!;
  const { object, integrity, map, chipPng } = served.stored;
  const { chip } = map;
  return {
    boundary: { id: boundary.id, name: boundary.name },
    layer: served.half,
    object: {
      ...object,
      sensors: [...object.read.sensors],
      landsat: { state: LANDSAT_STATE[merged.state], queued_at: merged.created_at.toISOString(), error: merged.state === 'failed' ? merged.error : null },
    },
    signed: {
      evidence: object,
      integrity,
      map: { footprint: map.footprint, chip: chip === null || chipPng === null ? null : { ...chip, png: chipPng } },
    },
  };
}

/**
 * Studio boundaries (spec 1, capability 6): a workspace member saves an analysis boundary with a
 * name; saving it queues its optical half at once, in the same transaction, so a boundary never
 * exists without its first read on the way. Its published analyses are those reads
 * (reading-service/exoneration.ts answers from them).
 */
import { randomUUID } from 'node:crypto';
import type { MultiPolygon, Polygon } from 'geojson';
import { invalid, notFound } from '../errors.ts';
import { polygonsAreaHa } from '../intake/geodesic.ts';
import { resolveCountry } from '../intake/countries.ts';
import type { Position } from '../intake/types.ts';
import { ANALYSIS_HALVES, type AnalysisState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import type { Queue } from '../store/queue.ts';
import { boundaryAnalyses, boundaryList, boundaryRow, type BoundaryRecord, deleteBoundary, insertBoundary } from '../store/register/studio.ts';
import { failStranded, prepareHalfQueue, queueHalf } from './boundary-reads.ts';

export interface BoundaryRequest {
  name: string;
  geometry: Polygon | MultiPolygon;
  country?: string | null;
}

/** A boundary as the studio routes answer it. */
export interface BoundaryView {
  id: string;
  name: string;
  area_ha: number;
  country: string | null;
  created_at: string;
  /** The state of each half of its read; `merged` is null until the first exoneration call queues it. */
  analyses: { optical: AnalysisState | null; merged: AnalysisState | null };
}

const viewOf = (b: BoundaryRecord): BoundaryView => ({
  id: b.id,
  name: b.name,
  area_ha: b.area_ha,
  country: b.country,
  created_at: b.created_at.toISOString(),
  analyses: { optical: b.optical, merged: b.merged },
});

const haOf = (v: number) => `${v.toLocaleString('en', { maximumFractionDigits: 2 })} ha`;

/** The polygons of a boundary, each ring checked closed; its area in hectares, refused when empty or over `maxAreaHa`. */
export function boundaryArea(geometry: Polygon | MultiPolygon, maxVertices: number, maxAreaHa: number): number {
  const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Position[][][];
  let vertices = 0;
  for (const rings of polygons) {
    for (const ring of rings) {
      vertices += ring.length;
      const [first, last] = [ring[0], ring[ring.length - 1]];
      if (first[0] !== last[0] || first[1] !== last[1]) throw invalid('bad_geometry', 'every ring of the geometry must be closed: its last position repeats its first');
    }
  }
  if (vertices > maxVertices) throw invalid('bad_geometry', `the geometry has ${vertices.toLocaleString('en')} positions; a studio boundary takes at most ${maxVertices.toLocaleString('en')}: simplify it`);
  const areaHa = polygonsAreaHa(polygons);
  if (!(areaHa > 0)) throw invalid('bad_geometry', 'the geometry encloses no area: give the rings of a polygon, not a line or a point');
  if (areaHa > maxAreaHa) throw invalid('bad_geometry', `the boundary covers ${haOf(areaHa)}, over the ${haOf(maxAreaHa)} a read may cover: split it into boundaries of at most that`);
  return Number(areaHa.toFixed(4));
}

export interface BoundaryLimits {
  maxVertices: number;
  maxAreaHa: number;
}

/** Saves a boundary and queues its optical half, all or nothing. */
export async function saveBoundary(em: Em, queue: Queue | null, workspaceId: string, request: BoundaryRequest, limits: BoundaryLimits): Promise<BoundaryView> {
  const areaHa = boundaryArea(request.geometry, limits.maxVertices, limits.maxAreaHa);
  const country = request.country ? resolveCountry(request.country) : null;
  const ready = await prepareHalfQueue(queue);
  const id = randomUUID();
  await em.transactional(async (tx) => {
    await insertBoundary(tx, { id, workspaceId, name: request.name.trim(), geometry: request.geometry, areaHa, country });
    await queueHalf(tx, ready, workspaceId, id, 'optical');
  });
  return getBoundary(em, workspaceId, id);
}

export async function listBoundaries(em: Em, workspaceId: string): Promise<BoundaryView[]> {
  return (await boundaryList(em, workspaceId)).map(viewOf);
}

export async function getBoundary(em: Em, workspaceId: string, id: string): Promise<BoundaryView & { geometry: Polygon | MultiPolygon }> {
  const b = await boundaryRow(em, workspaceId, id);
  if (b === null) throw notFound(`no studio boundary ${id} in this workspace`);
  return { ...viewOf(b), geometry: b.geometry };
}

/**
 * Reads again the halves of a boundary whose read failed (or was interrupted); a half published,
 * queued or under way is left as it is, and a Landsat half never queued waits for the first
 * exoneration call as before.
 */
export async function readBoundaryAgain(em: Em, queue: Queue | null, workspaceId: string, id: string): Promise<BoundaryView> {
  if ((await boundaryRow(em, workspaceId, id)) === null) throw notFound(`no studio boundary ${id} in this workspace`);
  const analyses = await boundaryAnalyses(em, workspaceId, id);
  await failStranded(em, queue, workspaceId, [analyses.optical, analyses.merged]);
  const ready = await prepareHalfQueue(queue);
  await em.transactional(async (tx) => {
    for (const half of ANALYSIS_HALVES) {
      if (analyses[half] !== undefined) await queueHalf(tx, ready, workspaceId, id, half, true);
    }
  });
  return viewOf((await boundaryRow(em, workspaceId, id))!);
}

/** Deletes a boundary with its analyses; a read in flight finds nothing to write. */
export async function removeBoundary(em: Em, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteBoundary(em, workspaceId, id))) throw notFound(`no studio boundary ${id} in this workspace`);
}

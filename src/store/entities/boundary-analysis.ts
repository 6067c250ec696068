import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The halves of a boundary's read (spec 4.6): `optical`, read when the boundary is saved, from the
 * Sentinel-2 record alone; `merged`, the Landsat half, queued by the first exoneration call and read
 * from Sentinel-2 and Landsat together.
 */
export const ANALYSIS_HALVES = ['optical', 'merged'] as const;
export type AnalysisHalf = (typeof ANALYSIS_HALVES)[number];

export const ANALYSIS_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type AnalysisState = (typeof ANALYSIS_STATES)[number];

/**
 * One published analysis of a studio boundary: a read of one half, its state while in flight and
 * the signed evidence object once done. One row per boundary and half, unique, so however many
 * calls arrive at once a half is queued once.
 */
export const BoundaryAnalysis = defineEntity({
  name: 'BoundaryAnalysis',
  tableName: 'boundary_analyses',
  uniques: [{ properties: ['boundaryId', 'half'] }],
  indexes: [{ properties: ['workspaceId', 'jobId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    boundaryId: p.uuid(),
    half: p.enum(ANALYSIS_HALVES),
    state: p.enum(ANALYSIS_STATES),
    /** The job holding the read while queued or running (and the last one after). */
    jobId: p.uuid().nullable(),
    /** Why the read failed, in words; null unless `state` is `failed`. */
    error: p.text().nullable(),
    issued: p.datetime().nullable(),
    /** The evidence object of spec 2.7 as signed; null until done. */
    object: p.json<object>().nullable(),
    integrity: p.json<object>().nullable(),
    /** The footprint and chip bbox and scene, as the evidence table keeps them; the chip's PNG is `chipPng`. */
    map: p.json<object>().nullable(),
    chipPng: p.blob().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type BoundaryAnalysis = InferEntity<typeof BoundaryAnalysis>;

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An analysis boundary saved in the studio (spec 1, capability 6): a workspace member's area of
 * interest, read by the same engine as a register plot but kept out of the register, so it never
 * appears among the portal's plots nor counts against the evidence allowance. Every statement over
 * it lives in src/store/register/studio.ts.
 */
export const StudioBoundary = defineEntity({
  name: 'StudioBoundary',
  tableName: 'studio_boundaries',
  indexes: [{ properties: ['workspaceId', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    /** The caller's name for it: the evidence's `aoi_name`. */
    name: p.text(),
    /** WGS84 GeoJSON Polygon or MultiPolygon as saved. */
    geometry: p.json<object>(),
    areaHa: p.double(),
    /** ISO 3166-1 alpha-2; decides the calibration campaign and the country classification. */
    country: p.string().length(2).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type StudioBoundary = InferEntity<typeof StudioBoundary>;

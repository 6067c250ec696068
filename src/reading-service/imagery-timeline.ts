/**
 * A plot's imagery timeline: every scene its evidence searched, kept or skipped with why, drawn
 * from the stored evidence itself, so the timeline's kept scenes are the evidence's `scenes` and
 * its skipped ones its `skipped`. Each scene links a thumbnail: the map tile around the plot
 * drawn from that scene.
 */
import { sceneDate } from '../documents/scene-date.ts';
import type { Em } from '../store/orm.ts';
import { footprintBox } from '../engine/context/plot.ts';
import { getEvidenceFootprint } from './evidence-store.ts';
import { tileAround } from '../engine/kernels/web-mercator.ts';
import { ZOOMS } from '../engine/map-layers.ts';
import { sceneSensor } from '../engine/plan/map-tile.ts';
import { LANDSAT_CATALOGUE } from '../engine/sources/products/landsat/codes.ts';
import { S2_CATALOGUES } from '../engine/sources/products/sentinel-2/codes.ts';

export interface TimelineScene {
  id: string;
  /** The catalogue collection that publishes it; null for an identifier of neither sensor. */
  product: string | null;
  date: string | null;
  kept: boolean;
  /** Why a skipped scene was not read; null for a kept one. */
  reason: string | null;
  /** Share of the plot clear in the scene; null where the evidence stores none (skipped scenes, evidence read before the series). */
  clear_share: number | null;
  /** The median vegetation index of the plot's clear pixels; null where the evidence stores none. */
  ndvi: number | null;
  thumbnail_url: string;
}

export interface ImageryTimeline {
  plot_id: string;
  synthetic: boolean;
  scenes: TimelineScene[];
}

/** A thumbnail shows the plot with some ground around it, no closer than this zoom draws it. */
const THUMBNAIL_MAX_ZOOM = 17;

const PRODUCTS = { 'sentinel-2': S2_CATALOGUES['earth-search-v1'].collection, landsat: LANDSAT_CATALOGUE.collection } as const;

function productOf(id: string): string | null {
  const sensor = sceneSensor(id);
  return sensor === null ? null : PRODUCTS[sensor];
}

/** `baseUrl` ends with the API's prefix (/api/v1). */
export async function imageryTimeline(em: Em, workspaceId: string, plotId: string, baseUrl: string): Promise<ImageryTimeline> {
  const { wrapper, footprint } = await getEvidenceFootprint(em, workspaceId, plotId);
  const e = wrapper.evidence;
  const { z, x, y } = tileAround(footprintBox(footprint), ZOOMS.true_colour.min, THUMBNAIL_MAX_ZOOM);
  const thumbnail = (id: string) => `${baseUrl}/tiles/true_colour/${z}/${x}/${y}.png?scene=${encodeURIComponent(id)}`;
  const series = new Map((e.series ?? []).map((p) => [p.scene, p]));
  const kept: TimelineScene[] = e.scenes.map((id) => {
    const point = series.get(id);
    return { id, product: productOf(id), date: point?.at ?? sceneDate(id), kept: true, reason: null, clear_share: point?.clear_share ?? null, ndvi: point?.index ?? null, thumbnail_url: thumbnail(id) };
  });
  const skipped: TimelineScene[] = e.skipped.map((s) => (
    { id: s.scene, product: productOf(s.scene), date: s.at, kept: false, reason: s.why, clear_share: null, ndvi: null, thumbnail_url: thumbnail(s.scene) }
  ));
  const scenes = [...kept, ...skipped].sort((a, b) => ((a.date ?? '') < (b.date ?? '') ? -1 : (a.date ?? '') > (b.date ?? '') ? 1 : a.id < b.id ? -1 : 1));
  return { plot_id: wrapper.plot_id, synthetic: e.synthetic, scenes };
}

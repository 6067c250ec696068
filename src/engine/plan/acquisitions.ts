/**
 * One acquisition is one scene. Catalogues publish one overpass several times: Sentinel-2 in every
 * MGRS tile its swath covers (neighbouring tiles overlap by about 10 km) and again when ESA
 * reprocesses it under a newer processing baseline; Landsat in overlapping WRS-2 rows and again at
 * each reprocessing. Counted as they come, one overpass would fill both places of the "trough holds
 * in two neighbouring scenes" guard and weigh twice in the series. So the catalogue's items are
 * grouped by sensor, platform and sensing time before any window is planned, and one item of each
 * group is read: the one covering most of the plot's box, then the newest processing.
 */
import { area, bboxPolygon, feature, featureCollection, intersect } from '@turf/turf';
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import type { SkippedScene } from '../evidence-object.ts';
import { pointInRings } from '../kernels/point-in-rings.ts';
import type { LandsatScene } from '../sources/products/landsat/codes.ts';
import type { S2Scene } from '../sources/products/sentinel-2/codes.ts';
import type { Bbox } from '../sources/reproject.ts';

/**
 * Items of one platform sensed this close together are one overpass: one orbit takes about 100
 * minutes, so two passes of a satellite over a place lie hours or days apart, while the tiles and
 * rows of one pass carry sensing times seconds to a minute apart.
 */
export const SAME_ACQUISITION_MS = 5 * 60_000;

/** A coverage this close to another's is the same coverage (footprints are drawn to a few metres). */
const COVERAGE_TIE = 0.005;

/** One published item of an acquisition, as the grouping needs it. */
export interface Publication {
  id: string;
  sensor: string;
  /** Null when the item does not say. */
  platform: string | null;
  datetime: string;
  /** Where the catalogue files it, as the evidence names it: `MGRS tile 47NPG`, `WRS-2 path/row 127052`. */
  where: string;
  /** Its processing: a rank that grows with newer processing, and how the evidence names it (`baseline 05.10`). */
  processing: { rank: number; label: string };
  /** Share of the plot's box inside the item's footprint, 0 to 1. */
  coverage: number;
}

/** Whether the segment a–b passes through the open box (Liang–Barsky clip, then the clipped piece's middle). */
function entersBox(ax: number, ay: number, bx: number, by: number, [w, s, e, n]: Bbox): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  // The four edges' (p, q) written out: a planned plot tests every edge of some sixty items' footprints.
  for (let k = 0; k < 4; k++) {
    const p = k === 0 ? -dx : k === 1 ? dx : k === 2 ? -dy : dy;
    const q = k === 0 ? ax - w : k === 1 ? e - ax : k === 2 ? ay - s : n - ay;
    if (p === 0) {
      if (q < 0) return false;
    } else if (p < 0) t0 = Math.max(t0, q / p);
    else t1 = Math.min(t1, q / p);
  }
  if (t0 >= t1) return false;
  const t = (t0 + t1) / 2;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return x > w && x < e && y > s && y < n;
}

/**
 * 1 or 0 when the box lies wholly inside or wholly outside the footprint, null when an edge of it
 * crosses the box. With no edge through the box its inside is all on one side, so its centre says which.
 */
function wholeOrNone(polygons: number[][][][], box: Bbox): 0 | 1 | null {
  for (const rings of polygons) {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) if (entersBox(ring[i - 1][0], ring[i - 1][1], ring[i][0], ring[i][1], box)) return null;
    }
  }
  const [w, s, e, n] = box;
  return polygons.some((rings) => pointInRings((w + e) / 2, (s + n) / 2, rings)) ? 1 : 0;
}

/**
 * The share of `box` (lon/lat) that `footprint` covers; an item without a footprint is taken to
 * cover it whole. A box wholly inside or outside is answered from the footprint's edges; only a box
 * an edge crosses is clipped (about 0.3 ms on the main thread, and a season's map tile weighs
 * dozens of items).
 */
export function boxCoverage(footprint: Geometry | null, box: Bbox): number {
  if (footprint === null) return 1;
  if (footprint.type !== 'Polygon' && footprint.type !== 'MultiPolygon') return 0;
  // A box without area (or with corners that are not numbers) has nothing to share out: it counts as covered.
  if (!(box[2] > box[0] && box[3] > box[1])) return 1;
  const whole = wholeOrNone(footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates, box);
  if (whole !== null) return whole;
  const boxPolygon = bboxPolygon(box);
  const common = intersect(featureCollection([boxPolygon, feature(footprint as Polygon | MultiPolygon)]));
  return common === null ? 0 : Math.min(1, area(common) / area(boxPolygon));
}

/** The better of two publications of one acquisition: more of the plot covered, then newer processing, then the later id. */
function better<T extends Publication>(a: T, b: T): T {
  if (Math.abs(a.coverage - b.coverage) > COVERAGE_TIE) return a.coverage > b.coverage ? a : b;
  if (a.processing.rank !== b.processing.rank) return a.processing.rank > b.processing.rank ? a : b;
  return a.id > b.id ? a : b;
}

function whyDropped(dropped: Publication, kept: Publication): string {
  if (dropped.where !== kept.where) {
    const less = kept.coverage - dropped.coverage > COVERAGE_TIE ? `, which covers less of the plot (${Math.round(dropped.coverage * 100)}% against ${Math.round(kept.coverage * 100)}%)` : '';
    return `the same acquisition as ${kept.id}, published in ${dropped.where}${less}`;
  }
  if (dropped.processing.rank !== kept.processing.rank) return `reprocessed as ${kept.id} (${kept.processing.label})`;
  return `the same acquisition as ${kept.id}, published twice`;
}

const samePlatform = (a: Publication, b: Publication) => a.platform === null || b.platform === null || a.platform === b.platform;

/**
 * Groups publications of one acquisition (same sensor, same platform, sensing times within
 * SAME_ACQUISITION_MS) and keeps the best of each group; every other is skipped, naming the one kept.
 * `kept` is in the order given.
 */
export function onePerAcquisition<T extends Publication>(items: readonly T[]): { kept: T[]; skipped: SkippedScene[] } {
  const time = (p: Publication) => Date.parse(p.datetime);
  const order = [...items].sort((a, b) => (a.sensor < b.sensor ? -1 : a.sensor > b.sensor ? 1 : time(a) - time(b)));
  const groups: T[][] = [];
  const open = new Map<string, T[]>();
  for (const item of order) {
    // Groups of another sensor, or begun too long before, are closed; the item joins an open one of its platform.
    let group: T[] | undefined;
    for (const [key, g] of open) {
      if (g[0].sensor !== item.sensor || time(item) - time(g[0]) > SAME_ACQUISITION_MS) open.delete(key);
      else if (group === undefined && g.every((o) => samePlatform(o, item))) group = g;
    }
    if (group === undefined) {
      group = [];
      groups.push(group);
      open.set(`${item.sensor}|${item.platform}|${item.id}`, group);
    }
    group.push(item);
  }
  const keep = new Set<T>();
  const skipped: SkippedScene[] = [];
  for (const g of groups) {
    const best = g.reduce(better);
    keep.add(best);
    for (const p of g) if (p !== best) skipped.push({ scene: p.id, at: p.datetime.slice(0, 10), why: whyDropped(p, best) });
  }
  return { kept: items.filter((i) => keep.has(i)), skipped };
}

/** A Sentinel-2 item as a publication: filed by MGRS tile, processed under a baseline. */
export function sentinel2Publication(scene: S2Scene, box: Bbox): Publication & { sensor: 'sentinel-2'; scene: S2Scene } {
  return {
    scene, id: scene.id, sensor: 'sentinel-2', platform: scene.platform, datetime: scene.datetime, where: `MGRS tile ${scene.tile}`,
    processing: { rank: Number(scene.processingBaseline) || 0, label: `baseline ${scene.processingBaseline}` },
    coverage: boxCoverage(scene.footprint, box),
  };
}

/** A Landsat item as a publication: filed by WRS-2 path and row, processed on a date. */
export function landsatPublication(scene: LandsatScene, box: Bbox): Publication & { sensor: 'landsat'; scene: LandsatScene } {
  return {
    scene, id: scene.id, sensor: 'landsat', platform: scene.platform, datetime: scene.datetime, where: `WRS-2 path/row ${scene.tile}`,
    processing: { rank: scene.processed === null ? 0 : Date.parse(scene.processed), label: scene.processed === null ? 'processing date not stated' : `processed ${scene.processed}` },
    coverage: boxCoverage(scene.footprint, box),
  };
}

/**
 * Published alert pixels grouped into alerts (spec 2.12, 8): pixels of one grid that touch (the
 * eight neighbours) and were detected within `maxGapDays` of one another form one event. The grid
 * is global (cells of `pixelDeg` from 0° east and 0° north), so a cluster that crosses a tile edge of
 * the source is one cluster. Pixels are sorted by cell once (a native numeric sort of one key per
 * pixel), neighbours found by walking the sorted cells, and joined by a union-find.
 */
import { metresPerDegree } from './degree-metres.ts';

/** Alert pixels, one element per pixel: the cell's centre, its day (days since 1970-01-01) and its confidence level (1 nominal, 2 high, 3 highest). */
export interface AlertPixels {
  lon: Float64Array;
  lat: Float64Array;
  day: Int32Array;
  level: Uint8Array;
}

export interface AlertCluster {
  firstDay: number;
  lastDay: number;
  /** The strongest level among its pixels. */
  level: number;
  /** Pixels at levels 1, 2 and 3. */
  byLevel: [number, number, number];
  pixels: number;
  /** Summed ground area of its cells. */
  areaM2: number;
  /** Area-weighted centre of its cells. */
  lon: number;
  lat: number;
  /** Edges of its cells: west, south, east, north. */
  bbox: [number, number, number, number];
}

/** What a pool task that clusters one plot's pixels is sent. */
export interface AlertClusterRequest {
  pixels: AlertPixels;
  pixelDeg: number;
  maxGapDays: number;
}

const MAX_EXACT = 2 ** 53;

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

export function alertClusters(px: AlertPixels, pixelDeg: number, maxGapDays: number): AlertCluster[] {
  const n = px.day.length;
  if (n === 0) return [];
  const col = new Float64Array(n);
  const row = new Float64Array(n);
  let minCol = Infinity;
  let maxCol = -Infinity;
  let minRow = Infinity;
  let maxRow = -Infinity;
  for (let i = 0; i < n; i++) {
    const c = Math.floor(px.lon[i] / pixelDeg);
    const r = Math.floor(px.lat[i] / pixelDeg);
    col[i] = c;
    row[i] = r;
    if (c < minCol) minCol = c;
    if (c > maxCol) maxCol = c;
    if (r < minRow) minRow = r;
    if (r > maxRow) maxRow = r;
  }
  const width = maxCol - minCol + 1;
  const height = maxRow - minRow + 1;
  if (width * height * n >= MAX_EXACT) throw new RangeError(`alert pixels spread over ${width} × ${height} cells are too many to key exactly; cluster a smaller area`);

  // One key per pixel, cell first and pixel index last, so a numeric sort orders pixels by cell.
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = ((row[i] - minRow) * width + (col[i] - minCol)) * n + i;
  keys.sort();
  const order = new Int32Array(n);
  const cells = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const cell = Math.floor(keys[p] / n);
    cells[p] = cell;
    order[p] = keys[p] - cell * n;
  }

  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const day = px.day;
  // Each pair of neighbours is joined once, from its lower cell: the same cell and the one east
  // (next in the sorted order), then the three cells of the row above, which a pointer that only
  // moves forward finds (the cells sought rise with the pixel's own).
  let above = 0;
  for (let p = 0; p < n; p++) {
    const i = order[p];
    const cell = cells[p];
    const k = cell % width;
    const east = k + 1 < width ? cell + 1 : cell;
    for (let q = p + 1; q < n && cells[q] <= east; q++) {
      const j = order[q];
      if (Math.abs(day[i] - day[j]) > maxGapDays) continue;
      const a = find(parent, i);
      const b = find(parent, j);
      if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
    }
    const from = cell + width - (k > 0 ? 1 : 0);
    const to = cell + width + (k + 1 < width ? 1 : 0);
    while (above < n && cells[above] < from) above++;
    for (let q = above; q < n && cells[q] <= to; q++) {
      const j = order[q];
      if (Math.abs(day[i] - day[j]) > maxGapDays) continue;
      const a = find(parent, i);
      const b = find(parent, j);
      if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
    }
  }

  const label = new Int32Array(n).fill(-1);
  // A cell's ground area depends on its row alone: computed once a row.
  const rowArea = new Float64Array(height).fill(NaN);
  const clusters: AlertCluster[] = [];
  const weighted: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const root = find(parent, i);
    let at = label[root];
    if (at < 0) {
      at = clusters.length;
      label[root] = at;
      clusters.push({ firstDay: px.day[i], lastDay: px.day[i], level: 0, byLevel: [0, 0, 0], pixels: 0, areaM2: 0, lon: 0, lat: 0, bbox: [Infinity, Infinity, -Infinity, -Infinity] });
      weighted.push([0, 0]);
    }
    const c = clusters[at];
    const centreLon = (col[i] + 0.5) * pixelDeg;
    const centreLat = (row[i] + 0.5) * pixelDeg;
    let area = rowArea[row[i] - minRow];
    if (Number.isNaN(area)) {
      const m = metresPerDegree(centreLat);
      area = rowArea[row[i] - minRow] = pixelDeg * m.lat * pixelDeg * m.lon;
    }
    if (px.day[i] < c.firstDay) c.firstDay = px.day[i];
    if (px.day[i] > c.lastDay) c.lastDay = px.day[i];
    const level = px.level[i];
    if (level > c.level) c.level = level;
    if (level >= 1 && level <= 3) c.byLevel[level - 1]++;
    c.pixels++;
    c.areaM2 += area;
    weighted[at][0] += centreLon * area;
    weighted[at][1] += centreLat * area;
    c.bbox[0] = Math.min(c.bbox[0], col[i] * pixelDeg);
    c.bbox[1] = Math.min(c.bbox[1], row[i] * pixelDeg);
    c.bbox[2] = Math.max(c.bbox[2], (col[i] + 1) * pixelDeg);
    c.bbox[3] = Math.max(c.bbox[3], (row[i] + 1) * pixelDeg);
  }
  clusters.forEach((c, at) => {
    c.lon = weighted[at][0] / c.areaM2;
    c.lat = weighted[at][1] / c.areaM2;
  });
  return clusters.sort((a, b) => a.firstDay - b.firstDay || a.bbox[0] - b.bbox[0] || a.bbox[1] - b.bbox[1]);
}

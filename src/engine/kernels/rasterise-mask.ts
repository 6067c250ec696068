/**
 * Footprint masks. A pixel belongs to a plot when its centre lies inside the boundary (holes
 * excluded), as GDAL's rasteriser decides without ALL_TOUCHED. Masks carry the same pixels twice:
 * as a byte per pixel (`inside`) and as runs (`spans`), so the statistics kernels loop over runs
 * and carry no mask branch in their inner loop.
 */

export interface PixelMask {
  readonly width: number;
  readonly height: number;
  /** 1 where the pixel belongs to the mask, 0 elsewhere; width × height, row-major. */
  readonly inside: Uint8Array;
  /** Runs of member pixels as flat [start, end) index pairs; a run never crosses a row; rows ascending. */
  readonly spans: Int32Array;
  /** Member pixels. */
  readonly count: number;
}

/** A position in pixel units of the window: x to the right (columns), y down (rows); pixel (c, r) has its centre at (c + 0.5, r + 0.5). */
export type PixelPosition = readonly number[];
export type PixelFootprint =
  | { readonly type: 'Polygon'; readonly coordinates: readonly (readonly PixelPosition[])[] }
  | { readonly type: 'MultiPolygon'; readonly coordinates: readonly (readonly (readonly PixelPosition[])[])[] };

/** Builds the runs of a byte mask. */
export function maskFromBits(inside: Uint8Array, width: number, height: number): PixelMask {
  if (inside.length !== width * height) throw new RangeError(`mask holds ${inside.length} bytes, window is ${width}×${height}`);
  let runs = 0;
  let count = 0;
  for (let r = 0; r < height; r++) {
    let prev = 0;
    const base = r * width;
    for (let c = 0; c < width; c++) {
      const v = inside[base + c] === 0 ? 0 : 1;
      runs += v & (prev ^ 1);
      count += v;
      prev = v;
    }
  }
  const spans = new Int32Array(runs * 2);
  let k = 0;
  for (let r = 0; r < height; r++) {
    const base = r * width;
    const end = base + width;
    let i = base;
    while (i < end) {
      while (i < end && inside[i] === 0) i++;
      if (i === end) break;
      spans[k++] = i;
      while (i < end && inside[i] !== 0) i++;
      spans[k++] = i;
    }
  }
  return { width, height, inside, spans, count };
}

/**
 * Rasterises a Polygon or MultiPolygon given in pixel units of a width × height window. Rings are
 * filled even-odd, so holes come out and the parts of a valid MultiPolygon (which never overlap)
 * all come in.
 */
export function rasteriseMask(footprint: PixelFootprint, width: number, height: number): PixelMask {
  const polygons = footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
  let edgeCount = 0;
  for (const rings of polygons) for (const ring of rings) edgeCount += ring.length;
  // Edges stored with y0 < y1; horizontal edges never cross a row centre and are dropped.
  const ex0 = new Float64Array(edgeCount);
  const ey0 = new Float64Array(edgeCount);
  const ey1 = new Float64Array(edgeCount);
  const eslope = new Float64Array(edgeCount);
  let edges = 0;
  let ymin = Infinity;
  let ymax = -Infinity;
  for (const rings of polygons) {
    for (const ring of rings) {
      const n = ring.length;
      for (let k = 0; k < n; k++) {
        const a = ring[k];
        const b = ring[k + 1 === n ? 0 : k + 1];
        if (a[1] === b[1]) continue;
        const [lower, upper] = a[1] < b[1] ? [a, b] : [b, a];
        ex0[edges] = lower[0];
        ey0[edges] = lower[1];
        ey1[edges] = upper[1];
        eslope[edges] = (upper[0] - lower[0]) / (upper[1] - lower[1]);
        if (lower[1] < ymin) ymin = lower[1];
        if (upper[1] > ymax) ymax = upper[1];
        edges++;
      }
    }
  }
  const inside = new Uint8Array(width * height);
  const crossings = new Float64Array(edges);
  // Runs come straight from the crossings: even-odd pairs of a row are disjoint and ascending.
  let spans = new Int32Array(64);
  let k = 0;
  let count = 0;
  const rowFrom = Math.max(0, Math.ceil(ymin - 0.5));
  const rowTo = Math.min(height - 1, Math.ceil(ymax - 0.5) - 1);
  for (let r = rowFrom; r <= rowTo; r++) {
    const y = r + 0.5;
    let m = 0;
    for (let e = 0; e < edges; e++) {
      if (ey0[e] <= y && y < ey1[e]) crossings[m++] = ex0[e] + (y - ey0[e]) * eslope[e];
    }
    // A row meets a handful of edges: insertion sort beats anything cleverer here.
    for (let i = 1; i < m; i++) {
      const x = crossings[i];
      let j = i - 1;
      while (j >= 0 && crossings[j] > x) {
        crossings[j + 1] = crossings[j];
        j--;
      }
      crossings[j + 1] = x;
    }
    const base = r * width;
    for (let i = 0; i + 1 < m; i += 2) {
      const c0 = Math.max(0, Math.ceil(crossings[i] - 0.5));
      const c1 = Math.min(width, Math.ceil(crossings[i + 1] - 0.5));
      if (c1 <= c0) continue;
      if (k + 2 > spans.length) {
        const grown = new Int32Array(spans.length * 2);
        grown.set(spans);
        spans = grown;
      }
      spans[k++] = base + c0;
      spans[k++] = base + c1;
      inside.fill(1, base + c0, base + c1);
      count += c1 - c0;
    }
  }
  return { width, height, inside, spans: spans.slice(0, k), count };
}

// The exact squared Euclidean distance transform, linear in the pixels: the nearest plot pixel
// along each row, then down each column the lower envelope of parabolas of Felzenszwalb and
// Huttenlocher (2012), "Distance transforms of sampled functions". A large finite value stands
// for "far" because the envelope arithmetic needs differences of it to stay finite.
const FAR = 1e20;

function distance1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const dq = q - v[k];
    d[q] = dq * dq + f[v[k]];
  }
}

/**
 * The ring around a plot for local baselines: pixels whose centre lies more than `innerPx` and at
 * most `outerPx` pixel widths from the centre of the nearest plot pixel, so the plot itself is
 * always cut out. The window must already reach `outerPx` beyond the plot for the ring to be whole.
 */
export function ringMask(plot: PixelMask, outerPx: number, innerPx = 0): PixelMask {
  if (!(outerPx > innerPx && innerPx >= 0)) throw new RangeError(`ring needs 0 ≤ inner < outer, got inner ${innerPx}, outer ${outerPx}`);
  const { width, height, inside: plotBits, spans } = plot;
  const ring = new Uint8Array(width * height);
  if (plot.count === 0) return maskFromBits(ring, width, height);
  // Only the plot's bounding box grown by the outer distance can hold ring pixels.
  let cMin = width;
  let cMax = 0;
  for (let s = 0; s < spans.length; s += 2) {
    cMin = Math.min(cMin, spans[s] % width);
    cMax = Math.max(cMax, ((spans[s + 1] - 1) % width));
  }
  const reach = Math.floor(outerPx);
  const r0 = Math.max(0, Math.floor(spans[0] / width) - reach);
  const r1 = Math.min(height - 1, Math.floor((spans[spans.length - 1] - 1) / width) + reach);
  const c0 = Math.max(0, cMin - reach);
  const c1 = Math.min(width - 1, cMax + reach);
  const rw = c1 - c0 + 1;
  const rh = r1 - r0 + 1;
  // Rows first: squared distance to the nearest plot pixel in the same row, two sweeps.
  const rows = new Float64Array(rw * rh);
  for (let r = 0; r < rh; r++) {
    const src = (r + r0) * width + c0;
    const dst = r * rw;
    let last = -Infinity;
    for (let c = 0; c < rw; c++) {
      if (plotBits[src + c] !== 0) last = c;
      rows[dst + c] = c - last;
    }
    last = Infinity;
    for (let c = rw - 1; c >= 0; c--) {
      if (plotBits[src + c] !== 0) last = c;
      const dist = Math.min(rows[dst + c], last - c);
      rows[dst + c] = dist === Infinity ? FAR : dist * dist;
    }
  }
  // Then columns, a block of them at a time gathered into contiguous lines, so the column pass
  // reads memory in rows rather than one cache line per pixel.
  const BLOCK = 8;
  const line = new Float64Array(BLOCK * rh);
  const d = new Float64Array(rh);
  const v = new Int32Array(rh);
  const z = new Float64Array(rh + 1);
  const inner2 = innerPx * innerPx;
  const outer2 = outerPx * outerPx;
  for (let cb = 0; cb < rw; cb += BLOCK) {
    const nb = Math.min(BLOCK, rw - cb);
    for (let r = 0; r < rh; r++) for (let j = 0; j < nb; j++) line[j * rh + r] = rows[r * rw + cb + j];
    for (let j = 0; j < nb; j++) {
      const at = j * rh;
      distance1d(line.subarray(at, at + rh), rh, d, v, z);
      line.set(d, at);
    }
    for (let r = 0; r < rh; r++) {
      const base = (r + r0) * width + c0 + cb;
      for (let j = 0; j < nb; j++) {
        const dist2 = line[j * rh + r];
        ring[base + j] = dist2 > inner2 && dist2 <= outer2 && plotBits[base + j] === 0 ? 1 : 0;
      }
    }
  }
  return maskFromBits(ring, width, height);
}

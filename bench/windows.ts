/**
 * `npm run bench -- windows [--plots 200] [--rounds 7]`
 *
 * Cutting a plot's windows out of decoded tiles, as a pool thread does before any kernel runs
 * (`assembleRasters`, src/engine/worker/raster-window.ts). The shipments are drawn as the book's
 * optical steps are: a plot of 0.5 to 6 ha with its 100 m ring, over 65 scenes, each scene's red and
 * near-infrared (uint16, 10 m), aerosol (uint16, 20 m) and scene classes (uint8, 20 m), cut from
 * 1024² and 512² tiles, a window sometimes across a tile edge. The reference in the same run is a
 * plain loop a sample type, each meeting one array type, copying the same rows. Each figure is the
 * best of `--rounds`, over the thread's CPU time, in ns a sample.
 */
import os from 'node:os';
import { assembleRasters, newTileSlot, type ShippedRaster, type ShippedTile, slotState, TILE_STATE, WindowBuffer } from '../src/engine/worker/raster-window.ts';
import { type Dtype, type TileSpec, typedArray } from '../src/engine/worker/tile-decode.ts';
import { arg, cpuMs } from './main-thread.ts';

/** A deterministic draw in [0, 1). */
function draws(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Layer { dtype: Dtype; side: number; metres: number; tiles: ShippedTile[] }

/** A layer's four decoded tiles (2×2), filled with a pattern so no page is untouched, each slot marked ready. */
function layer(dtype: Dtype, side: number, metres: number): Layer {
  const spec: TileSpec = { compression: 8, predictor: 1, dtype, width: side, height: side, samplesPerPixel: 1 };
  const tiles: ShippedTile[] = [];
  for (let k = 0; k < 4; k++) {
    const slot = newTileSlot(spec);
    const px = typedArray(dtype, slot, 0, side * side);
    for (let i = 0; i < px.length; i++) px[i] = (i * 7 + k) & 0xff;
    Atomics.store(slotState(slot), 0, TILE_STATE.READY);
    tiles.push({ spec, x0: (k % 2) * side, y0: Math.floor(k / 2) * side, plane: 0, slot, bytes: null, fill: 0 });
  }
  return { dtype, side, metres, tiles };
}

/** One plot's optical step: 65 scenes of four windows over the same ground. */
function shipment(layers: Layer[], next: () => number): { tiles: ShippedTile[]; rasters: ShippedRaster[]; samples: number } {
  const ha = 0.5 + 5.5 * next();
  const sideM = Math.sqrt(ha * 1e4) + 200;
  const cx = 0.3 + 0.4 * next(), cy = 0.3 + 0.4 * next();
  const tiles: ShippedTile[] = [];
  const rasters: ShippedRaster[] = [];
  let samples = 0;
  for (let scene = 0; scene < 65; scene++) {
    for (const [k, l] of layers.entries()) {
      const size = Math.ceil(sideM / l.metres);
      const x0 = Math.floor(cx * 2 * l.side - size / 2), y0 = Math.floor(cy * 2 * l.side - size / 2);
      const first = tiles.length;
      tiles.push(...l.tiles);
      rasters.push({ key: `${scene}:${k}`, x0, y0, width: size, height: size, dtype: l.dtype, samplesPerPixel: 1, planar: false, tiles: [first, first + 1, first + 2, first + 3], geoTransform: [0, l.metres, 0, 0, 0, -l.metres], epsg: 32630, nodata: 0, scale: 1, offset: 0 });
      samples += size * size;
    }
  }
  return { tiles, rasters, samples };
}

// The reference: one plain loop a sample type, over the rows each window takes from each tile.
function copy16(out: Uint16Array, at: number, tile: Uint16Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) out[at + i] = tile[from + i];
}
function copy8(out: Uint8Array, at: number, tile: Uint8Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) out[at + i] = tile[from + i];
}

function plainCut(sh: ReturnType<typeof shipment>, into: ArrayBuffer): void {
  let offset = 0;
  for (const r of sh.rasters) {
    const wide = r.dtype === 'uint16';
    const out = wide ? new Uint16Array(into, offset, r.width * r.height) : new Uint8Array(into, offset, r.width * r.height);
    out.fill(0);
    for (const index of r.tiles) {
      const t = sh.tiles[index];
      const side = t.spec.width;
      const xa = Math.max(r.x0, t.x0), xb = Math.min(r.x0 + r.width, t.x0 + side);
      const ya = Math.max(r.y0, t.y0), yb = Math.min(r.y0 + r.height, t.y0 + side);
      if (xb <= xa || yb <= ya) continue;
      const tile = wide ? new Uint16Array(t.slot!, 0, side * side) : new Uint8Array(t.slot!, 0, side * side);
      for (let y = ya; y < yb; y++) {
        const dst = (y - r.y0) * r.width + (xa - r.x0), src = (y - t.y0) * side + (xa - t.x0);
        if (wide) copy16(out as Uint16Array, dst, tile as Uint16Array, src, xb - xa);
        else copy8(out as Uint8Array, dst, tile as Uint8Array, src, xb - xa);
      }
    }
    offset += Math.ceil((r.width * r.height * (wide ? 2 : 1)) / 8) * 8;
  }
}

export default function windows(args: string[]): void {
  const plots = Number(arg(args, 'plots', '200'));
  const rounds = Number(arg(args, 'rounds', '7'));
  const layers = [layer('uint16', 1024, 10), layer('uint16', 1024, 10), layer('uint16', 512, 20), layer('uint8', 512, 20)];
  const next = draws(20201231);
  const shipments = Array.from({ length: plots }, () => shipment(layers, next));
  const samples = shipments.reduce((n, s) => n + s.samples, 0);
  const into = new ArrayBuffer(64 * 2 ** 20);
  const buffer = new WindowBuffer();
  const ours = () => { for (const s of shipments) assembleRasters(s.rasters, s.tiles, buffer); };
  const plain = () => { for (const s of shipments) plainCut(s, into); };
  const best = { ours: Infinity, plain: Infinity };
  // Warm both, then alternate, so a busy machine slows both alike.
  ours();
  plain();
  for (let r = 0; r < rounds; r++) {
    let c = cpuMs();
    ours();
    best.ours = Math.min(best.ours, cpuMs() - c);
    c = cpuMs();
    plain();
    best.plain = Math.min(best.plain, cpuMs() - c);
  }
  const ns = (ms: number) => Number(((ms * 1e6) / samples).toFixed(3));
  console.log(`cut ${plots} plots' optical windows (${(samples / plots / 1e3).toFixed(0)} k samples a plot): ${ns(best.ours)} ns a sample; a plain loop a sample type ${ns(best.plain)} ns`);
  console.log(JSON.stringify({ bench: 'windows', plots, samples_a_plot: Math.round(samples / plots), ns_a_sample: ns(best.ours), plain_loop_ns_a_sample: ns(best.plain), over_plain: Number((best.ours / best.plain).toFixed(2)), ms_a_plot: Number((best.ours / plots).toFixed(3)), cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
}

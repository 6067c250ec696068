// Collects the demo rasters file by file. Every file has its real product's layout (layouts.ts):
// sites add windows of data, clipped to the file, and the file is written once at its full size
// with the tiles no window touches left sparse. Several sites may fall in one file (a 10° TMF tile,
// one Sentinel-2 MGRS tile on one date), and one site's window may reach into a neighbouring file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CogDtype, type CogTypedArray, encodeCog } from './tiff-writer.ts';
import { type GridWindow, windowGeoTransform } from './geometry.ts';
import type { FileLayout } from './layouts.ts';

export interface RasterFileSpec {
  layout: FileLayout;
  dtype: CogDtype;
  nodata?: number;
  scale?: number;
  offset?: number;
  predictor?: 1 | 2 | 3;
  description?: string;
  metadata?: Record<string, string>;
  /** Value of pixels between windows when it is not the nodata value (e.g. 0 for "no building"). */
  fill?: number;
  bands?: number;
}

type Data = CogTypedArray | CogTypedArray[];

interface Pending {
  spec: RasterFileSpec;
  blocks: Array<{ window: GridWindow; data: Data }>;
}

/** The part of `data` (laid out over `w`) inside `file`, or null when they do not meet. */
function clip(w: GridWindow, data: Data, file: GridWindow): { window: GridWindow; data: Data } | null {
  const col0 = Math.max(w.col0, file.col0);
  const row0 = Math.max(w.row0, file.row0);
  const col1 = Math.min(w.col0 + w.width, file.col0 + file.width);
  const row1 = Math.min(w.row0 + w.height, file.row0 + file.height);
  if (col1 <= col0 || row1 <= row0) return null;
  const window = { grid: w.grid, col0, row0, width: col1 - col0, height: row1 - row0 };
  if (window.width === w.width && window.height === w.height) return { window, data };
  const cut = (band: CogTypedArray) => {
    const out = new (band.constructor as new (n: number) => CogTypedArray)(window.width * window.height);
    for (let r = 0; r < window.height; r++) {
      const from = (row0 - w.row0 + r) * w.width + (col0 - w.col0);
      out.set(band.subarray(from, from + window.width), r * window.width);
    }
    return out;
  };
  return { window, data: Array.isArray(data) ? data.map(cut) : cut(data) };
}

export class RasterFiles {
  private readonly files = new Map<string, Pending>();

  /**
   * Adds a window of data to the file at `relPath` (relative to the archive root), clipped to the
   * file; null data only makes sure the file is written.
   */
  add(relPath: string, spec: RasterFileSpec, window: GridWindow, data: Data | null): void {
    let f = this.files.get(relPath);
    if (f === undefined) {
      f = { spec, blocks: [] };
      this.files.set(relPath, f);
    } else if (!sameLayout(f.spec.layout, spec.layout) || f.spec.dtype !== spec.dtype) {
      throw new Error(`${relPath}: windows of different layouts`);
    }
    const g = spec.layout.window.grid;
    if (window.grid.epsg !== g.epsg || window.grid.pixel !== g.pixel || window.grid.anchorX !== g.anchorX || window.grid.anchorY !== g.anchorY) {
      throw new Error(`${relPath}: a window off the file's grid`);
    }
    if (data === null) return;
    const part = clip(window, data, spec.layout.window);
    if (part !== null) f.blocks.push(part);
  }

  get size(): number {
    return this.files.size;
  }

  /**
   * Writes every collected file under `root`, in a stable order. Synchronous on purpose: the
   * world is thousands of small files written into a fresh folder that is swapped in whole, so
   * neither per-file atomicity nor overlapping I/O would buy anything but waiting.
   */
  writeAll(root: string): void {
    const made = new Set<string>();
    for (const [relPath, f] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const { layout } = f.spec;
      const extent = layout.window;
      const path = join(root, relPath);
      const dir = dirname(path);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(path, encodeCog({
        width: extent.width,
        height: extent.height,
        dtype: f.spec.dtype,
        epsg: extent.grid.epsg,
        geoTransform: windowGeoTransform(extent),
        blocks: f.blocks.map((b) => ({ x: b.window.col0 - extent.col0, y: b.window.row0 - extent.row0, width: b.window.width, height: b.window.height, data: b.data })),
        nodata: f.spec.nodata,
        fill: f.spec.fill,
        samplesPerPixel: f.spec.bands,
        scale: f.spec.scale,
        offset: f.spec.offset,
        predictor: f.spec.predictor,
        description: f.spec.description,
        metadata: f.spec.metadata,
        tileSize: layout.tileSize,
        compression: layout.compression,
        bigTiff: layout.bigTiff,
        // Noisy demo rasters barely shrink at higher levels; the fastest level keeps generation quick.
        deflateLevel: 1,
      }));
    }
    this.files.clear();
  }
}

function sameLayout(a: FileLayout, b: FileLayout): boolean {
  const [wa, wb] = [a.window, b.window];
  return wa.grid.epsg === wb.grid.epsg && wa.grid.pixel === wb.grid.pixel && wa.col0 === wb.col0 && wa.row0 === wb.row0
    && wa.width === wb.width && wa.height === wb.height && a.tileSize === b.tileSize && a.compression === b.compression;
}

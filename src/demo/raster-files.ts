// Collects the demo rasters file by file. Several sites may fall in one product tile (a 10° TMF
// or Hansen tile, a 5° PALSAR tile): each adds its window of the product's grid, and the file is
// written once, over the union of the windows, with the ground between them left sparse.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CogDtype, type CogTypedArray, encodeCog } from './tiff-writer.ts';
import { type Grid, type GridWindow, windowGeoTransform } from './geometry.ts';

export interface RasterFileSpec {
  grid: Grid;
  dtype: CogDtype;
  nodata?: number;
  scale?: number;
  offset?: number;
  predictor?: 1 | 2;
  description?: string;
  metadata?: Record<string, string>;
  /** Value of pixels between windows when it is not the nodata value (e.g. 0 for "no building"). */
  fill?: number;
  bands?: number;
}

interface Pending {
  spec: RasterFileSpec;
  /** Windows without data only widen the file's extent (ground holding `fill`). */
  windows: Array<{ window: GridWindow; data: CogTypedArray | CogTypedArray[] | null }>;
}

export class RasterFiles {
  private readonly files = new Map<string, Pending>();

  /** Adds a window of data to the file at `relPath` (relative to the archive root); null data only widens it. */
  add(relPath: string, spec: RasterFileSpec, window: GridWindow, data: CogTypedArray | CogTypedArray[] | null): void {
    let f = this.files.get(relPath);
    if (f === undefined) {
      f = { spec, windows: [] };
      this.files.set(relPath, f);
    } else if (f.spec.grid.epsg !== spec.grid.epsg || f.spec.grid.pixel !== spec.grid.pixel || f.spec.dtype !== spec.dtype) {
      throw new Error(`${relPath}: windows on different grids`);
    }
    f.windows.push({ window, data });
  }

  get size(): number {
    return this.files.size;
  }

  /** The window a file will cover: the union of every window added to it so far. */
  extentOf(relPath: string): GridWindow {
    const f = this.files.get(relPath);
    if (f === undefined) throw new Error(`no raster collected at ${relPath}`);
    const col0 = Math.min(...f.windows.map((w) => w.window.col0));
    const row0 = Math.min(...f.windows.map((w) => w.window.row0));
    const col1 = Math.max(...f.windows.map((w) => w.window.col0 + w.window.width));
    const row1 = Math.max(...f.windows.map((w) => w.window.row0 + w.window.height));
    return { grid: f.spec.grid, col0, row0, width: col1 - col0, height: row1 - row0 };
  }

  /**
   * Writes every collected file under `root`, in a stable order. Synchronous on purpose: the
   * world is thousands of small files written into a fresh folder that is swapped in whole, so
   * neither per-file atomicity nor overlapping I/O would buy anything but waiting.
   */
  writeAll(root: string): void {
    const made = new Set<string>();
    for (const [relPath, f] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const extent = this.extentOf(relPath);
      const { col0, row0 } = extent;
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
        epsg: f.spec.grid.epsg,
        geoTransform: windowGeoTransform(extent),
        blocks: f.windows.flatMap((w) => (w.data === null ? [] : [{ x: w.window.col0 - col0, y: w.window.row0 - row0, width: w.window.width, height: w.window.height, data: w.data }])),
        nodata: f.spec.nodata,
        fill: f.spec.fill,
        samplesPerPixel: f.spec.bands,
        scale: f.spec.scale,
        offset: f.spec.offset,
        predictor: f.spec.predictor,
        description: f.spec.description,
        metadata: f.spec.metadata,
        // Demo windows are small: a tile much larger than the window would only compress padding.
        tileSize: Math.min(256, Math.ceil(Math.max(extent.width, extent.height) / 16) * 16),
        // Noisy demo rasters barely shrink at higher levels; the fastest level keeps generation quick.
        deflateLevel: 1,
      }));
    }
    this.files.clear();
  }
}

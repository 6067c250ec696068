// Reads the TMF tiles, each downloaded whole once (codes.ts holds their names and classes).
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Cog } from '../../cog.ts';
import { isSourceError } from '../../errors.ts';
import { archiveUrl } from '../archive-url.ts';
import { CogOpener, type ProductDeps } from '../cog-opener.ts';
import type { RasterRead } from '../provenance.ts';
import { TMF_VERSION, tmfCovers, type TmfDataset, tmfHref, tmfProvenance, tmfTile } from './codes.ts';

export type TmfRead =
  | { checked: false; available: false; reason: 'outside_coverage' | 'no_tile'; tile: string }
  | { checked: true; available: true; tile: string; layers: Partial<Record<TmfDataset, RasterRead>> };

export interface TmfAdapter {
  /**
   * Reads datasets over a box (lon/lat). Outside 30°S–30°N nothing is asked for; a tile the
   * host says does not exist reads as "no tile"; any other failure throws and is not remembered.
   */
  read(bbox: [number, number, number, number], datasets: TmfDataset[], signal?: AbortSignal): Promise<TmfRead>;
  /** Opens one dataset's tile from the local copy (downloaded whole first when the archive is remote). */
  open(dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal): Promise<Cog>;
}

/**
 * The TMF download script answers whole files and ignores Range, so each tile is fetched once
 * into `cacheDir` and read from disk afterwards. A `file:` archive is read in place. Two plots
 * asking for one tile at once share one download.
 */
export function createTmfAdapter(opts: ProductDeps & { cacheDir: string }): TmfAdapter {
  const cogs = new CogOpener({ ...opts, where: {} });
  const fetching = new Map<string, Promise<string>>();
  const local = (dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal): Promise<string> => {
    const source = archiveUrl(tmfHref(dataset, tile), opts.where);
    if (!/^https?:/i.test(source)) return Promise.resolve(source);
    // Tiles of different archives (the real host, a mirror) never share a cache entry.
    const archive = opts.where.root === undefined ? 'public' : createHash('sha256').update(opts.where.root).digest('hex').slice(0, 12);
    const path = join(opts.cacheDir, 'tmf', TMF_VERSION, archive, `${dataset}_${tile.id}.tif`);
    let p = fetching.get(path);
    if (p === undefined) {
      p = (async () => {
        try {
          await stat(path);
        } catch {
          if (opts.http === undefined) throw new TypeError(`downloading ${source} needs an HTTP client`);
          await mkdir(dirname(path), { recursive: true });
          await opts.http.download(source, path, { signal });
        }
        return path;
      })();
      fetching.set(path, p);
      p.finally(() => fetching.delete(path)).catch(() => {});
    }
    return p;
  };
  const open = async (dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal) => cogs.open(await local(dataset, tile, signal), { signal });
  return {
    open,
    async read(bbox, datasets, signal) {
      const lon = (bbox[0] + bbox[2]) / 2;
      const lat = (bbox[1] + bbox[3]) / 2;
      const tile = tmfTile(lon, lat);
      if (!tmfCovers(lat)) return { checked: false, available: false, reason: 'outside_coverage', tile: tile.id };
      const layers: Partial<Record<TmfDataset, RasterRead>> = {};
      try {
        await Promise.all(datasets.map(async (dataset) => {
          const window = await (await open(dataset, tile, signal)).readBbox(bbox, 'EPSG:4326', signal);
          layers[dataset] = { window, encoding: { scale: 1, offset: 0, nodata: 0 }, provenance: tmfProvenance(dataset, tile.id, opts.where) };
        }));
      } catch (err) {
        if (isSourceError(err, 'not_found')) return { checked: false, available: false, reason: 'no_tile', tile: tile.id };
        throw err;
      }
      return { checked: true, available: true, tile: tile.id, layers };
    },
  };
}

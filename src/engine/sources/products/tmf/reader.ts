// Reads the TMF tiles, each downloaded whole once (codes.ts holds their names and classes).
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Cog } from '../../cog.ts';
import { isSourceError } from '../../errors.ts';
import { archiveUrl } from '../archive-url.ts';
import { CogOpener, layersOverTiles, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import type { Bbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { TMF_VERSION, tmfCovers, type TmfDataset, tmfHref, tmfProvenance, tmfTile } from './codes.ts';

export type TmfWindows<D extends TmfDataset> =
  | { checked: false; available: false; reason: 'outside_coverage' | 'no_tile'; tile: string }
  | ({ checked: true; available: true; tile: string } & ProductWindows<D>);

export interface TmfAdapter {
  /**
   * Plans datasets over a box (lon/lat), from every 10° tile it touches. Outside 30°S–30°N (at the
   * box's centre) nothing is asked for; no tile the host holds reads as "no tile"; any other
   * failure throws and is not remembered.
   */
  windows<D extends TmfDataset>(box: Bbox, datasets: readonly D[], signal?: AbortSignal): Promise<TmfWindows<D>>;
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
  // One dataset's tile from the local copy (downloaded whole first when the archive is remote).
  const open = async (dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, name: string, signal?: AbortSignal): Promise<Cog> =>
    cogs.open(await local(dataset, tile, signal), { name, signal });
  return {
    async windows(box, datasets, signal) {
      const tile = tmfTile((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
      if (!tmfCovers((box[1] + box[3]) / 2)) return { checked: false, available: false, reason: 'outside_coverage', tile: tile.id };
      const tiles = cellsTouching(box, 10).map(([lon, lat]) => tmfTile(lon, lat));
      const byId = new Map(tiles.map((t) => [t.id, t]));
      try {
        const planned = await layersOverTiles(box, [...byId.keys()], datasets, (dataset, id) => ({
          open: (name) => open(dataset, byId.get(id)!, name, signal),
          provenance: tmfProvenance(dataset, id, opts.where),
          encoding: () => ({ scale: 1, offset: 0, nodata: 0 }),
        }));
        return { checked: true, available: true, tile: tile.id, ...planned };
      } catch (err) {
        if (isSourceError(err, 'not_found')) return { checked: false, available: false, reason: 'no_tile', tile: tile.id };
        throw err;
      }
    },
  };
}

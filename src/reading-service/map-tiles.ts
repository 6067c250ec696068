/**
 * Map tiles (spec 4.10, last paragraph), rendered on demand: planned and fetched on the main
 * thread through the evidence's own adapters and caches (plan/map-tile.ts), drawn and encoded in
 * the engine's pool (worker/map-tile.ts), kept on disk (tile-file-cache.ts). Each tile is named by
 * a key of everything its pixels depend on; its ETag is that key's digest, so a client's cached
 * copy is confirmed without drawing anything.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { busy } from '../errors.ts';
import type { Archive } from '../engine/archive.ts';
import type { ChangeLayer, ImageryLayer } from '../engine/map-layers.ts';
import { type ImageryChoice, planChangeTile, planImageryTile, type PlannedTile, type TileAddress } from '../engine/plan/map-tile.ts';
import { DecodedTiles, shipRasters, withShipment } from '../engine/plan/raster-shipment.ts';
import { TileFileCache } from './tile-file-cache.ts';
import { createPool, type EnginePool, PoolError } from '../engine/worker/pool.ts';

/** Raised when a change in drawing changes every tile's pixels: cached tiles and clients' copies are then stale. */
const RENDER_VERSION = 1;
/** A tile whose pixels may still change (alerts, the current year's season) is kept an hour; any other a day. */
const SHORT_MAX_AGE_S = 3600;
const LONG_MAX_AGE_S = 86_400;
/** Tiles in the making at once per pool thread: the rest wait on the main thread, holding nothing fetched. */
const RENDERS_PER_THREAD = 2;
/** Tiles waiting their turn beyond those; more are refused as busy. A map view asks for a few dozen. */
const MAX_WAITING = 2048;

export type TileRequest =
  | { family: 'imagery'; layer: ImageryLayer; tile: TileAddress; choice: ImageryChoice }
  | { family: 'change'; layer: ChangeLayer; tile: TileAddress };

/** A tile named: its ETag and how long it may be kept are known before it is drawn. */
export interface NamedTile {
  etag: string;
  maxAgeS: number;
  /** The tile's PNG bytes; transparent where nothing was read. */
  render(): Promise<Buffer>;
}

export interface MapTiles {
  /** Names the tile once, for its ETag and its drawing both. */
  name(req: TileRequest): Promise<NamedTile>;
}

export interface MapTilesDeps {
  /** The archive, opened on first use (an API that draws no tile never opens it). */
  archive: () => Promise<Archive>;
  pool: EnginePool;
  tiles: DecodedTiles;
  cache: TileFileCache;
  now?: () => Date;
}

export function openMapTiles(deps: MapTilesDeps): MapTiles {
  const now = deps.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<Buffer>>();
  const waiting: Array<() => void> = [];
  let running = 0;
  const limit = RENDERS_PER_THREAD * deps.pool.size;

  const keyOf = async (req: TileRequest) => {
    const archive = await deps.archive();
    const today = now().toISOString().slice(0, 10);
    const changing = req.family === 'change' ? req.layer === 'alerts' : 'season' in req.choice && req.choice.season >= now().getUTCFullYear();
    const what = req.family === 'imagery' ? ('scene' in req.choice ? `scene=${req.choice.scene}` : `season=${req.choice.season}`) : '';
    const { z, x, y } = req.tile;
    const key = [RENDER_VERSION, archive.kind, archive.where.root ?? '', req.family, req.layer, `${z}/${x}/${y}`, what, changing ? today : ''].join('|');
    return { key, archive, today, maxAgeS: changing ? SHORT_MAX_AGE_S : LONG_MAX_AGE_S };
  };

  const turn = async () => {
    if (running < limit) {
      running++;
      return;
    }
    if (waiting.length >= MAX_WAITING) throw busy('As many map tiles as the service draws at once are waiting; ask again shortly.', 2);
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  };

  // Not called off with the request that began it: others may be waiting on the same drawing.
  const draw = async (req: TileRequest, archive: Archive, today: string): Promise<Buffer> => {
    await turn();
    try {
      const planned: PlannedTile = req.family === 'imagery'
        ? await planImageryTile(archive, req.layer, req.tile, req.choice)
        : await planChangeTile(archive, req.layer, req.tile, today);
      const shipment = await shipRasters(planned.requests, deps.tiles);
      const png = await withShipment(deps.tiles, shipment, (sh) => deps.pool.run('tile', { tile: req.tile, shipment: sh, draw: planned.draw })).catch((error: unknown) => {
        if (error instanceof PoolError && error.code === 'pool_full') throw busy('The service\'s threads are full; ask for the tile again shortly.', 2);
        throw error;
      });
      return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    } finally {
      done();
    }
  };

  const render = async (req: TileRequest, key: string, archive: Archive, today: string): Promise<Buffer> => {
    const cached = await deps.cache.get(key);
    if (cached !== null) return cached;
    // Requests for one tile at once share one drawing.
    let p = inFlight.get(key);
    if (p === undefined) {
      p = draw(req, archive, today).then(async (png) => {
        await deps.cache.put(key, png);
        return png;
      });
      inFlight.set(key, p);
      p.finally(() => inFlight.delete(key)).catch(() => {});
    }
    return p;
  };

  return {
    async name(req) {
      const { key, archive, today, maxAgeS } = await keyOf(req);
      return { etag: `"${createHash('sha256').update(key).digest('hex').slice(0, 32)}"`, maxAgeS, render: () => render(req, key, archive, today) };
    },
  };
}

/** The engine's pool and decoded tiles of a process; a process that reads evidence keeps its threads started, one that only draws tiles starts them on demand. */
export function openEngine(config: Config, keepThreads: boolean): { pool: EnginePool; tiles: DecodedTiles } {
  return { pool: createPool({ size: config.poolSize, nice: config.poolNice, minThreads: keepThreads ? config.poolSize : 0 }), tiles: new DecodedTiles({ maxBytes: config.decodedTileCacheBytes }) };
}

/** A process's map tiles as configured: drawn in its engine, kept under the data directory. */
export function configuredMapTiles(config: Config, archive: () => Promise<Archive>, engine: { pool: EnginePool; tiles: DecodedTiles }): MapTiles {
  return openMapTiles({ archive, ...engine, cache: new TileFileCache(join(config.dataDir, 'cache', 'map-tiles'), config.mapTileCacheBytes) });
}

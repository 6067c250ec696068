import type { Config } from '../config.ts';
import type { AlertsAdapter } from '../engine/sources/products/gfw-alerts/reader.ts';
import type { SigningKey } from '../engine/signing.ts';
import type { Logger } from '../log.ts';
import type { Archive } from '../engine/archive.ts';
import type { MapTiles } from '../reading-service/map-tiles.ts';
import type { VerifiedKeys } from '../accounts/verified-keys.ts';
import type { RequestPools } from './pools.ts';
import type { Store } from '../store/orm.ts';
import type { Queue } from '../store/queue.ts';
import type { Plan, SeatRole } from '../store/entities/index.ts';

/** What every route factory receives: the process's long-lived parts. */
export interface Services {
  config: Config;
  store: Store;
  /** null while the queue is down; routes that enqueue answer 503 queue_unavailable. */
  queue: Queue | null;
  log: Logger;
  signingKey: SigningKey;
  /** API keys verified a moment ago (KEY_CACHE_MS), so a call with a key is not a database read each time. */
  keys: VerifiedKeys;
  /** Threads for PDF rendering and upload validation, so no request's CPU work holds the event loop. */
  pools: RequestPools;
  /** The process's archive, opened on first use (an API that draws no map and answers no coverage never opens it). */
  archive: () => Promise<Archive>;
  /** Map tiles, drawn in the engine's pool from that archive. */
  mapTiles: MapTiles;
  /** The published alerts scans read (GFW Data API, or the demo world's copy). */
  alerts: AlertsAdapter;
}

export interface Caller {
  workspaceId: string;
  plan: Plan;
  role: SeatRole;
  via: 'key' | 'session';
  userId: string | null;
  keyId: string | null;
}

export interface AppState {
  requestId: string;
  caller?: Caller;
  /** The session user, known on session-authenticated requests even before a workspace is chosen. */
  sessionUserId?: string;
}

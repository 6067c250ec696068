import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DECODED_TILE_BYTES, DEFAULT_RANGE_CACHE_BYTES } from './engine/sources/range-cache.ts';
import { CAP_VARIABLES, DEFAULT_CAPS, DEFAULT_FILE_BUDGET_MS, type IntakeCaps } from './intake/limits.ts';

/** Environment → one typed, validated config object. A wrong value stops the start naming the variable. */
export const ROLES = ['serve', 'api', 'worker'] as const;
export const ARCHIVES = ['demo', 'public'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type Role = (typeof ROLES)[number];
export type ArchiveKind = (typeof ARCHIVES)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  archive: ArchiveKind;
  poolSize: number;
  /**
   * How much lower than its process's own threads the raster pool's threads are scheduled (POOL_NICE,
   * 0 to 19, nice(2) on Linux). The main thread posts the pool's next tasks and answers the API; with
   * as many busy pool threads as cores it waited for a core while they waited for it. At 2 its event
   * loop's 99th-percentile delay fell from 38 to 60 ms to 29 to 32 during a book's optical read on two
   * cores, at 5 to 21 to 30, at 10 to 21 to 25, the read's pace unchanged (bench/RESULTS.md, "book").
   * The threads yield to the host's other work too: at 10 a pool thread gets about a tenth of a core
   * beside a busy thread of another process at 0, at 2 about two fifths (CFS weights).
   */
  poolNice: number;
  /** Threads of each API process that render PDF documents, off its event loop. */
  documentPoolSize: number;
  /** Threads of each API process that parse and validate uploaded plot files, off its event loop. */
  intakePoolSize: number;
  /** Threads of each API process that cluster scanned alert pixels into alerts, off its event loop. */
  alertPoolSize: number;
  /** Uploads waiting for an intake thread beyond those being judged (INTAKE_QUEUE, at least 1: a thread starts for a waiting upload); more are refused with 503 intake_busy. */
  intakeQueue: number;
  /** Uploads one workspace may have read or judged at once (UPLOADS_PER_WORKSPACE); more are refused with 429. */
  uploadsPerWorkspace: number;
  /** How long an upload's body may take to arrive (UPLOAD_TIMEOUT_S); a slower one is cut with 408. */
  uploadTimeoutMs: number;
  /** How long a verified API key is taken without reading it again (KEY_CACHE_MS; src/accounts/verified-keys.ts). */
  keyCacheMs: number;
  /** Bounds on an upload's geometry (MAX_VERTICES_PER_PLOT and its siblings, src/intake/limits.ts). */
  intakeCaps: IntakeCaps;
  /** The longest one upload is judged (FILE_TIME_BUDGET_MS); past it its thread is terminated and the upload refused. */
  intakeFileBudgetMs: number;
  role: Role;
  /** Ed25519 private key (PEM); null means "generate under the data directory on first start". */
  signingKeyPem: string | null;
  logLevel: LogLevel;
  /**
   * Lets webhook deliveries go to loopback addresses, over http or https (WEBHOOK_ALLOW_LOOPBACK=on): for
   * tests and local development only; refused with NODE_ENV=production.
   */
  webhookAllowLoopback: boolean;
  /** Webhook attempts each worker process makes at once, across all endpoints (WEBHOOK_CONCURRENCY). */
  webhookConcurrency: number;
  /** Evidence jobs a worker process runs at once (each job reads its plots in sequence). */
  jobConcurrency: number;
  /** Decoded tiles each worker process holds, its plots in flight's and those kept for the plots that share them together (DECODED_TILE_CACHE_MB), in bytes. */
  decodedTileCacheBytes: number;
  /** Compressed tile and header bytes each worker process keeps from the archive (RANGE_CACHE_MB), in bytes. */
  rangeCacheBytes: number;
  /** Rendered map tiles the API keeps on disk under the data directory (MAP_TILE_CACHE_MB), in bytes. */
  mapTileCacheBytes: number;
  shutdownTimeoutMs: number;
  archiveReview: ArchiveReviewConfig;
  /** GFW Data API key for the public alert and concession sources (ARCHIVE=public); null leaves them unread. */
  gfwApiKey: string | null;
  /** The perennial-crop rating of the evidence's `whisp` block (WHISP=on); off by default. */
  whisp: boolean;
  /**
   * Reverse proxies in front of the API whose X-Forwarded-For/-Proto/-Host are believed (TRUST_PROXY);
   * 0 believes none, so a client cannot name its own address to the sign-in throttle.
   */
  trustProxy: number;
  /**
   * The folder holding the information system's V3 schemas as the Commission ships them
   * (TRACES_SCHEMA_DIR; src/statements/schema-check.ts names the files): statements are checked
   * against them, and say so (`schema_checked`) only when they were.
   */
  tracesSchemaDir: string;
}

/** The archive imagery review's price (spec 2.14 `archive_review_price`); every figure null until set. */
export interface ArchiveReviewConfig {
  priceUsd: number | null;
  volumePriceUsd: number | null;
  volumeFromPlots: number | null;
  deliveryDays: number | null;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got "${parsed.protocol}"`);
  }
  return raw;
}

/** A price in US dollars: a positive amount with at most two decimals (cents). */
function usd(env: Env, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(raw.trim()) || Number(raw) <= 0) {
    throw new ConfigError(name, `expected a price in US dollars above 0 with at most two decimals (45 or 45.50), got "${raw}"`);
  }
  return Number(raw);
}

function optionalInteger(env: Env, name: string, min: number, max: number): number | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : integer(env, name, 0, min, max);
}

function archiveReview(env: Env): ArchiveReviewConfig {
  const priceUsd = usd(env, 'ARCHIVE_REVIEW_PRICE_USD');
  const volumePriceUsd = usd(env, 'ARCHIVE_REVIEW_VOLUME_PRICE_USD');
  const volumeFromPlots = optionalInteger(env, 'ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', 2, 1_000_000);
  const deliveryDays = optionalInteger(env, 'ARCHIVE_REVIEW_DELIVERY_DAYS', 1, 365);
  if (volumePriceUsd !== null) {
    if (priceUsd === null) throw new ConfigError('ARCHIVE_REVIEW_VOLUME_PRICE_USD', 'a volume price needs ARCHIVE_REVIEW_PRICE_USD, the price of one review');
    if (volumePriceUsd >= priceUsd) {
      throw new ConfigError('ARCHIVE_REVIEW_VOLUME_PRICE_USD', `the volume price (${volumePriceUsd}) must be below ARCHIVE_REVIEW_PRICE_USD (${priceUsd})`);
    }
    if (volumeFromPlots === null) throw new ConfigError('ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', 'a volume price needs the number of plots from which it applies');
  } else if (volumeFromPlots !== null) {
    throw new ConfigError('ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', 'set only with ARCHIVE_REVIEW_VOLUME_PRICE_USD');
  }
  return { priceUsd, volumePriceUsd, volumeFromPlots, deliveryDays };
}

function webhookAllowLoopback(env: Env): boolean {
  const on = oneOf(env, 'WEBHOOK_ALLOW_LOOPBACK', ['on', 'off'], 'off') === 'on';
  if (on && env.NODE_ENV === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_LOOPBACK', 'delivering webhooks to loopback is for tests only and is refused with NODE_ENV=production; unset it');
  }
  return on;
}

function signingKey(env: Env): string | null {
  const raw = env.SIGNING_KEY;
  if (raw === undefined || raw === '') return null;
  const pem = raw.replace(/\\n/g, '\n').trim();
  if (!/^-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----$/.test(pem)) {
    throw new ConfigError('SIGNING_KEY', 'expected an Ed25519 private key in PKCS#8 PEM form (-----BEGIN PRIVATE KEY-----)');
  }
  return pem;
}

/** Requests' CPU work is occasional (a PDF, an upload): two threads each keep the API answering without taking a worker's cores. */
const requestThreads = Math.min(2, os.availableParallelism());

function intakeCaps(env: Env): IntakeCaps {
  const cap = (key: keyof IntakeCaps, min: number, max: number) => integer(env, CAP_VARIABLES[key], DEFAULT_CAPS[key], min, max);
  return {
    verticesPerPlot: cap('verticesPerPlot', 4, 10_000_000),
    verticesPerFile: cap('verticesPerFile', 4, 100_000_000),
    partsPerPlot: cap('partsPerPlot', 1, 1_000_000),
    crossingsPerPlot: cap('crossingsPerPlot', 0, 1_000_000),
    plotBudgetMs: cap('plotBudgetMs', 1, 600_000),
    plotAreaHa: cap('plotAreaHa', 1, 1_000_000),
  };
}

const MIB = 1024 * 1024;

/** The Commission's V3 schemas as shipped with the service (schemas/traces-v3/README.md says where they come from). */
const DEFAULT_TRACES_SCHEMA_DIR = fileURLToPath(new URL('../schemas/traces-v3', import.meta.url));

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST && env.HOST !== '' ? env.HOST : '127.0.0.1';
  const baseUrl = url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}/api/v1`;
  if (!new URL(baseUrl).pathname.replace(/\/$/, '').endsWith('/api/v1')) {
    throw new ConfigError('BASE_URL', `the path must end in /api/v1, got "${baseUrl}"`);
  }
  return {
    port,
    host,
    baseUrl: baseUrl.replace(/\/$/, ''),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(env.DATA_DIR && env.DATA_DIR !== '' ? env.DATA_DIR : './data'),
    archive: oneOf(env, 'ARCHIVE', ARCHIVES, 'demo'),
    poolSize: integer(env, 'POOL_SIZE', os.availableParallelism(), 1, 256),
    poolNice: integer(env, 'POOL_NICE', 2, 0, 19),
    documentPoolSize: integer(env, 'DOCUMENT_POOL_SIZE', requestThreads, 1, 64),
    intakePoolSize: integer(env, 'INTAKE_POOL_SIZE', requestThreads, 1, 64),
    alertPoolSize: integer(env, 'ALERT_POOL_SIZE', requestThreads, 1, 64),
    intakeQueue: integer(env, 'INTAKE_QUEUE', 4, 1, 1024),
    uploadsPerWorkspace: integer(env, 'UPLOADS_PER_WORKSPACE', 2, 1, 64),
    uploadTimeoutMs: integer(env, 'UPLOAD_TIMEOUT_S', 120, 1, 3600) * 1000,
    keyCacheMs: integer(env, 'KEY_CACHE_MS', 1000, 0, 10_000),
    intakeCaps: intakeCaps(env),
    intakeFileBudgetMs: integer(env, 'FILE_TIME_BUDGET_MS', DEFAULT_FILE_BUDGET_MS, 1, 3_600_000),
    role: oneOf(env, 'ROLE', ROLES, 'serve'),
    signingKeyPem: signingKey(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    webhookAllowLoopback: webhookAllowLoopback(env),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1024),
    jobConcurrency: integer(env, 'JOB_CONCURRENCY', 1, 1, 64),
    decodedTileCacheBytes: integer(env, 'DECODED_TILE_CACHE_MB', DEFAULT_DECODED_TILE_BYTES / MIB, 16, 1_048_576) * MIB,
    rangeCacheBytes: integer(env, 'RANGE_CACHE_MB', DEFAULT_RANGE_CACHE_BYTES / MIB, 16, 1_048_576) * MIB,
    mapTileCacheBytes: integer(env, 'MAP_TILE_CACHE_MB', 256, 0, 1_048_576) * MIB,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30000, 0, 600000),
    archiveReview: archiveReview(env),
    whisp: oneOf(env, 'WHISP', ['on', 'off'], 'off') === 'on',
    trustProxy: integer(env, 'TRUST_PROXY', 0, 0, 16),
    gfwApiKey: env.GFW_API_KEY && env.GFW_API_KEY !== '' ? env.GFW_API_KEY : null,
    tracesSchemaDir: path.resolve(env.TRACES_SCHEMA_DIR && env.TRACES_SCHEMA_DIR !== '' ? env.TRACES_SCHEMA_DIR : DEFAULT_TRACES_SCHEMA_DIR),
  };
}

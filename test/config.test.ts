import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DEFAULT_CAPS } from '../src/intake/limits.ts';

describe('config', () => {
  test('defaults run the embedded service under ./data on the demo archive', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, null);
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.archive, 'demo');
    assert.equal(c.role, 'serve');
    assert.equal(c.baseUrl, 'http://localhost:8080/api/v1');
    assert.ok(c.poolSize >= 1);
    assert.equal(c.poolNice, 2);
    assert.equal(loadConfig({ POOL_NICE: '0' }).poolNice, 0);
  });

  test('the API renders documents and validates uploads on at most two threads each unless told', () => {
    const c = loadConfig({});
    assert.ok(c.documentPoolSize >= 1 && c.documentPoolSize <= 2);
    assert.equal(c.intakePoolSize, c.documentPoolSize);
    const told = loadConfig({ DOCUMENT_POOL_SIZE: '3', INTAKE_POOL_SIZE: '5' });
    assert.equal(told.documentPoolSize, 3);
    assert.equal(told.intakePoolSize, 5);
  });

  test('a second instance takes its own port and data directory', () => {
    const c = loadConfig({ PORT: '8181', DATA_DIR: '/tmp/second' });
    assert.equal(c.port, 8181);
    assert.equal(c.dataDir, '/tmp/second');
    assert.equal(c.baseUrl, 'http://localhost:8181/api/v1');
  });

  test('the GFW key is taken as given and absent when unset', () => {
    assert.equal(loadConfig({}).gfwApiKey, null);
    assert.equal(loadConfig({ GFW_API_KEY: 'k-123' }).gfwApiKey, 'k-123');
  });

  test('the decoded-tile and range caches take 512 and 256 MiB unless DECODED_TILE_CACHE_MB and RANGE_CACHE_MB say', () => {
    const c = loadConfig({});
    assert.deepEqual([c.decodedTileCacheBytes, c.rangeCacheBytes], [512 * 1024 * 1024, 256 * 1024 * 1024]);
    const told = loadConfig({ DECODED_TILE_CACHE_MB: '2048', RANGE_CACHE_MB: '64' });
    assert.deepEqual([told.decodedTileCacheBytes, told.rangeCacheBytes], [2048 * 1024 * 1024, 64 * 1024 * 1024]);
  });

  test('a cache size that is not a whole number of MiB from 16 stops the start naming its variable', () => {
    for (const [name, value] of [['DECODED_TILE_CACHE_MB', '0'], ['DECODED_TILE_CACHE_MB', '1.5'], ['RANGE_CACHE_MB', '8'], ['RANGE_CACHE_MB', '-64'], ['RANGE_CACHE_MB', '256MB']]) {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(`${name}: expected a whole number from 16`));
    }
  });

  test('no proxy is trusted unless TRUST_PROXY counts them', () => {
    assert.equal(loadConfig({}).trustProxy, 0);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  });

  test('the upload bounds and geometry caps take their defaults and are told by their variables', () => {
    const c = loadConfig({});
    assert.deepEqual(c.intakeCaps, DEFAULT_CAPS);
    assert.deepEqual([c.intakeQueue, c.uploadsPerWorkspace, c.uploadTimeoutMs, c.intakeFileBudgetMs], [4, 2, 120_000, 60_000]);
    const told = loadConfig({
      MAX_VERTICES_PER_PLOT: '5000',
      MAX_VERTICES_PER_FILE: '200000',
      MAX_PARTS_PER_PLOT: '20',
      MAX_RING_CROSSINGS: '0',
      PLOT_TIME_BUDGET_MS: '2000',
      FILE_TIME_BUDGET_MS: '30000',
      INTAKE_QUEUE: '8',
      UPLOADS_PER_WORKSPACE: '1',
      UPLOAD_TIMEOUT_S: '30',
    });
    assert.deepEqual(told.intakeCaps, { verticesPerPlot: 5000, verticesPerFile: 200_000, partsPerPlot: 20, crossingsPerPlot: 0, plotBudgetMs: 2000, plotAreaHa: 10_000 });
    assert.deepEqual([told.intakeQueue, told.uploadsPerWorkspace, told.uploadTimeoutMs, told.intakeFileBudgetMs], [8, 1, 30_000, 30_000]);
  });

  test('the plot area cap is 10,000 ha unless MAX_PLOT_AREA_HA says otherwise', () => {
    assert.equal(loadConfig({}).intakeCaps.plotAreaHa, 10_000);
    assert.equal(loadConfig({ MAX_PLOT_AREA_HA: '500' }).intakeCaps.plotAreaHa, 500);
  });

  const wrong: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['POOL_SIZE', { POOL_SIZE: '0' }],
    ['POOL_NICE', { POOL_NICE: '20' }],
    ['POOL_NICE', { POOL_NICE: '-5' }],
    ['DOCUMENT_POOL_SIZE', { DOCUMENT_POOL_SIZE: '0' }],
    ['INTAKE_POOL_SIZE', { INTAKE_POOL_SIZE: 'two' }],
    ['ROLE', { ROLE: 'boss' }],
    ['ARCHIVE', { ARCHIVE: 'earth' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['BASE_URL', { BASE_URL: 'https://evidence.example.org/v2' }],
    ['SIGNING_KEY', { SIGNING_KEY: 'not a key' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['TRUST_PROXY', { TRUST_PROXY: '17' }],
    ['MAX_VERTICES_PER_PLOT', { MAX_VERTICES_PER_PLOT: '3' }],
    ['MAX_VERTICES_PER_FILE', { MAX_VERTICES_PER_FILE: 'lots' }],
    ['MAX_PARTS_PER_PLOT', { MAX_PARTS_PER_PLOT: '0' }],
    ['MAX_RING_CROSSINGS', { MAX_RING_CROSSINGS: '-1' }],
    ['PLOT_TIME_BUDGET_MS', { PLOT_TIME_BUDGET_MS: '0' }],
    ['FILE_TIME_BUDGET_MS', { FILE_TIME_BUDGET_MS: '0' }],
    ['INTAKE_QUEUE', { INTAKE_QUEUE: '0' }],
    ['UPLOADS_PER_WORKSPACE', { UPLOADS_PER_WORKSPACE: '0' }],
    ['UPLOAD_TIMEOUT_S', { UPLOAD_TIMEOUT_S: '1.5' }],
    ['MAX_PLOT_AREA_HA', { MAX_PLOT_AREA_HA: '0' }],
    ['MAX_PLOT_AREA_HA', { MAX_PLOT_AREA_HA: '1e9' }],
  ];
  for (const [variable, env] of wrong) {
    test(`a wrong ${variable} stops the start naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(`${variable}:`),
      );
    });
  }
});

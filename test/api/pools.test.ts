import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

/** Every module a fresh thread loads to import one task module, as resolved URLs. */
const LOADER = `
const { registerHooks } = require('node:module');
const { parentPort, workerData } = require('node:worker_threads');
const loaded = [];
registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); loaded.push(found.url); return found; } });
import(workerData).then(() => parentPort.postMessage(loaded));
`;

function modulesLoadedBy(taskModule: URL): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: taskModule.href });
    worker.once('message', (loaded: string[]) => void worker.terminate().then(() => resolve(loaded)));
    worker.once('error', reject);
  });
}

const IO = /^node:(https?|http2|net|tls)$|\/node_modules\/(koa|@koa|pg|pg-[a-z]+|@mikro-orm|@electric-sql|got|pg-boss|undici)\//;

for (const task of ['../../src/documents/render-task.ts', '../../src/intake/judge-task.ts', '../../src/alerts/cluster-task.ts']) {
  test(`${task.split('/').slice(-2).join('/')} loads no database, Koa or HTTP module on its thread`, async () => {
    const loaded = await modulesLoadedBy(new URL(task, import.meta.url));
    assert.ok(loaded.some((url) => url.endsWith(task.slice(task.lastIndexOf('/')))), 'the task module itself was loaded');
    assert.deepEqual(loaded.filter((url) => IO.test(url)), []);
  });
}

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type MalformedFile, malformedFile } from './malformed-files.ts';

/**
 * Malformed plot files (GeoJSON, CSV, KML, zipped shapefiles: cut short, nested wrongly, odd numbers,
 * other encodings, broken zips) sent through /validate and /import as a client would. Whatever the
 * file, the answer is not a 5xx and is either a report or an error in the spec's shape; a refused
 * import writes nothing; the service's memory stays bounded. A fixed seed in CI (a failure prints the file);
 * `FUZZ_SEED=<n> FUZZ_RUNS=<n>` runs another sample or a longer one.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20201231);
/** Files in all, split between the two backends; each backend sends one in twenty through /import. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const IMPORT_EVERY = 20;
/** Validations in flight at once: the uploads one workspace may have judged at once (UPLOADS_PER_WORKSPACE's default). */
const IN_FLIGHT = 2;
/** Growth of the process's resident memory over the whole run that counts as unbounded. */
const MEMORY_GROWTH_MB = 400;

interface Answer {
  status: number;
  body: any;
}

for (const backend of BACKENDS) {
  describe(`malformed plot files on ${backend}`, () => {
    let app: TestApp;
    let key: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Fuzz', plan: 'trial', email: `fuzz-${backend}@fuzz.test`, password: 'fuzz pass words' });
      key = created.api_key as string;
    });
    after(() => app.close());

    async function send(route: 'validate' | 'import', file: MalformedFile): Promise<Answer> {
      const form = new FormData();
      form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
      const res = await fetch(`${app.url}/api/v1/portal/plots/${route}?country=GH`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      const text = await res.text();
      return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
    }

    async function plotCount(): Promise<number> {
      const r = await app.call('GET', '/api/v1/portal/plots?limit=1', { key });
      assert.equal(r.status, 200);
      return r.body.total as number;
    }

    test(`${RUNS / BACKENDS.length} generated files: no 5xx, every refusal in the spec's shape, a refused import writes nothing, memory bounded`, async () => {
      const files = fc.sample(malformedFile, { seed: SEED + BACKENDS.indexOf(backend), numRuns: RUNS / BACKENDS.length });
      const rssBefore = process.memoryUsage().rss;
      const statuses = new Map<number, number>();
      const check = (file: MalformedFile, answer: Answer) => {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const what = `${file.name} (${file.bytes.length} bytes, base64 ${Buffer.from(file.bytes).toString('base64').slice(0, 400)})`;
        assert.ok(answer.status < 500, `${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        if (answer.status >= 400) {
          assert.equal(typeof answer.body?.error?.code, 'string', `${what}: a ${answer.status} without the error shape: ${JSON.stringify(answer.body).slice(0, 300)}`);
          assert.ok(answer.body.error.message.length > 0);
        } else {
          assert.equal(answer.status, 200);
          assert.ok(Array.isArray(answer.body.plots), `${what}: a 200 without a report`);
        }
      };
      // Validation writes nothing, so several files are in flight at once, as clients would send them.
      let next = 0;
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        for (let i = next++; i < files.length; i = next++) {
          if (i % IMPORT_EVERY === 0) continue;
          check(files[i], await send('validate', files[i]));
        }
      }));
      // Imports one at a time, so the register's count before and after belongs to each.
      for (let i = 0; i < files.length; i += IMPORT_EVERY) {
        const before = await plotCount();
        const answer = await send('import', files[i]);
        check(files[i], answer);
        const expected = answer.status === 200 ? before + (answer.body.imported as number) : before;
        assert.equal(await plotCount(), expected, `an import answered ${answer.status} and the register holds ${expected} plots no more`);
      }
      const growthMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      assert.ok(growthMb < MEMORY_GROWTH_MB, `resident memory grew ${growthMb.toFixed(0)} MB over ${files.length} files`);
      // The sample reaches past the first check: some files are read as plots, some refused whole.
      assert.ok((statuses.get(200) ?? 0) > 0, `no file got a report: ${JSON.stringify([...statuses])}`);
      assert.ok([...statuses.keys()].some((s) => s >= 400), `no file was refused: ${JSON.stringify([...statuses])}`);
      const health = await app.call('GET', '/api/v1/health');
      assert.equal(typeof health.body.status, 'string');
    });
  });
}

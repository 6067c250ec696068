import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { DomainError } from '../../src/errors.ts';
import { judgePlotFile } from '../../src/intake/plot-file.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type MalformedFile, malformedFile } from './malformed-files.ts';

/**
 * Malformed plot files (GeoJSON, CSV, KML, zipped shapefiles: cut short, nested wrongly, odd numbers,
 * other encodings, broken zips). The whole sample goes through the judgement the upload routes run
 * (`judgePlotFile`, the intake threads' task): each file is a report or a refusal with a stable code,
 * never a crash. A part of it is sent through /validate and /import on each backend as a client would:
 * no 5xx, every refusal in the spec's shape, a refused import writes nothing, memory stays bounded.
 * A fixed seed in CI (a failure prints the file); `FUZZ_SEED=<n> FUZZ_RUNS=<n> FUZZ_HTTP_RUNS=<n>` runs
 * another sample or a longer one.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20201231);
/** Files judged in all. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** Of those, files sent through the routes on each backend (one in ten through /import): the routes cost a request each. */
const HTTP_RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 1000);
const IMPORT_EVERY = 10;
/** Validations in flight at once: the uploads one workspace may have judged at once (UPLOADS_PER_WORKSPACE's default). */
const IN_FLIGHT = 2;
/** Growth of the process's resident memory over the whole run that counts as unbounded. */
const MEMORY_GROWTH_MB = 400;

interface Answer {
  status: number;
  body: any;
}

test(`${RUNS} generated files through the upload routes' judgement: each a report or a refusal with a stable code, never a crash`, async () => {
  const files = fc.sample(malformedFile, { seed: SEED, numRuns: RUNS });
  let reports = 0;
  const codes = new Set<string>();
  for (const file of files) {
    try {
      const report = await judgePlotFile({ bytes: file.bytes, filename: file.name, country: 'GH', producers: [] });
      assert.ok(Array.isArray(report.plots));
      reports++;
    } catch (error) {
      const what = `${file.name} (${file.bytes.length} bytes, base64 ${Buffer.from(file.bytes).toString('base64').slice(0, 400)})`;
      assert.ok(error instanceof DomainError, `${what} threw ${String(error).slice(0, 300)}`);
      assert.ok(error.message.length > 0);
      codes.add(error.code);
    }
  }
  assert.ok(reports > 0 && codes.size > 1, `the sample reaches past the first check: ${reports} reports, refusals ${[...codes].join(', ')}`);
});

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

    test(`${HTTP_RUNS} generated files through the routes: no 5xx, every refusal in the spec's shape, a refused import writes nothing, memory bounded`, async () => {
      const files = fc.sample(malformedFile, { seed: SEED + 1 + BACKENDS.indexOf(backend), numRuns: HTTP_RUNS });
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
        const expected = answer.status === 200 ? before + (answer.body.imported as { created: number }).created : before;
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

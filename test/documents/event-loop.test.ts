import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { fixtureEvidence, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { loopDelayDuring } from '../support/event-loop.ts';
import { insertPlot } from './book.ts';

/**
 * A render takes a few hundred milliseconds of pdfmake and sharp; on the event loop it would hold it
 * that long (480 to 640 ms measured). Off it the thread's own CPU time between two turns reads 14
 * to 28 ms on a quiet machine and 48 ms at a load average of 25 (a loaded machine does not count
 * the waits for a core, but slows the thread's own work), so 200 ms is a bound only the render on
 * this thread reaches.
 */
const MAX_STALL_MS = 200;

for (const backend of BACKENDS) {
  describe(`evidence PDF and the event loop (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let plotId: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Loop Co', plan: 'trial', email: 'a@loop.test', password: 'loop pass' });
      key = created.api_key as string;
      const evidence = fixtureEvidence({ seed: 1 });
      plotId = await insertPlot(app.services.store.em(), created.workspace_id as string, { ref: 'LOOP-1', area_ha: 9.2, state: 'done', evidence }, app.services.signingKey, await fixtureMap());
    });
    after(() => app.close());

    test(`a PDF rendered through the route never holds the event loop over ${MAX_STALL_MS} ms`, async (t) => {
      const { result: pdf, delay } = await loopDelayDuring(async () => {
        const res = await fetch(`${app.url}/api/v1/portal/plots/${plotId}/evidence.pdf`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        return Buffer.from(await res.arrayBuffer());
      });
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      t.diagnostic(JSON.stringify(delay));
      assert.ok(delay.samples >= 20, `the loop was sampled while the render was in flight (${delay.samples} samples)`);
      // This thread's own CPU time between two turns: on a loaded machine the wall-clock delay also counts the waits for a core.
      assert.ok(delay.max_busy_ms < MAX_STALL_MS, `the loop was held ${delay.max_busy_ms} ms at once (longest delay ${delay.max_ms} ms)`);
    });
  });
}

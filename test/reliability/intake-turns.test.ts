/**
 * One workspace's slow uploads against everyone else's (issue 29): files of self-crossing stars, each
 * plot under every cap and its own budget, that together keep a thread for minutes. With one intake
 * thread and a file budget of a few seconds (FILE_TIME_BUDGET_MS), such an upload is stopped at its
 * budget and refused with judging_over_budget, writing nothing; its thread is terminated and replaced,
 * so the upload after it is judged; another workspace's file is served after the turn running when
 * it came, ahead of the first workspace's next file; and while an upload waits longer than a turn,
 * /health reads degraded and says why. The assertions are on the order of service and on what
 * /health says while an upload waits, never on how long anything took. One backend: only the
 * import's nothing-written check reaches the database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { DomainError } from '../../src/errors.ts';
import type { IntakeReport } from '../../src/intake/validate.ts';
import { selfCrossingStarsGeoJson, type HostileFile } from '../support/hostile-files.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * Room for a small file on a freshly started thread of a heavily loaded machine (the start costs 0.3
 * to 0.5 s of CPU). The star file takes several times it on any machine: 48 plots of one to three
 * seconds of CPU each, and at 11 MB it is sent in a moment.
 */
const FILE_BUDGET_MS = 10_000;

const SQUARE = [[-1.6, 6.7], [-1.599, 6.7], [-1.599, 6.701], [-1.6, 6.701], [-1.6, 6.7]];
const small: HostileFile = {
  bytes: Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ref: 'SMALL-1' }, geometry: { type: 'Polygon', coordinates: [SQUARE] } }] })),
  filename: 'small.geojson',
};

let app: TestApp;
let stars: HostileFile;
const workspaces: Record<string, { id: string; key: string }> = {};

async function post(workspace: string, { bytes, filename }: HostileFile, route: 'validate' | 'import') {
  const form = new FormData();
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  const res = await fetch(`${app.url}/api/v1/portal/plots/${route}?country=GH`, { method: 'POST', headers: { authorization: `Bearer ${workspaces[workspace].key}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const health = () => app.call('GET', '/api/v1/health', { key: workspaces.A.key });

const overBudget = /^Judging the upload took longer than 10 s \(FILE_TIME_BUDGET_MS\), the most one upload may take; it was stopped and nothing was stored/;

describe('intake turns between workspaces', () => {
  before(async () => {
    stars = selfCrossingStarsGeoJson(48, 400, 25);
    app = await startTestApp('postgresql', { INTAKE_POOL_SIZE: '1', INTAKE_QUEUE: '4', FILE_TIME_BUDGET_MS: String(FILE_BUDGET_MS), PLOT_TIME_BUDGET_MS: '600000' });
    for (const name of ['A', 'B', 'C']) {
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: `Turns ${name}`, plan: 'trial', email: `${name}@turns.test`, password: 'turns password' });
      workspaces[name] = { id: created.workspace_id as string, key: created.api_key as string };
    }
  });
  after(() => app.close());

  test('an import judged past FILE_TIME_BUDGET_MS is stopped and refused with judging_over_budget, writes nothing, and the next upload is judged on a new thread', async () => {
    const stopped = await post('A', stars, 'import');
    assert.equal(stopped.status, 422, JSON.stringify(stopped.body).slice(0, 300));
    assert.deepEqual(Object.keys(stopped.body), ['error']);
    assert.equal(stopped.body.error.code, 'judging_over_budget');
    assert.match(stopped.body.error.message, overBudget);
    assert.equal((await app.call('GET', '/api/v1/portal/plots?limit=1', { key: workspaces.A.key })).body.total, 0, 'nothing written');
    // One thread: had the stopped one gone on judging the stars, this file would wait behind it and be stopped in turn.
    const next = await post('A', small, 'validate');
    assert.equal(next.status, 200);
    assert.equal(next.body.plots[0].validation_state, 'valid');
    assert.equal((await health()).body.intake.stopped, 1);
  });

  test('another workspace\'s file goes after the turn running when it came, ahead of the first workspace\'s next; /health reads degraded while one waits past a turn', async () => {
    const judge = app.services.pools.intake.judge;
    const served: string[] = [];
    const outcome = (name: string, workspace: string, file: HostileFile) =>
      judge({ bytes: file.bytes, filename: file.filename, country: 'GH', producers: [] }, workspaces[workspace].id).then(
        (report) => {
          served.push(name);
          return report;
        },
        (error: unknown) => {
          served.push(name);
          return error;
        },
      );
    // In this order, each in line before the next: A's two star files, B's, then C's small one.
    const a1 = outcome('A1', 'A', stars);
    const a2 = outcome('A2', 'A', stars);
    const b1 = outcome('B1', 'B', stars);
    const c1 = outcome('C1', 'C', small);
    assert.deepEqual({ running: (await health()).body.intake.running, waiting: (await health()).body.intake.waiting }, { running: 1, waiting: 3 });

    // C waits for A1's turn and then B1's: past one turn, the intake reads stalled. On a loaded machine a
    // turn's thread may still be stopping as its budget runs out, and /health names that first while it lasts.
    const waited = /an upload has waited \d+ s for an intake thread, longer than one turn may take \(FILE_TIME_BUDGET_MS, 10 s\)/;
    let degraded: Awaited<ReturnType<typeof health>> | null = null;
    while (degraded === null && !served.includes('C1')) {
      const reply = await health();
      if (reply.body.intake.ok === false && waited.test(reply.body.intake.error)) degraded = reply;
      else await sleep(50);
    }
    assert.ok(degraded, 'the intake read stalled, naming the wait, while C waited');
    assert.equal(degraded.status, 503);
    assert.equal(degraded.body.status, 'degraded');

    const [A1, A2, B1, C1] = await Promise.all([a1, a2, b1, c1]);
    assert.deepEqual(served, ['A1', 'B1', 'C1', 'A2'], 'B and C go ahead of A\'s second file, which came before them');
    for (const refusal of [A1, A2, B1]) {
      assert.ok(refusal instanceof DomainError);
      assert.equal(refusal.code, 'judging_over_budget');
    }
    assert.equal((C1 as IntakeReport).plots[0].validation_state, 'valid');
    assert.deepEqual((await health()).body.intake, { ok: true, running: 0, waiting: 0, longest_running_ms: 0, longest_waiting_ms: 0, stopped: 4 });
  });
});

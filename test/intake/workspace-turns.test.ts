import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceTurns, type TurnOptions } from '../../src/intake/workspace-turns.ts';

/**
 * The intake's turns with work the test finishes by hand: the order in which uploads are served is
 * asserted, never how long anything took. The budget tests use a budget of a few milliseconds and
 * work that runs until the test ends it, so they wait on the event, not on a clock.
 */

const BUSY = new Error('busy');
const OVER = new Error('over budget');
const options = (over: Partial<TurnOptions> = {}): TurnOptions => ({ threads: 1, queue: 16, budgetMs: 600_000, busy: () => BUSY, overBudget: () => OVER, ...over });

/** Work that runs until finish(name) is called, recording the order the turns started in. */
function workbench() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const signals = new Map<string, AbortSignal>();
  const work = (name: string) => (signal: AbortSignal) => {
    started.push(name);
    signals.set(name, signal);
    return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
  };
  const finish = async (name: string) => {
    finishers.get(name)!();
    // The turn's end, and the start of the next, settle over a few microtasks.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, signals, work, finish };
}

describe('workspace turns', () => {
  test('another workspace\'s upload is served after the turn running when it came, ahead of the first workspace\'s queued files', async () => {
    const turns = workspaceTurns(options());
    const bench = workbench();
    const answers = [
      turns.take('A', bench.work('A1')),
      turns.take('A', bench.work('A2')),
      turns.take('A', bench.work('A3')),
      turns.take('B', bench.work('B1')),
      turns.take('C', bench.work('C1')),
    ];
    assert.deepEqual(bench.started, ['A1']);
    for (const name of ['A1', 'B1', 'C1', 'A2', 'A3']) await bench.finish(name);
    assert.deepEqual(bench.started, ['A1', 'B1', 'C1', 'A2', 'A3']);
    assert.deepEqual(await Promise.all(answers), ['A1', 'A2', 'A3', 'B1', 'C1']);
  });

  test('the lines are served round-robin while more than one workspace waits', async () => {
    const turns = workspaceTurns(options());
    const bench = workbench();
    const names = ['A1', 'A2', 'A3', 'B1', 'B2', 'B3'];
    const answers = names.map((name) => turns.take(name[0], bench.work(name)));
    for (const name of ['A1', 'B1', 'A2', 'B2', 'A3', 'B3']) await bench.finish(name);
    assert.deepEqual(bench.started, ['A1', 'B1', 'A2', 'B2', 'A3', 'B3']);
    await Promise.all(answers);
  });

  test('a workspace alone may use every thread, but one holding a thread is passed over while another waits', async () => {
    const turns = workspaceTurns(options({ threads: 2 }));
    const bench = workbench();
    const answers = [turns.take('A', bench.work('A1')), turns.take('A', bench.work('A2'))];
    assert.deepEqual(bench.started, ['A1', 'A2'], 'both threads go to the only workspace asking');
    answers.push(turns.take('A', bench.work('A3')), turns.take('B', bench.work('B1')));
    await bench.finish('A1');
    assert.deepEqual(bench.started, ['A1', 'A2', 'B1'], 'the freed thread goes to B, though A3 came first');
    await bench.finish('B1');
    assert.deepEqual(bench.started, ['A1', 'A2', 'B1', 'A3']);
    await bench.finish('A2');
    await bench.finish('A3');
    await Promise.all(answers);
  });

  test('an upload beyond the waiting room is refused at once, and the room is counted over all workspaces', async () => {
    const turns = workspaceTurns(options({ queue: 2 }));
    const bench = workbench();
    const answers = [turns.take('A', bench.work('A1')), turns.take('A', bench.work('A2')), turns.take('B', bench.work('B1'))];
    await assert.rejects(turns.take('C', bench.work('C1')), BUSY);
    assert.equal(turns.state().waiting, 2);
    for (const name of ['A1', 'B1', 'A2']) await bench.finish(name);
    await Promise.all(answers);
    assert.deepEqual(turns.state(), { running: 0, waiting: 0, longestRunningMs: 0, longestWaitingMs: 0, stopped: 0, stalled: null });
  });

  test('a turn past its budget is aborted and refused, and the next upload gets the thread', async () => {
    const turns = workspaceTurns(options({ budgetMs: 5 }));
    const stopping = (signal: AbortSignal) => new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('terminated'))));
    const slow = turns.take('A', stopping);
    const bench = workbench();
    const next = turns.take('B', bench.work('B1'));
    await assert.rejects(slow, OVER);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(bench.started, ['B1']);
    assert.equal(bench.signals.get('B1')!.aborted, false);
    // B1's own budget runs from its start: it is stopped too unless finished.
    await assert.rejects(next, OVER);
    assert.equal(turns.state().stopped, 2);
  });

  test('work that does not stop is answered at the budget, holds its thread, and shows the intake stalled until it ends', async () => {
    const turns = workspaceTurns(options({ budgetMs: 5 }));
    const bench = workbench();
    const stuck = turns.take('A', bench.work('A1'));
    await assert.rejects(stuck, OVER);
    assert.equal(bench.signals.get('A1')!.aborted, true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const stalled = turns.state();
    assert.equal(stalled.running, 1);
    assert.ok(stalled.longestRunningMs >= 5);
    assert.match(stalled.stalled ?? '', /^an upload has been judged for \d+ s, past its budget \(FILE_TIME_BUDGET_MS/);
    assert.doesNotMatch(stalled.stalled ?? '', /waited/);
    await bench.finish('A1');
    assert.deepEqual({ running: turns.state().running, stalled: turns.state().stalled }, { running: 0, stalled: null });
  });

  test('an upload waiting longer than a turn may take shows the intake stalled, and it is served once the thread is free', async () => {
    const turns = workspaceTurns(options({ budgetMs: 5 }));
    const bench = workbench();
    const stuck = turns.take('A', bench.work('A1'));
    const waiting = turns.take('B', bench.work('B1'));
    await assert.rejects(stuck, OVER);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const state = turns.state();
    assert.equal(state.waiting, 1);
    assert.ok(state.longestWaitingMs >= 5);
    assert.match(state.stalled ?? '', /an upload has waited \d+ s for an intake thread, longer than one turn may take \(FILE_TIME_BUDGET_MS/);
    assert.deepEqual(bench.started, ['A1'], 'B waits while A1 holds the thread');
    await bench.finish('A1');
    assert.deepEqual(bench.started, ['A1', 'B1']);
    await assert.rejects(waiting, OVER);
    await bench.finish('B1');
    assert.equal(turns.state().stalled, null);
  });
});

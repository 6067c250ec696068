import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { spreadAcrossTurns } from '../../src/api/turn-budget.ts';

/** Holds the thread for `ms` of work, as a request's synchronous part does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Counts turns of the event loop: one tick per check phase, for as long as `running()` says. */
function turnCounter(running: () => boolean) {
  const counter = { turn: 0 };
  const tick = () => {
    counter.turn++;
    if (running()) setImmediate(tick);
  };
  setImmediate(tick);
  return counter;
}

test('requests that land together begin over several turns, in the order they came, each turn within its budget and one request', async () => {
  const BUDGET_MS = 4;
  const REQUEST_MS = 1;
  const gate = spreadAcrossTurns(BUDGET_MS);
  let done = 0;
  const turns = turnCounter(() => done < 40);
  const began: Array<{ n: number; turn: number }> = [];
  // Forty requests in one turn, as a socket read of many requests hands them over.
  const all = Array.from({ length: 40 }, (_, n) => gate({} as Context, async () => {
    began.push({ n, turn: turns.turn });
    work(REQUEST_MS);
    await new Promise((resolve) => setTimeout(resolve, 1));
    done++;
  }));
  await Promise.all(all);
  assert.deepEqual(began.map((b) => b.n), Array.from({ length: 40 }, (_, n) => n), 'in the order they came');
  const perTurn = new Map<number, number>();
  for (const b of began) perTurn.set(b.turn, (perTurn.get(b.turn) ?? 0) + 1);
  assert.ok(perTurn.size >= 40 / (BUDGET_MS / REQUEST_MS + 1), `begun over ${perTurn.size} turns`);
  // A request is admitted while the turn's work is under the budget: at most the budget's worth, and the one that crosses it.
  // The budget and the work are both on the clock, so a loaded machine stretches each request's millisecond and fewer begin a turn, never more.
  for (const [turn, n] of perTurn) assert.ok(n <= BUDGET_MS / REQUEST_MS + 1, `turn ${turn} began ${n} requests`);
});

test('a request on a loop with nothing waiting begins at once, in the same turn', async () => {
  const gate = spreadAcrossTurns();
  let begun = false;
  const p = gate({} as Context, async () => {
    begun = true;
  });
  assert.equal(begun, true);
  await p;
});

test('refuses a budget that is not a positive number of milliseconds, naming the option', () => {
  for (const bad of [0, -1, Number.NaN]) assert.throws(() => spreadAcrossTurns(bad), /budgetMs must be a positive number of milliseconds/);
});

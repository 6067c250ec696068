// A speed test that load cannot fail: each kernel of the bench (bench/kernels.ts) is timed on a
// small window against the plain loop over the same arrays, the two interleaved in the same rounds
// and the fastest round of each kept, and its ratio may not pass ten times the ratio measured when
// the budget was set (speed-budget.json, written by `npm run bench -- kernels budget`).
// Why the bound holds on a loaded machine: the batches are timed by this thread's CPU time, so the
// waits for a core are not counted; what load still does (a neighbour in the core's caches, a
// slower clock) slows the kernel and its ceiling in the same rounds, by well under twice. What it
// still catches is a kernel an order of magnitude slower: scene-blocks solving its shade
// endmembers once per pixel instead of once per call read 21 × its ceiling against a budget of 2.
// An allocation per pixel (about 4 times) is for the close check, twice the budget:
// `npm run bench -- kernels check`, run by hand on a quiet machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchWindow, budgetRatio, BUDGET_SIDE, kernelCases, readBudget } from '../../../bench/kernels.ts';

const HEADROOM = 10;

const budget = readBudget();
const cases = kernelCases(benchWindow(BUDGET_SIDE));

test('every kernel of the bench has a budget, and every budget a kernel', () => {
  assert.deepEqual(cases.map((c) => c.kernel).sort(), Object.keys(budget.ratios).sort());
});

test(`no kernel's ratio to its ceiling passes ${HEADROOM}× the budget's`, () => {
  const over: string[] = [];
  for (const c of cases) {
    const limit = HEADROOM * budget.ratios[c.kernel];
    const ratio = budgetRatio(c, limit);
    if (ratio > limit) over.push(`${c.kernel}: ${ratio.toFixed(2)} × its ceiling, budget ${budget.ratios[c.kernel]} (${budget.measured})`);
  }
  assert.deepEqual(over, []);
});

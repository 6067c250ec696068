// A speed test with a budget: each kernel of the bench (bench/kernels.ts) is timed on a small window
// against the plain loop over the same arrays in the same run, and its ratio may not pass twice
// the ratio measured when the budget was set (speed-budget.json, written by
// `npm run bench -- kernels budget`). Ratios, not milliseconds: a slower or busier machine slows
// the kernel and its ceiling alike, while a kernel that grows a branch per pixel or an allocation
// per call moves its ratio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { benchWindow, BUDGET_FILE, BUDGET_SIDE, kernelCases, ratioToCeiling } from '../../../bench/kernels.ts';

const HEADROOM = 2;
/** A kernel over budget is measured again, this many times in all, and its lowest ratio stands: one busy moment is not a regression. */
const TRIES = 3;

const budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as { measured: string; ratios: Record<string, number> };
const cases = kernelCases(benchWindow(BUDGET_SIDE));

test('every kernel of the bench has a budget, and every budget a kernel', () => {
  assert.deepEqual(cases.map((c) => c.kernel).sort(), Object.keys(budget.ratios).sort());
});

test(`no kernel's ratio to its ceiling passes ${HEADROOM}× the budget's`, () => {
  const over: string[] = [];
  for (const c of cases) {
    const limit = HEADROOM * budget.ratios[c.kernel];
    let ratio = Infinity;
    for (let t = 0; t < TRIES && ratio > limit; t++) ratio = Math.min(ratio, ratioToCeiling(c));
    if (ratio > limit) over.push(`${c.kernel}: ${ratio.toFixed(2)} × its ceiling, budget ${budget.ratios[c.kernel]} (${budget.measured})`);
  }
  assert.deepEqual(over, []);
});

import type { Context, Next } from 'koa';

/**
 * CPU time one turn of the event loop may spend starting requests. A map asks for a few dozen to
 * a few hundred tiles at once; they land in the same turn, and each one's synchronous part
 * (routing, the key check, naming the tile, opening its cached file) runs before the turn ends:
 * about 0.1 ms a request here, so 200 together held the loop for over 20 ms.
 */
export const TURN_BUDGET_MS = 4;

/**
 * Spreads the start of request handling over turns of the event loop: once the requests begun in
 * this turn have taken `budgetMs`, a request waits for the next turn, in the order it came. A
 * waiting request holds only its socket and Koa's context; the cost is a turn's delay (well
 * under a millisecond on an idle loop) for requests past the budget.
 */
export function spreadAcrossTurns(budgetMs: number = TURN_BUDGET_MS) {
  if (!(budgetMs > 0)) throw new RangeError(`spreadAcrossTurns: budgetMs must be a positive number of milliseconds, got ${budgetMs}`);
  const waiting: Array<() => void> = [];
  /** When the first request of this turn began; null between turns. */
  let turnStart: number | null = null;

  // setImmediate runs after this turn's I/O callbacks: the turn is over, the next begins with a fresh budget.
  const endOfTurn = () => {
    turnStart = null;
    if (waiting.length > 0) void admitWaiting();
  };
  const startTurn = (): number => {
    if (turnStart === null) {
      turnStart = performance.now();
      setImmediate(endOfTurn);
    }
    return turnStart;
  };
  // Each admitted request runs on up to its first wait for I/O before the budget is looked at again.
  const admitWaiting = async () => {
    const start = startTurn();
    while (waiting.length > 0 && performance.now() - start < budgetMs) {
      waiting.shift()!();
      await null;
    }
  };

  return async (_ctx: Context, next: Next) => {
    const start = startTurn();
    if (waiting.length > 0 || performance.now() - start >= budgetMs) await new Promise<void>((resolve) => waiting.push(resolve));
    return next();
  };
}

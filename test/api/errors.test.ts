import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { HTTP_STATUS } from '../../src/api/errors.ts';
import { requestLifecycle } from '../../src/api/middleware.ts';
import * as refusals from '../../src/errors.ts';
import { DomainError } from '../../src/errors.ts';
import * as intakeRefusals from '../../src/intake/errors.ts';
import { createLogger } from '../../src/log.ts';

/** Runs the error middleware over a handler that throws, and answers what it set on the context. */
async function answerTo(thrown: unknown): Promise<{ status: number; body: unknown }> {
  const ctx = { get: () => '', set: () => {}, state: {}, method: 'GET', path: '/x', status: 404, body: undefined as unknown } as unknown as Context;
  await requestLifecycle(createLogger('silent'))(ctx, async () => {
    throw thrown;
  });
  return { status: ctx.status, body: ctx.body };
}

test('every code in the status table answers a client or server error status', () => {
  for (const [code, status] of Object.entries(HTTP_STATUS)) assert.ok(status >= 400 && status < 600, `${code} → ${status}`);
});

test('every refusal factory builds a domain error whose code the status table maps', () => {
  const factories = [...Object.values(refusals), ...Object.values(intakeRefusals)].filter((f) => typeof f === 'function' && f !== DomainError) as ((...args: unknown[]) => unknown)[];
  assert.ok(factories.length > 25);
  for (const factory of factories) {
    const error = factory === refusals.invalid ? factory('bad_body', 'm') : factory('x', 'y');
    assert.ok(error instanceof DomainError, factory.name);
    assert.equal(typeof HTTP_STATUS[error.code], 'number', `${factory.name} builds ${error.code}`);
  }
});

test('the middleware answers a domain error with its table status and {error:{code,message}}', async () => {
  assert.deepEqual(await answerTo(refusals.evidenceCap('the Trial plan allows 200 plot reads')), {
    status: 403,
    body: { error: { code: 'evidence_cap', message: 'the Trial plan allows 200 plot reads' } },
  });
  assert.equal((await answerTo(refusals.queueUnavailable('down'))).status, 503);
  assert.equal((await answerTo(intakeRefusals.fileTooLarge())).status, 413);
  assert.equal((await answerTo(intakeRefusals.duplicateProducerRef('P-1'))).status, 409);
});

test('an error that is no refusal answers 500 internal without its message', async () => {
  const answer = await answerTo(new Error('secret detail'));
  assert.equal(answer.status, 500);
  assert.equal((answer.body as { error: { code: string } }).error.code, 'internal');
  assert.doesNotMatch(JSON.stringify(answer.body), /secret detail/);
});

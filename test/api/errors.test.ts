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
async function answerTo(thrown: unknown): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const headers: Record<string, string> = {};
  const set = (name: string | Record<string, string>, value?: string) => Object.assign(headers, typeof name === 'string' ? { [name]: value } : name);
  const ctx = { get: () => '', set, response: { get: (name: string) => headers[name] ?? '' }, state: {}, method: 'GET', path: '/x', status: 404, body: undefined as unknown } as unknown as Context;
  await requestLifecycle(createLogger('silent'))(ctx, async () => {
    throw thrown;
  });
  return { status: ctx.status, body: ctx.body, headers };
}

test('every code in the status table answers a client or server error status', () => {
  for (const [code, status] of Object.entries(HTTP_STATUS)) assert.ok(status >= 400 && status < 600, `${code} → ${status}`);
});

test('every refusal factory builds a domain error whose code the status table maps', () => {
  const factories = [...Object.values(refusals), ...Object.values(intakeRefusals)].filter((f) => typeof f === 'function' && f !== DomainError) as ((...args: unknown[]) => unknown)[];
  assert.ok(factories.length > 25);
  for (const factory of factories) {
    const coded = new Map<unknown, string>([[refusals.invalid, 'bad_body'], [refusals.badRequest, 'bad_request'], [refusals.alertRefusal, 'ref_in_use']]);
    const error = coded.has(factory) ? factory(coded.get(factory), 'm') : factory('x', 'y');
    assert.ok(error instanceof DomainError, factory.name);
    assert.equal(typeof HTTP_STATUS[error.code], 'number', `${factory.name} builds ${error.code}`);
  }
});

test('the middleware answers a domain error with its table status and {error:{code,message}}', async () => {
  const { status, body } = await answerTo(refusals.evidenceCap('the Trial plan allows 200 plot reads'));
  assert.deepEqual({ status, body }, {
    status: 403,
    body: { error: { code: 'evidence_cap', message: 'the Trial plan allows 200 plot reads' } },
  });
  assert.equal((await answerTo(refusals.queueUnavailable('down'))).status, 503);
  assert.equal((await answerTo(intakeRefusals.fileTooLarge())).status, 413);
  assert.equal((await answerTo(intakeRefusals.duplicateProducerRef('P-1'))).status, 409);
});

test('a refusal that passes with time answers its status with Retry-After in whole seconds', async () => {
  const answer = await answerTo(refusals.tooManyAttempts('too many failed sign-ins; try again in 30 s', 30));
  assert.equal(answer.status, 429);
  assert.equal(answer.headers['Retry-After'], '30');
  assert.equal((await answerTo(refusals.forbidden('no seat'))).headers['Retry-After'], undefined);
});

test('refusals and internal errors carry nosniff, frame-ancestors none and no-store', async () => {
  for (const thrown of [refusals.notFound('nothing'), new Error('boom')]) {
    const { headers } = await answerTo(thrown);
    assert.equal(headers['X-Content-Type-Options'], 'nosniff');
    assert.equal(headers['Content-Security-Policy'], "frame-ancestors 'none'");
    assert.equal(headers['Cache-Control'], 'no-store');
  }
});

test('an error that is no refusal answers 500 internal without its message', async () => {
  const answer = await answerTo(new Error('secret detail'));
  assert.equal(answer.status, 500);
  assert.equal((answer.body as { error: { code: string } }).error.code, 'internal');
  assert.doesNotMatch(JSON.stringify(answer.body), /secret detail/);
});

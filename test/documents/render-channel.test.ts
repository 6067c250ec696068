/**
 * A render's channel (src/documents/render-channel.ts), both ends on this thread over a real
 * MessageChannel: the bytes arrive as they are sent, never more than one chunk ahead of the reader,
 * questions are answered in turn, and a reader that goes away stops the sender.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { portReadable, ReaderGone, renderChannel } from '../../src/documents/render-channel.ts';

const CHUNK = 64 * 1024;
/** Turns of the loop, enough for messages between two ports of this thread to cross several times. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await nextTurn();
};

test('the sender waits for the reader: the API side holds one chunk at most however slowly it is read', async () => {
  const { port1, port2 } = new MessageChannel();
  const sender = renderChannel(port2);
  let sent = 0;
  const task = (async () => {
    for (let i = 0; i < 12; i++) {
      await sender.send(new Uint8Array(CHUNK).fill(i));
      sent++;
    }
    port2.close();
  })();
  const body = await portReadable(port1, task, async () => null);
  const read: Buffer[] = [];
  for (;;) {
    await settle();
    // A sender that did not wait would have filled the stream by now.
    assert.ok(body.readableLength <= CHUNK, `${body.readableLength} bytes held`);
    assert.ok(sent <= read.length + 1, `${sent} sent with ${read.length} read`);
    const chunk = body.read() as Buffer | null;
    if (chunk === null) {
      if (body.readableEnded || sent === 12) break;
      continue;
    }
    read.push(chunk);
  }
  await task;
  const all = Buffer.concat([...read, ...(await body.toArray())]);
  assert.equal(all.length, 12 * CHUNK);
  for (let i = 0; i < 12; i++) assert.equal(all[i * CHUNK], i);
});

test('questions are answered through the same port, between the chunks', async () => {
  const { port1, port2 } = new MessageChannel();
  const sender = renderChannel(port2);
  const task = (async () => {
    await sender.send(Buffer.from('%PDF-'));
    const answer = await sender.ask<{ rows: string }>({ list: 'plots', after: 7 });
    await sender.send(Buffer.from(answer.rows));
    port2.close();
  })();
  const asked: unknown[] = [];
  const body = await portReadable(port1, task, async (question) => {
    asked.push(question);
    return { rows: '[1,2]' };
  });
  assert.equal(Buffer.concat(await body.toArray()).toString(), '%PDF-[1,2]');
  assert.deepEqual(asked, [{ list: 'plots', after: 7 }]);
});

test('a failure before the first bytes is the answer\'s; a reader gone stops the sender with reader_gone', async () => {
  const refused = new MessageChannel();
  await assert.rejects(portReadable(refused.port1, Promise.reject(new Error('pool full')), async () => null), /pool full/);

  const { port1, port2 } = new MessageChannel();
  const sender = renderChannel(port2);
  let stopped: unknown = null;
  const task = (async () => {
    try {
      for (;;) await sender.send(new Uint8Array(CHUNK));
    } catch (error) {
      stopped = error;
    }
  })();
  const body = await portReadable(port1, task, async () => null);
  body.destroy();
  await task;
  assert.ok(stopped instanceof ReaderGone);
  assert.equal((stopped as ReaderGone).code, 'reader_gone');
});

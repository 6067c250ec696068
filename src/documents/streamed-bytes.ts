/**
 * A document's bytes sent from a documents thread as they are made, through a MessagePort, one chunk
 * in flight: the thread sends a chunk and waits for the reader's word before making the next, so a
 * slow client holds the render back rather than the API's memory filling with its pages.
 */
import type { MessagePort } from 'node:worker_threads';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { ownBuffer } from '../engine/worker/transfer.ts';

/** The render stops when its reader is gone (the client went away): nothing is left to answer. */
export class ReaderGone extends Error {
  readonly code = 'reader_gone';
  constructor() {
    super('the reader of the document went away; its render was stopped');
    this.name = 'ReaderGone';
  }
}

/** On the documents thread: sends a chunk and settles once the reader wants the next; refused once the reader is gone. */
export function portSender(port: MessagePort): (bytes: Uint8Array) => Promise<void> {
  let gone = false;
  port.once('close', () => (gone = true));
  return (bytes) => new Promise<void>((resolve, reject) => {
    if (gone) {
      reject(new ReaderGone());
      return;
    }
    const onClose = () => reject(new ReaderGone());
    port.once('close', onClose);
    port.once('message', () => {
      port.off('close', onClose);
      resolve();
    });
    const owned = ownBuffer(bytes);
    port.postMessage(owned, [owned.buffer]);
  });
}

/**
 * On the API's thread: the bytes `task` sends through `port`, as a stream. It settles with the first
 * chunk, or with the task's failure before one (so a refusal is answered as an error, not as a
 * broken document); a failure after it breaks the stream. Destroying the stream (the client gone)
 * closes the port, which stops the render.
 */
export function portReadable(port: MessagePort, task: Promise<unknown>): Promise<Readable> {
  let owed = false;
  const body = new Readable({
    read() {
      if (!owed) return;
      owed = false;
      port.postMessage(0);
    },
    destroy(error, callback) {
      port.close();
      callback(error);
    },
  });
  port.on('message', (chunk: Uint8Array) => {
    if (body.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) port.postMessage(0);
    else owed = true;
  });
  return new Promise((resolve, reject) => {
    let started = false;
    port.once('message', () => {
      started = true;
      resolve(body);
    });
    task.then(() => {
      body.push(null);
      port.close();
      resolve(body);
    }, (error: unknown) => {
      if (started) body.destroy(error as Error);
      else {
        port.close();
        reject(error);
      }
    });
  });
}

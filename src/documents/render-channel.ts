/**
 * A render's channel between the API's thread and a documents thread, a MessagePort carrying two
 * exchanges, one message awaited at a time: the thread asks for the rows it lays out, a page at a
 * time, and the API's thread answers from the database; the thread sends the document's bytes as
 * they are written and waits for the reader's word before going on. So neither thread holds the
 * batch, and a slow client holds the render back rather than filling the API's memory.
 */
import type { MessagePort } from 'node:worker_threads';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { ownBuffer } from '../engine/worker/transfer.ts';

/** The render stops when its reader is gone (the client went away, or a page could not be read). */
export class ReaderGone extends Error {
  readonly code = 'reader_gone';
  constructor() {
    super('the reader of the document went away; its render was stopped');
    this.name = 'ReaderGone';
  }
}

/** The documents thread's end. */
export interface RenderChannel {
  /** Sends bytes of the document; settles once the reader wants more. */
  send(bytes: Uint8Array): Promise<void>;
  /** The API thread's answer to a question (a page of rows). */
  ask<A>(question: object): Promise<A>;
}

export function renderChannel(port: MessagePort): RenderChannel {
  let gone = false;
  port.once('close', () => (gone = true));
  const reply = () => new Promise<unknown>((resolve, reject) => {
    if (gone) {
      reject(new ReaderGone());
      return;
    }
    const onClose = () => reject(new ReaderGone());
    port.once('close', onClose);
    port.once('message', (message: unknown) => {
      port.off('close', onClose);
      resolve(message);
    });
  });
  return {
    async send(bytes) {
      const wanted = reply();
      const owned = ownBuffer(bytes);
      port.postMessage(owned, [owned.buffer]);
      await wanted;
    },
    async ask<A>(question: object) {
      const answer = reply();
      port.postMessage(question);
      return (await answer) as A;
    },
  };
}

/**
 * The API thread's end: the bytes `task` sends through `port`, as a stream, each question answered by
 * `answer`. It settles with the first bytes, or with the task's failure before any (so a refusal is
 * answered as an error, not as a broken document); a failure after them breaks the stream.
 * Destroying the stream (the client gone) closes the port, which stops the render.
 */
export function portReadable(port: MessagePort, task: Promise<unknown>, answer: (question: unknown) => Promise<unknown>): Promise<Readable> {
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
  return new Promise((resolve, reject) => {
    let started = false;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      if (started) body.destroy(error as Error);
      else {
        port.close();
        reject(error);
      }
    };
    port.on('message', (message: unknown) => {
      if (!(message instanceof Uint8Array)) {
        answer(message).then((a) => port.postMessage(a), fail);
        return;
      }
      if (!started) {
        started = true;
        resolve(body);
      }
      if (body.push(Buffer.from(message.buffer, message.byteOffset, message.byteLength))) port.postMessage(0);
      else owed = true;
    });
    task.then(() => {
      body.push(null);
      port.close();
      resolve(body);
    }, fail);
  });
}

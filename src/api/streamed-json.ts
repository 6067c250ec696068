import { Readable } from 'node:stream';
import { takingTurns } from '../turns.ts';

/** Text gathered before it is written out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A large JSON answer written a slice at a time: its last member, a long list, is serialized item
 * by item and the event loop takes turns between slices, so an answer of tens of thousands of
 * plots never holds it the way one JSON.stringify would. The text is what JSON.stringify gives.
 */
export function streamedJson<T extends object, K extends keyof T & string>(value: T, list: K): Readable {
  const { [list]: items, ...head } = value;
  const keys = Object.keys(value);
  if (keys[keys.length - 1] !== list || !Array.isArray(items)) throw new Error(`"${list}" must be the answer's last member and a list`);
  const open = JSON.stringify({ ...head, [list]: [] });
  async function* text() {
    const turn = takingTurns();
    let chunk = open.slice(0, -2);
    for (let i = 0; i < (items as unknown[]).length; i++) {
      chunk += (i === 0 ? '' : ',') + JSON.stringify((items as unknown[])[i]);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
      await turn();
    }
    yield `${chunk}]}`;
  }
  return Readable.from(text());
}

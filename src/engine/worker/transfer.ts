/**
 * Answers of pool tasks that carry bytes back by transfer rather than copy: Piscina clones a
 * task's result unless it is wrapped, and a clone of many megabytes is read on the calling thread.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';

/** The bytes on a buffer of their own. A view into a shared buffer (Node's pool for small Buffers) is copied, so moving it detaches nothing else. */
export function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  // A copy by the constructor: a Buffer's own `slice` is a view.
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** `value` as a task's answer with the buffers of `bytes` moved to the calling thread; they are unusable here after. */
export function answerMoving<T extends object>(value: T, bytes: Uint8Array<ArrayBuffer>[]): T {
  return move({ [transferableSymbol]: bytes.map((b) => b.buffer), [valueSymbol]: value }) as T;
}

import { Buffer } from 'node:buffer';
import type { Context, Next } from 'koa';
import { badRequest, invalid } from '../errors.ts';
import { tooManyUploads, uploadTimeout } from '../intake/errors.ts';
import { callerOf } from './auth.ts';

/** One uploaded file from a multipart/form-data body. */
export interface Upload {
  bytes: Buffer;
  filename: string | undefined;
}

export interface UploadOptions {
  /** The form field holding the file. */
  field: string;
  /** The most bytes the file may have. */
  maxBytes: number;
  /** The refusal for a larger file (a 413). */
  tooLarge: () => Error;
  /** How long the body may take to arrive; a slower one is refused with 408 and its connection closed. */
  timeoutMs: number;
}

/** Room for the multipart envelope (boundaries, part headers, small fields) beside the file. */
const ENVELOPE_BYTES = 64 * 1024;

const fileRequired = (field: string, why: string) =>
  invalid('file_required', `${why} Send the file as multipart/form-data in the field "${field}" (curl -F ${field}=@plots.geojson).`);

/**
 * Reads the body of a multipart upload, refusing it as soon as more bytes arrive than the file may
 * have (the declared Content-Length is checked before anything is read): an oversized upload is never
 * held in memory. The rest of a refused body is read and dropped rather than the connection closed
 * on it: closing a socket with unread bytes resets it, and the reset can destroy the 413 before the
 * client reads it. A body still arriving after `timeoutMs` (a client trickling bytes to hold the
 * connection and its buffer) is refused with 408, and the connection closed behind the answer.
 */
export function readUpload(ctx: Context, options: UploadOptions): Promise<Upload> {
  // Read once however many ask: the idempotency check digests the file before the route reads it.
  let read = uploadsRead.get(ctx.req);
  if (read === undefined) uploadsRead.set(ctx.req, (read = readUploadOnce(ctx, options)));
  return read;
}

const uploadsRead = new WeakMap<Context['req'], Promise<Upload>>();

async function readUploadOnce(ctx: Context, options: UploadOptions): Promise<Upload> {
  // An upload is read as its bytes arrive, under its cap: an encoded body would outgrow the cap once inflated.
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw badRequest('unsupported_content_encoding', `Content-Encoding ${encoding} is not accepted on an upload; send the form as it is (a shapefile or KML travels zipped as .zip or .kmz)`);
  }
  const boundary = boundaryOf(ctx.get('Content-Type'));
  if (!boundary) throw fileRequired(options.field, 'The request is not multipart/form-data.');
  const cap = options.maxBytes + ENVELOPE_BYTES;
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > cap) throw options.tooLarge();
  let body: Buffer;
  try {
    body = await readCapped(ctx.req, cap, ctx.get('Content-Length') === '' ? null : declared, options.timeoutMs);
  } catch (error) {
    if (error === TOO_SLOW) {
      ctx.set('Connection', 'close');
      throw uploadTimeout(Math.round(options.timeoutMs / 1000));
    }
    if (error !== OVER_CAP) throw error;
    throw options.tooLarge();
  }
  const part = filePart(body, boundary, options.field);
  if (!part) throw fileRequired(options.field, `The form has no field "${options.field}".`);
  if (part.bytes.length > options.maxBytes) throw options.tooLarge();
  return part;
}

const OVER_CAP = new Error('over cap');
const TOO_SLOW = new Error('too slow');

/**
 * The body's bytes; rejects with OVER_CAP once more than `cap` bytes arrived, or TOO_SLOW when they
 * have not all arrived within `timeoutMs`, dropping the rest as it comes. Each chunk is copied into
 * place as it arrives, so a 25 MB body is never copied in one go on the event loop; and into shared
 * memory, so the file goes to the intake thread by handle: cloned, a 24 MB file held this thread
 * 100 to 225 ms in one turn, by handle 14 to 28 ms, the shared memory's zeroing included
 * (bench/RESULTS.md "event loop"). Without a declared length the room is the cap.
 */
function readCapped(req: NodeJS.ReadableStream, cap: number, declared: number | null, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const whole = Buffer.from(new SharedArrayBuffer(declared ?? cap));
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const refuse = (why: Error) => {
      done();
      req.resume();
      reject(why);
    };
    const timer = setTimeout(() => refuse(TOO_SLOW), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        refuse(OVER_CAP);
        return;
      }
      chunk.copy(whole, size - chunk.length);
    };
    const onEnd = () => {
      done();
      resolve(whole.subarray(0, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Middleware bounding the uploads one workspace has in hand at once (read, judged, answered): a
 * further one is refused with 429 before its body is read, so one caller cannot fill the intake
 * queue that every workspace shares.
 */
export function uploadsPerWorkspace(limit: number) {
  const inHand = new Map<string, number>();
  return async (ctx: Context, next: Next) => {
    const workspaceId = callerOf(ctx).workspaceId;
    const count = inHand.get(workspaceId) ?? 0;
    // Node drains the unread body behind the answer, as for a 413.
    if (count >= limit) throw tooManyUploads(limit);
    inHand.set(workspaceId, count + 1);
    try {
      await next();
    } finally {
      const left = (inHand.get(workspaceId) ?? 1) - 1;
      if (left === 0) inHand.delete(workspaceId);
      else inHand.set(workspaceId, left);
    }
  };
}

function boundaryOf(contentType: string): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The named part of a multipart/form-data body (RFC 7578), as a view on the body's bytes. One file
 * is one import: a form naming the field twice is refused, not read by its first part.
 */
function filePart(body: Buffer, boundary: string, field: string): Upload | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);
  let found: Upload | null = null;
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break; // the closing delimiter
    if (!body.subarray(at, at + 2).equals(CRLF)) break;
    const headersEnd = body.indexOf(HEADER_END, at + 2);
    if (headersEnd < 0) break;
    const headers = body.toString('utf8', at + 2, headersEnd);
    const contentStart = headersEnd + HEADER_END.length;
    const contentEnd = body.indexOf(between, contentStart);
    if (contentEnd < 0) break;
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    if (parameter(disposition, 'name') === field) {
      if (found) throw invalid('one_file_per_upload', `the form holds more than one "${field}" part; one file is one import: send each file in its own request`);
      found = { bytes: body.subarray(contentStart, contentEnd), filename: parameter(disposition, 'filename') };
    }
    at = contentEnd + 2;
  }
  return found;
}

function parameter(header: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

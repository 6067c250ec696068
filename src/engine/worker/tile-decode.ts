// Decoding one compressed TIFF tile into typed pixels. Pure and synchronous, with no I/O, so a
// worker thread runs it on bytes handed over in a SharedArrayBuffer and writes the pixels into
// another one. Little-endian tiles only (cog.ts refuses big-endian files).
import { constants as zlibConstants, Inflate } from 'node:zlib';
import { SourceError } from '../sources/errors.ts';
import { type BuildingBands, CELL_SUMS, gatherCellSums } from '../kernels/building-cells.ts';

export type Dtype = 'uint8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';
export type TypedArray = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** TIFF Compression tag values decoded here: none, LZW, Adobe DEFLATE, old-style DEFLATE. */
export type Compression = 1 | 5 | 8 | 32946;
export type Predictor = 1 | 2 | 3;

export interface TileSpec {
  compression: Compression;
  predictor: Predictor;
  dtype: Dtype;
  /** Pixels per row and rows of this tile (a last strip may be shorter than the others). */
  width: number;
  height: number;
  /** Interleaved samples per pixel in this tile (1 for a planar-separate tile). */
  samplesPerPixel?: number;
  /**
   * Set where the tile is kept as building cells (the Open Buildings layer): the file's tile, as
   * `pixels` gives it, is decoded and gathered into cells of `factor` pixels, and only the cells
   * are kept, float32, CELL_SUMS samples a cell (kernels/building-cells.ts); the fields above are
   * then the cells'. A cell takes the pixels of `inFile` alone, so an edge tile's padding counts
   * for nothing.
   */
  cells?: TileCells;
}

export interface TileCells {
  factor: number;
  pixels: { dtype: Dtype; width: number; height: number; samplesPerPixel: number };
  inFile: { width: number; height: number };
  bands: BuildingBands;
  nodata: number | null;
}

/** The spec of the file's tile itself, as it decodes before its pixels are gathered into cells. */
const pixelSpec = (spec: TileSpec, cells: TileCells): TileSpec => ({ compression: spec.compression, predictor: spec.predictor, ...cells.pixels });

/** A thread's buffer to decode a cell tile's pixels into before they are gathered; grown as needed. */
let pixelBuffer = new ArrayBuffer(0);

function decodeCells(compressed: Uint8Array, spec: TileSpec, cells: TileCells, buffer: SharedArrayBuffer | ArrayBuffer): Float32Array {
  const pixels = pixelSpec(spec, cells);
  const size = decodedByteLength(pixels);
  if (pixelBuffer.byteLength < size) pixelBuffer = new ArrayBuffer(size);
  const raw = decodeTile(compressed, pixels, pixelBuffer);
  const into = new Float32Array(buffer, 0, spec.width * spec.height * CELL_SUMS);
  gatherCellSums({ raw, stride: pixels.width, ...cells.inFile, samplesPerPixel: cells.pixels.samplesPerPixel, bands: cells.bands, nodata: cells.nodata, factor: cells.factor, cellsAcross: spec.width }, into);
  return into;
}

export const BYTES_PER_SAMPLE: Readonly<Record<Dtype, number>> = {
  uint8: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  float64: 8,
};

export function typedArray(dtype: Dtype, buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray {
  switch (dtype) {
    case 'uint8':
      return new Uint8Array(buffer, byteOffset, length);
    case 'uint16':
      return new Uint16Array(buffer, byteOffset, length);
    case 'int16':
      return new Int16Array(buffer, byteOffset, length);
    case 'uint32':
      return new Uint32Array(buffer, byteOffset, length);
    case 'int32':
      return new Int32Array(buffer, byteOffset, length);
    case 'float32':
      return new Float32Array(buffer, byteOffset, length);
    case 'float64':
      return new Float64Array(buffer, byteOffset, length);
  }
}

export function decodedByteLength(spec: TileSpec): number {
  return spec.width * spec.height * (spec.samplesPerPixel ?? 1) * BYTES_PER_SAMPLE[spec.dtype];
}

/**
 * Decodes `compressed` into `into` (or a fresh ArrayBuffer) and returns the pixels viewed
 * without a copy, row-major, samples interleaved. The predictor is undone in place.
 */
export function decodeTile(compressed: Uint8Array, spec: TileSpec, into?: SharedArrayBuffer | ArrayBuffer): TypedArray {
  const spp = spec.samplesPerPixel ?? 1;
  const bps = BYTES_PER_SAMPLE[spec.dtype];
  const size = decodedByteLength(spec);
  const buffer = into ?? new ArrayBuffer(size);
  if (buffer.byteLength < size) throw new RangeError(`decodeTile: the output buffer holds ${buffer.byteLength} bytes, the tile needs ${size}`);
  if (spec.cells !== undefined) return decodeCells(compressed, spec, spec.cells, buffer);
  const bytes = new Uint8Array(buffer, 0, size);

  switch (spec.compression) {
    case 1:
      if (compressed.length < size) throw truncated(`an uncompressed tile of ${compressed.length} bytes, ${size} expected`);
      bytes.set(compressed.subarray(0, size));
      break;
    case 8:
    case 32946:
      inflateInto(compressed, bytes);
      break;
    case 5:
      lzwInto(compressed, bytes);
      break;
    default:
      throw new SourceError('unsupported_tiff', `TIFF compression ${spec.compression as number} is not decoded here`);
  }

  if (spec.predictor === 2) undoHorizontal(buffer, spec.dtype, spec.width, spec.height, spp);
  else if (spec.predictor === 3) undoFloatingPoint(bytes, spec.width * spp, spec.height, bps, spp);
  return typedArray(spec.dtype, buffer, 0, size / bps);
}

function truncated(what: string): SourceError {
  return new SourceError('truncated', `tile decodes short: ${what}`);
}

/**
 * node:zlib's native handle as its own streams drive it synchronously (lib/zlib.js,
 * processChunkSync): `writeSync` inflates into the caller's buffer and leaves what it did not use
 * of the output and the input in the stream's write state; a failure calls `onerror`, synchronously.
 */
interface InflateHandle {
  reset(): void;
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, out: Uint8Array, outOffset: number, outLength: number): void;
  onerror: (message: string, errno: number, code: string) => void;
}

/**
 * One inflater a thread, reset for each tile. node:zlib has no public call that inflates into a
 * caller's buffer: `inflateSync` hands back a fresh 2 MiB buffer a tile, to copy into the slot and
 * leave to the collector, and on a book's read those buffers alone started about a quarter of the
 * threads' full collections (bench/RESULTS.md, "book"). The handle writes into the slot itself.
 */
interface Inflater {
  handle: InflateHandle;
  /** What the last write left unused: output bytes, then input bytes. */
  state: Uint32Array;
  failure: string | null;
}

let inflater: Inflater | null = null;

function ownInflater(): Inflater {
  if (inflater !== null) return inflater;
  const stream = new Inflate() as unknown as { _handle?: InflateHandle; _writeState?: Uint32Array };
  if (typeof stream._handle?.writeSync !== 'function' || !(stream._writeState instanceof Uint32Array)) throw new Error('this Node.js has no zlib handle to inflate into a buffer (Node 24 is required)');
  const own: Inflater = { handle: stream._handle, state: stream._writeState, failure: null };
  own.handle.onerror = (message, _errno, code) => {
    own.failure = `${message} (${code})`;
  };
  inflater = own;
  return own;
}

/** Room past the tile's end, inflated into only to tell a stream longer than its tile. */
const PAST_END = new Uint8Array(64);

function inflateInto(compressed: Uint8Array, out: Uint8Array): void {
  const z = ownInflater();
  z.failure = null;
  z.handle.reset();
  z.handle.writeSync(zlibConstants.Z_FINISH, compressed, 0, compressed.length, out, 0, out.length);
  if (z.failure === null && z.state[0] === 0) {
    // The tile is full: whatever the stream still holds must inflate to nothing.
    const left = z.state[1];
    z.handle.writeSync(zlibConstants.Z_FINISH, compressed, compressed.length - left, left, PAST_END, 0, PAST_END.length);
    if (z.failure === null && z.state[0] === PAST_END.length) return;
    if (z.failure === null) throw new SourceError('invalid_tiff', `a DEFLATE tile inflates to more than the ${out.length} bytes expected`);
  }
  if (z.failure === null) throw truncated(`${out.length - z.state[0]} of ${out.length} bytes inflated`);
  if (/unexpected end/i.test(z.failure)) throw truncated(`the DEFLATE stream ends early (${z.failure})`);
  throw new SourceError('invalid_tiff', `a DEFLATE tile does not inflate (${z.failure})`);
}

// Horizontal differencing (predictor 2) works on whole samples, so each width gets its own
// loop; a running sum in a local keeps the loop to one load and one store per sample.
function undoHorizontal(buffer: ArrayBufferLike, dtype: Dtype, width: number, height: number, spp: number): void {
  const n = width * height * spp;
  switch (dtype) {
    case 'uint8':
      return accumulate(new Uint8Array(buffer, 0, n), width, height, spp, 0xff);
    case 'uint16':
    case 'int16':
      return accumulate(new Uint16Array(buffer, 0, n), width, height, spp, 0xffff);
    case 'uint32':
    case 'int32':
      return accumulate32(new Uint32Array(buffer, 0, n), width, height, spp);
    default:
      throw new SourceError('unsupported_tiff', `predictor 2 on ${dtype} samples`);
  }
}

function accumulate(v: Uint8Array | Uint16Array, width: number, height: number, spp: number, mask: number): void {
  const row = width * spp;
  if (spp === 1) {
    for (let y = 0; y < height; y++) {
      const start = y * row;
      const end = start + row;
      let acc = v[start];
      for (let i = start + 1; i < end; i++) {
        acc = (acc + v[i]) & mask;
        v[i] = acc;
      }
    }
    return;
  }
  for (let y = 0; y < height; y++) {
    const end = (y + 1) * row;
    for (let i = y * row + spp; i < end; i++) v[i] = (v[i] + v[i - spp]) & mask;
  }
}

function accumulate32(v: Uint32Array, width: number, height: number, spp: number): void {
  const row = width * spp;
  for (let y = 0; y < height; y++) {
    const end = (y + 1) * row;
    for (let i = y * row + spp; i < end; i++) v[i] = v[i] + v[i - spp]; // the store wraps mod 2^32
  }
}

// Floating-point predictor (TIFF Technical Note 3): each row holds the bytes of its samples as
// planes, most significant first, differenced byte by byte. Undo the differencing, then gather
// the planes back into little-endian samples.
function undoFloatingPoint(bytes: Uint8Array, samplesPerRow: number, height: number, bps: number, spp: number): void {
  const rowBytes = samplesPerRow * bps;
  const planes = new Uint8Array(rowBytes);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, (rowBytes * height) >>> 2);
  for (let y = 0; y < height; y++) {
    const start = y * rowBytes;
    sumPlanes(bytes, start, rowBytes, spp, planes);
    const n = samplesPerRow;
    if (bps === 4) {
      const w0 = start >>> 2;
      for (let i = 0; i < n; i++) words[w0 + i] = (planes[i] << 24) | (planes[n + i] << 16) | (planes[2 * n + i] << 8) | planes[3 * n + i];
    } else {
      for (let b = 0; b < bps; b++) {
        const plane = (bps - 1 - b) * n;
        for (let i = 0; i < n; i++) bytes[start + i * bps + b] = planes[plane + i];
      }
    }
  }
}

/**
 * Undoes one row's byte differencing (each byte against the byte `spp` before it) into `planes`.
 * Each interleaved sample keeps its running sum in a local, which a Uint8Array store wraps: summed in
 * place, each byte waited on the store of the one before it, and that wait was most of an Open
 * Buildings tile's decode. Its three samples a pixel are summed side by side in one pass, which
 * halves the time again (bench/RESULTS.md, "book").
 */
function sumPlanes(bytes: Uint8Array, start: number, rowBytes: number, spp: number, planes: Uint8Array): void {
  if (spp === 3) {
    let a = 0;
    let b = 0;
    let c = 0;
    for (let i = 0; i < rowBytes; i += 3) {
      a += bytes[start + i];
      planes[i] = a;
      b += bytes[start + i + 1];
      planes[i + 1] = b;
      c += bytes[start + i + 2];
      planes[i + 2] = c;
    }
    return;
  }
  for (let k = 0; k < spp; k++) {
    let acc = 0;
    for (let i = k; i < rowBytes; i += spp) {
      acc += bytes[start + i];
      planes[i] = acc;
    }
  }
}

// TIFF LZW: codes of 9 to 12 bits, most significant bit first, 256 = clear, 257 = end, and
// the code width grows one code early (the "early change" every TIFF writer uses).
const LZW_CLEAR = 256;
const LZW_END = 257;

function lzwInto(compressed: Uint8Array, out: Uint8Array): void {
  const prefix = new Uint16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let pos = 0;
  let bitBuffer = 0;
  let bits = 0;
  let inPos = 0;
  const inEnd = compressed.length;
  const outEnd = out.length;

  while (pos < outEnd) {
    while (bits < width) {
      if (inPos >= inEnd) throw truncated(`the LZW stream ends after ${pos} of ${outEnd} bytes`);
      bitBuffer = ((bitBuffer << 8) | compressed[inPos++]) & 0xffffff;
      bits += 8;
    }
    const code = (bitBuffer >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === LZW_END) break;
    if (code === LZW_CLEAR) {
      next = 258;
      width = 9;
      previous = -1;
      continue;
    }
    if (previous === -1) {
      if (code > 255) throw new SourceError('invalid_tiff', `an LZW tile starts with code ${code}`);
      out[pos++] = code;
      previous = code;
      continue;
    }
    let emitted: number;
    if (code < next) emitted = code;
    else if (code === next) emitted = previous;
    else throw new SourceError('invalid_tiff', `an LZW tile holds code ${code} before it is defined`);
    // Write the string of `emitted` backwards from its last byte.
    const len = length[emitted];
    const stop = Math.min(pos + len, outEnd);
    let c = emitted;
    for (let at = pos + len - 1; at >= pos; at--) {
      if (at < stop) out[at] = suffix[c];
      c = prefix[c];
    }
    pos = stop;
    const k = first[code < next ? code : previous];
    if (code === next && pos < outEnd) out[pos++] = k;
    if (next < 4096) {
      prefix[next] = previous;
      suffix[next] = k;
      first[next] = first[previous];
      length[next] = length[previous] + 1;
      next++;
      if (next >= (1 << width) - 1 && width < 12) width++;
    }
    previous = code;
  }
  if (pos < outEnd) throw truncated(`the LZW stream ends after ${pos} of ${outEnd} bytes`);
}

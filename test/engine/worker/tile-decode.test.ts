import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { CELL_SUMS, gatherCellSums } from '../../../src/engine/kernels/building-cells.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { decodeTile } from '../../../src/engine/worker/tile-decode.ts';

// Horizontal differencing as a TIFF writer does it, per row and per sample.
function difference<T extends Uint8Array | Uint16Array | Int32Array>(a: T, width: number, height: number, spp: number): T {
  const d = a.slice() as T;
  for (let y = 0; y < height; y++) {
    for (let x = width - 1; x > 0; x--) {
      for (let s = 0; s < spp; s++) {
        const i = (y * width + x) * spp + s;
        d[i] = a[i] - a[i - spp];
      }
    }
  }
  return d;
}

const asBytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

test('undoes predictor 2 on interleaved uint8 samples, decoding into a SharedArrayBuffer without a copy', () => {
  const width = 37;
  const height = 11;
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 97 + (i % 3) * 50) & 0xff;
  const compressed = deflateSync(asBytes(difference(pixels, width, height, 3)));
  const into = new SharedArrayBuffer(pixels.length + 64);
  const tile = decodeTile(compressed, { compression: 8, predictor: 2, dtype: 'uint8', width, height, samplesPerPixel: 3 }, into);
  assert.equal(tile.buffer, into);
  assert.deepEqual(Array.from(tile), Array.from(pixels));
});

test('undoes predictor 2 on int32 samples with wrap-around', () => {
  const width = 64;
  const height = 4;
  const pixels = new Int32Array(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = i % 2 ? 2_000_000_000 - i : -2_000_000_000 + i;
  const tile = decodeTile(deflateSync(asBytes(difference(pixels, width, height, 1))), { compression: 32946, predictor: 2, dtype: 'int32', width, height });
  assert.deepEqual(Array.from(tile), Array.from(pixels));
});

for (const spp of [1, 2, 3]) {
  test(`undoes the floating-point predictor on float32 samples, ${spp} interleaved a pixel`, () => {
    const width = 20;
    const height = 3;
    const n = width * spp;
    const values = new Float32Array(n * height);
    for (let i = 0; i < values.length; i++) values[i] = Math.sin(i) * 1e3;
    // Writer side of TIFF Technical Note 3: a row's bytes into planes, most significant first, then
    // each byte differenced against the byte one pixel's samples before it.
    const bytes = asBytes(values);
    const encoded = new Uint8Array(bytes.length);
    for (let y = 0; y < height; y++) {
      const row = new Uint8Array(n * 4);
      for (let i = 0; i < n; i++) for (let b = 0; b < 4; b++) row[b * n + i] = bytes[(y * n + i) * 4 + (3 - b)];
      for (let i = row.length - 1; i >= spp; i--) row[i] = (row[i] - row[i - spp]) & 0xff;
      encoded.set(row, y * n * 4);
    }
    const tile = decodeTile(deflateSync(encoded), { compression: 8, predictor: 3, dtype: 'float32', width, height, samplesPerPixel: spp });
    assert.deepEqual(Array.from(tile), Array.from(values));
  });
}

test('a DEFLATE stream that ends early is truncated, never padded with zeros', () => {
  const pixels = new Uint16Array(256 * 256).map((_, i) => (i * 7919) & 0xffff);
  const compressed = deflateSync(asBytes(pixels));
  const spec = { compression: 8 as const, predictor: 1 as const, dtype: 'uint16' as const, width: 256, height: 256 };
  assert.throws(() => decodeTile(compressed.subarray(0, compressed.length >> 1), spec), (e) => isSourceError(e, 'truncated'));
  // A complete stream of a smaller tile is short too.
  assert.throws(() => decodeTile(deflateSync(asBytes(pixels.subarray(0, 1000))), spec), (e) => isSourceError(e, 'truncated'));
});

test('a DEFLATE stream longer than its tile, or corrupt, is invalid_tiff, and the next tile still decodes', () => {
  const pixels = new Uint16Array(128 * 128).map((_, i) => (i * 7919) & 0xffff);
  const spec = { compression: 8 as const, predictor: 1 as const, dtype: 'uint16' as const, width: 128, height: 128 };
  const good = deflateSync(asBytes(pixels));
  const longer = new Uint8Array(pixels.byteLength + 1);
  longer.set(asBytes(pixels));
  assert.throws(() => decodeTile(deflateSync(longer), spec), (e) => isSourceError(e, 'invalid_tiff') && /more than the 32768 bytes/.test(e.message));
  const corrupt = Uint8Array.from(good);
  corrupt[40] ^= 0xff;
  corrupt[90] ^= 0x55;
  assert.throws(() => decodeTile(corrupt, spec), (e) => isSourceError(e, 'invalid_tiff'));
  assert.throws(() => decodeTile(Uint8Array.of(0xff, 0xff, 0xff, 0xff), spec), (e) => isSourceError(e, 'invalid_tiff'));
  // Bytes after the stream's end are not pixels; the stream before them is the tile.
  const trailing = new Uint8Array(good.length + 3);
  trailing.set(good);
  assert.deepEqual(Array.from(decodeTile(trailing, spec)), Array.from(pixels));
  assert.deepEqual(Array.from(decodeTile(good, spec)), Array.from(pixels));
});

test('an LZW stream that ends early is truncated; garbage is invalid_tiff; unknown compression is unsupported', () => {
  const spec = { compression: 5 as const, predictor: 1 as const, dtype: 'uint8' as const, width: 64, height: 64 };
  // Clear code then the literal 65 as 9-bit codes, and nothing more.
  assert.throws(() => decodeTile(Uint8Array.of(0x80, 0x10, 0x40), spec), (e) => isSourceError(e, 'truncated'));
  assert.throws(() => decodeTile(Uint8Array.of(0xff, 0xff, 0xff, 0xff), spec), (e) => isSourceError(e, 'invalid_tiff'));
  assert.throws(() => decodeTile(new Uint8Array(10), { ...spec, compression: 7 as never }), (e) => isSourceError(e, 'unsupported_tiff'));
  assert.throws(() => decodeTile(new Uint8Array(100), { ...spec, compression: 1 }), (e) => isSourceError(e, 'truncated'));
});

test('a tile kept as building cells decodes to its pixels gathered into cells, its padding past the file edge left out', () => {
  // A 16 × 8 tile of three float bands (count, height, presence) at the file's edge: 10 × 6 of it lies in the file.
  const width = 16;
  const height = 8;
  const pixels = new Float32Array(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i * 37) % 101) / 100;
  const bands = { count: 0, height: 1, presence: 2 };
  const cells = { factor: 4, pixels: { dtype: 'float32' as const, width, height, samplesPerPixel: 3 }, inFile: { width: 10, height: 6 }, bands, nodata: -99 };
  const spec = { compression: 8 as const, predictor: 1 as const, dtype: 'float32' as const, width: 4, height: 2, samplesPerPixel: CELL_SUMS, cells };
  const into = new SharedArrayBuffer(4 * 2 * CELL_SUMS * 4);
  const got = decodeTile(deflateSync(asBytes(pixels)), spec, into);
  assert.equal(got.buffer, into);
  // The in-file pixels alone, gathered: 3 × 2 cells, the third column and second row short; the fourth column is past the edge.
  const inFile = new Float32Array(10 * 6 * 3);
  for (let y = 0; y < 6; y++) inFile.set(pixels.subarray(y * width * 3, (y * width + 10) * 3), y * 10 * 3);
  const alone = gatherCellSums({ raw: inFile, stride: 10, width: 10, height: 6, samplesPerPixel: 3, bands, nodata: -99, factor: 4 });
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < 4; c++) {
      const cell = [...got.subarray((r * 4 + c) * CELL_SUMS, (r * 4 + c + 1) * CELL_SUMS)];
      assert.deepEqual(cell, c < 3 ? [...alone.sums.subarray((r * 3 + c) * CELL_SUMS, (r * 3 + c + 1) * CELL_SUMS)] : [0, 0, 0, 0]);
    }
  }
  // The short cells hold their in-file pixels only: 2 × 4 in the third column's first row, 4 × 2 in the second row.
  assert.deepEqual([got[(0 * 4 + 2) * CELL_SUMS + 1], got[(1 * 4 + 0) * CELL_SUMS + 1], got[(1 * 4 + 2) * CELL_SUMS + 1]], [8, 8, 4]);
});

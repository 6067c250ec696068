/**
 * Raw pixels as PNG bytes, encoded on the pool's thread: sharp's pipeline set-up and encode cost the
 * main thread about 0.8 ms a chip when they ran there.
 */
import sharp from 'sharp';

/** The PNG on a buffer of its own, so a task's answer can move it to the calling thread rather than copy it. */
export async function encodePng(pixels: Uint8Array, width: number, height: number, channels: 3 | 4): Promise<Uint8Array<ArrayBuffer>> {
  const png = await sharp(pixels, { raw: { width, height, channels } }).png().toBuffer();
  // sharp's buffer is memory it allocated outside the JavaScript heap, which cannot be moved: copied once onto one of our own.
  return new Uint8Array(png);
}

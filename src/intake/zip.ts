/**
 * The zip archive of an upload (a zipped shapefile, a KMZ), read with the guards a hostile archive
 * needs: the entry count and the declared sizes of the entries taken are bounded before anything is
 * inflated, and the bytes actually inflated are counted against each entry's declared size as they
 * come (headers lie), so no entry, and no archive, inflates past its bound. Each entry is shown as it
 * inflates to a watch that can refuse it after its first chunk.
 */
import { Buffer } from 'node:buffer';
import yauzl from 'yauzl';
import { DomainError } from '../errors.ts';
import { badZip, unsupportedFormat, zipTooLarge, zipTooManyEntries } from './errors.ts';
import { MAX_ZIP_ENTRIES, MAX_ZIP_EXPANDED_BYTES } from './limits.ts';

/** Sees the bytes inflated so far after each chunk and throws to stop the inflating. */
export type Watch = (inflated: Buffer) => void;

/** What to do with one entry: null leaves it; a watch takes it (and may throw to refuse it, or the upload, from its declared size). */
export type Pick = (path: string, declaredBytes: number) => Watch | null;

export interface Unzipped {
  /** Every file entry's path, in the archive's order (folders and macOS metadata left out). */
  seen: string[];
  taken: { path: string; bytes: Buffer }[];
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function openZip(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.fromBufferPromise(bufferOf(bytes), { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    throw badZip(messageOf(error));
  }
}

const skipped = (path: string) => path.endsWith('/') || path.startsWith('__MACOSX/') || /(^|\/)\._/.test(path);

/** The paths of the archive's files, read from its central directory alone. */
export async function zipPaths(bytes: Uint8Array): Promise<string[]> {
  return (await unzip(bytes, () => null)).seen;
}

/** Inflates the entries `pick` takes, in the archive's order. */
export async function unzip(bytes: Uint8Array, pick: Pick): Promise<Unzipped> {
  const archive = await openZip(bytes);
  const wanted: { entry: yauzl.Entry; watch: Watch }[] = [];
  const seen: string[] = [];
  let declared = 0;
  try {
    // From the end of the central directory, before a single entry is read.
    if (archive.entryCount > MAX_ZIP_ENTRIES) throw zipTooManyEntries(archive.entryCount);
    for await (const entry of archive.eachEntry()) {
      const path = entry.fileName;
      if (skipped(path)) continue;
      seen.push(path);
      const watch = pick(path, entry.uncompressedSize);
      if (!watch) continue;
      if (entry.isEncrypted()) throw badZip('it is password protected.');
      declared += entry.uncompressedSize;
      if (declared > MAX_ZIP_EXPANDED_BYTES) throw zipTooLarge(`expands to ${declared.toLocaleString('en')} bytes of plot files`, MAX_ZIP_EXPANDED_BYTES);
      wanted.push({ entry, watch });
    }
    if (seen.includes('[Content_Types].xml')) throw unsupportedFormat('The file is an Office document (a spreadsheet?); save the sheet as CSV.');
    const taken: Unzipped['taken'] = [];
    for (const { entry, watch } of wanted) {
      taken.push({ path: entry.fileName, bytes: await inflate(await archive.openReadStreamPromise(entry), entry.uncompressedSize, watch) });
    }
    return { seen, taken };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badZip(messageOf(error));
  } finally {
    archive.close();
  }
}

/**
 * Inflates one entry into a buffer that grows as the bytes come, counting them: a chunk that would
 * take the entry past its declared size is refused before it is kept (yauzl checks the same; this
 * count does not rest on it), so the entries together never pass the archive's bound on their
 * declared sizes. `watch` sees the bytes so far after every chunk: a part whose header already
 * breaks a bound is refused after its first chunk, not after all of it.
 */
async function inflate(stream: NodeJS.ReadableStream & { destroy(): void }, declared: number, watch: Watch): Promise<Buffer> {
  let whole = Buffer.allocUnsafe(Math.min(declared, 64 * 1024));
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (length + chunk.length > declared) throw badZip(`an entry inflates past the ${declared} bytes it declares.`);
      if (length + chunk.length > whole.length) {
        const grown = Buffer.allocUnsafe(Math.min(declared, Math.max(2 * whole.length, length + chunk.length)));
        whole.copy(grown, 0, 0, length);
        whole = grown;
      }
      chunk.copy(whole, length);
      length += chunk.length;
      watch(whole.subarray(0, length));
    }
  } finally {
    stream.destroy();
  }
  return whole.subarray(0, length);
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// A TIFF's first image directory, checked by hand before geotiff.js parses it. geotiff.js allocates each
// tag's values at the count the file declares and reads a cut header into DataView errors, so a hostile or
// damaged header is refused here, in words, before it allocates anything: the directory must lie within
// the file, and so must every tag's values.
import type { ByteSource } from './byte-source.ts';
import { SourceError } from './errors.ts';

/** Bytes of one value of each TIFF field type (TIFF 6.0 and BigTIFF), by type id; 0 for an id no version defines. */
const TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8];
/** A directory of more entries than this is no raster's header (a COG's has about twenty). */
const MAX_ENTRIES = 1024;

const count = (n: number) => n.toLocaleString('en');

export async function checkTiffHeader(src: ByteSource, signal?: AbortSignal): Promise<void> {
  const fail = (why: string) => new SourceError('invalid_tiff', `${src.name}: ${why}`, { url: src.id });
  const cutShort = (why: string) => fail(`the header is cut short: ${why}`);
  const ofFile = () => (src.size === null ? 'the file' : `the file (${count(src.size)} bytes)`);

  const head = await src.read(0, 16, signal);
  if (head.length < 8) throw cutShort(`the file holds ${head.length} bytes, a TIFF header 8 at least`);
  const order = String.fromCharCode(head[0], head[1]);
  if (order !== 'II' && order !== 'MM') throw fail('not a TIFF (it does not start with the byte order II or MM)');
  const le = order === 'II';
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const hv = view(head);
  const version = hv.getUint16(2, le);
  if (version !== 42 && version !== 43) throw fail(`not a TIFF (version ${version}; 42 or 43 for BigTIFF)`);
  const big = version === 43;
  if (big && head.length < 16) throw cutShort(`the file holds ${head.length} bytes, a BigTIFF header 16`);
  const ifd = big ? Number(hv.getBigUint64(8, le)) : hv.getUint32(4, le);

  const countBytes = big ? 8 : 2;
  const entryBytes = big ? 20 : 12;
  const inline = big ? 8 : 4;
  const counted = await src.read(ifd, countBytes, signal);
  if (counted.length < countBytes) throw cutShort(`its first image directory, at byte ${count(ifd)}, lies past the end of ${ofFile()}`);
  const entries = big ? Number(view(counted).getBigUint64(0, le)) : view(counted).getUint16(0, le);
  if (entries === 0 || entries > MAX_ENTRIES) throw fail(`its first image directory declares ${count(entries)} entries`);
  const table = await src.read(ifd + countBytes, entries * entryBytes, signal);
  if (table.length < entries * entryBytes) throw cutShort(`its first image directory declares ${entries} entries, which run past the end of ${ofFile()}`);

  const tv = view(table);
  for (let i = 0; i < entries; i++) {
    const at = i * entryBytes;
    const tag = tv.getUint16(at, le);
    const type = tv.getUint16(at + 2, le);
    const n = big ? Number(tv.getBigUint64(at + 4, le)) : tv.getUint32(at + 4, le);
    const size = TYPE_BYTES[type] ?? 0;
    if (size === 0) throw fail(`tag ${tag} has field type ${type}, which no TIFF version defines`);
    const bytes = n * size;
    if (bytes <= inline) continue;
    const offset = big ? Number(tv.getBigUint64(at + 12, le)) : tv.getUint32(at + 8, le);
    // The reads above reveal the size of a file, and of a remote file whose host states it.
    if (src.size !== null && offset + bytes > src.size) throw cutShort(`tag ${tag} declares ${count(n)} values (${count(bytes)} bytes) at byte ${count(offset)}, past the end of ${ofFile()}`);
  }
}

/**
 * Rendered map tiles kept on disk, bounded in bytes: one file per tile under its key's digest,
 * the least recently used removed first once the bound is passed. The index is held in memory
 * and rebuilt from the folder, in the order of the files' times, when the process starts, so a
 * restart keeps what was rendered.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class TileFileCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  /** File name → bytes, least recently used first (a Map keeps insertion order). */
  readonly #files = new Map<string, number>();
  #bytes = 0;
  #loaded: Promise<void> | null = null;

  constructor(dir: string, maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new TypeError(`tile cache option "maxBytes" must be a non-negative number, got ${maxBytes}`);
    this.#dir = dir;
    this.#maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      await mkdir(this.#dir, { recursive: true });
      const found = await Promise.all((await readdir(this.#dir)).filter((n) => n.endsWith('.png')).map(async (name) => {
        const s = await stat(join(this.#dir, name));
        return { name, size: s.size, at: s.mtimeMs };
      }));
      for (const f of found.sort((a, b) => a.at - b.at)) this.#add(f.name, f.size);
      await this.#evict();
    })();
    return this.#loaded;
  }

  #add(name: string, size: number): void {
    const had = this.#files.get(name);
    if (had !== undefined) this.#bytes -= had;
    this.#files.delete(name);
    this.#files.set(name, size);
    this.#bytes += size;
  }

  async #evict(): Promise<void> {
    for (const [name, size] of this.#files) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#files.delete(name);
      this.#bytes -= size;
      await unlink(join(this.#dir, name)).catch(() => {});
    }
  }

  static fileName(key: string): string {
    return `${createHash('sha256').update(key).digest('hex')}.png`;
  }

  async get(key: string): Promise<Buffer | null> {
    await this.#load();
    const name = TileFileCache.fileName(key);
    const size = this.#files.get(name);
    if (size === undefined) return null;
    try {
      const path = join(this.#dir, name);
      const bytes = await readFile(path);
      this.#add(name, size);
      // The file's time is its place in the order when the index is rebuilt at the next start.
      const now = new Date();
      await utimes(path, now, now).catch(() => {});
      return bytes;
    } catch {
      // Removed behind the index's back: no longer held.
      this.#files.delete(name);
      this.#bytes -= size;
      return null;
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.#maxBytes) return;
    await this.#load();
    const name = TileFileCache.fileName(key);
    const path = join(this.#dir, name);
    // Written aside and renamed, so a reader never meets half a file.
    const partial = `${path}.${process.pid}.part`;
    await writeFile(partial, bytes);
    await rename(partial, path);
    this.#add(name, bytes.byteLength);
    await this.#evict();
  }
}

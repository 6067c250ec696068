// One rule maps a real archive address onto a mirror of it: `https://<host>/<path>?<query>`
// becomes `<root>/<host>/<path>/<query as a path segment>`. The demo generator writes its
// files at the mirrored paths and the adapters read through the same rule, so both always
// agree, whether the root is a folder (`file:`) or the local archive server (`http:`).
import type { ArchiveLocation } from './provenance.ts';

/** The mirror path of a real URL, relative to an archive root (forward slashes). */
export function mirrorPath(realUrl: string): string {
  const u = new URL(realUrl);
  const path = `${u.hostname}${decodeURIComponent(u.pathname)}`.replace(/\/+$/, '');
  if (u.search === '') return path;
  // A query names a file on the real host (download scripts, bucket listings); on a mirror it
  // becomes the last path segment, with any slash inside a value flattened so it stays one segment.
  const segment = [...u.searchParams].map(([k, v]) => `${k}=${v.replaceAll('/', '_')}`).join('&');
  return `${path}/${segment}`;
}

/**
 * The address to read a real URL at: itself on the real hosts, its mirror under a root. An API
 * (`api: true`) keeps its query string, as the mirror answers it with a handler, not a file.
 */
export function archiveUrl(realUrl: string, where: ArchiveLocation, opts: { api?: boolean } = {}): string {
  if (where.root === undefined) return realUrl;
  const root = where.root.replace(/\/+$/, '');
  if (opts.api) {
    const u = new URL(realUrl);
    return `${root}/${u.hostname}${u.pathname}${u.search}`;
  }
  return `${root}/${mirrorPath(realUrl)}`;
}

/** True when reads go to the real hosts (signing, API keys and rate limits apply there only). */
export function isPublic(where: ArchiveLocation): boolean {
  return where.root === undefined;
}

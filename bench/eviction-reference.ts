/**
 * References for the decoded-tile cache's re-decodes, replayed over the tiles a job asked for, in
 * the order it asked: least-recently-used eviction within a bound (what the cache does, less the
 * plots in flight's holds), and farthest-next-use eviction (Belady's MIN: let go of the tile asked
 * for again last, knowing every later request), which no cache that reads plots in this order can
 * beat by much. Where the cache's figure sits near the second, a better eviction cannot help and
 * only another read order can; where it sits far above, eviction can.
 */

export interface AskedTile {
  key: string;
  bytes: number;
}

/** Decodes a least-recently-used cache of `capacity` bytes makes over `asked`. */
export function lruDecodes(asked: readonly AskedTile[], capacity: number): number {
  const kept = new Map<string, number>();
  let used = 0;
  let decodes = 0;
  for (const { key, bytes } of asked) {
    if (kept.delete(key)) {
      kept.set(key, bytes);
      continue;
    }
    decodes++;
    for (const [old, b] of kept) {
      if (used + bytes <= capacity) break;
      kept.delete(old);
      used -= b;
    }
    kept.set(key, bytes);
    used += bytes;
  }
  return decodes;
}

/** Decodes a cache of `capacity` bytes makes over `asked` when it lets go of the tile whose next request is farthest (never asked again: farthest of all). */
export function farthestNextUseDecodes(asked: readonly AskedTile[], capacity: number): number {
  const never = asked.length;
  const next = new Int32Array(asked.length);
  const seen = new Map<string, number>();
  for (let i = asked.length - 1; i >= 0; i--) {
    next[i] = seen.get(asked[i].key) ?? never;
    seen.set(asked[i].key, i);
  }
  // Kept tiles with their next request; the heap holds (next request, key) pairs, stale ones skipped when popped.
  const kept = new Map<string, { next: number; bytes: number }>();
  const heap = new MaxHeap();
  let used = 0;
  let decodes = 0;
  asked.forEach(({ key, bytes }, i) => {
    const tile = kept.get(key);
    if (tile !== undefined) tile.next = next[i];
    else {
      decodes++;
      while (used + bytes > capacity && kept.size > 0) {
        const top = heap.pop()!;
        const old = kept.get(top.key);
        if (old === undefined || old.next !== top.next) continue;
        kept.delete(top.key);
        used -= old.bytes;
      }
      kept.set(key, { next: next[i], bytes });
      used += bytes;
    }
    heap.push({ next: next[i], key });
  });
  return decodes;
}

/** A binary max-heap of (next request, key) by next request. */
class MaxHeap {
  readonly #items: Array<{ next: number; key: string }> = [];

  push(item: { next: number; key: string }): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (a[up].next >= a[i].next) break;
      [a[up], a[i]] = [a[i], a[up]];
      i = up;
    }
  }

  pop(): { next: number; key: string } | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let big = i;
      if (l < a.length && a[l].next > a[big].next) big = l;
      if (r < a.length && a[r].next > a[big].next) big = r;
      if (big === i) break;
      [a[big], a[i]] = [a[i], a[big]];
      i = big;
    }
    return top;
  }
}

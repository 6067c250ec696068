// What every product adapter hands back beside its values: where they came from and on
// what terms, so each figure in an evidence object can name its source.

export interface Provenance {
  /** The producer's dataset name or collection id. */
  dataset: string;
  /** Version, processing baseline or release the values were read from. */
  version: string;
  /** The tile, scene or item that was read; null for answers of an API that has no tiles. */
  tile: string | null;
  licence: string;
  attribution: string;
  citation: string;
  /** True when the values come from the generated demo world, never from the real archive. */
  synthetic: boolean;
}

export interface Sourced<T> {
  value: T;
  provenance: Provenance;
}

/** Where an adapter reads: the real hosts, or a mirror of their paths under one root. */
export interface ArchiveLocation {
  /**
   * Absent: the real hosts of data-products.md. Present: a `file:` URL or an http(s) base under
   * which each real host is a folder (`<root>/<host>/<path>`), as the demo archive and the
   * local archive server lay it out.
   */
  root?: string;
  /** The root holds the generated demo world; every provenance then says `synthetic: true`. */
  synthetic?: boolean;
}

export function withSynthetic(p: Omit<Provenance, 'synthetic'>, where: ArchiveLocation): Provenance {
  return { ...p, synthetic: where.synthetic === true };
}

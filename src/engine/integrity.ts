import { createHash } from 'node:crypto';
import { signDigest, type SigningKey } from './signing.ts';

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, no whitespace, numbers in
 * ECMAScript shortest form and strings escaped as JSON.stringify does, which is what the RFC specifies.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`RFC 8785 has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`RFC 8785 has no form for a ${typeof value}`);
}

export interface Integrity {
  canonicalization: 'RFC8785';
  digest: string;
  signature: string;
  key_id: string;
}

/**
 * The integrity block of a signed object: SHA-256 of its canonical JSON, and the Ed25519 signature
 * of that digest. The evidence object and each archive reading are sealed alike, under the same key.
 */
export function seal(value: unknown, key: SigningKey): Integrity {
  const digest = createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
  return { canonicalization: 'RFC8785', digest, signature: signDigest(key, digest), key_id: key.keyId };
}

/**
 * The digest that ties evidence to its boundary: SHA-256 (lower-case hex) of the GeoJSON geometry's
 * RFC 8785 form. The same boundary gives the same digest whatever its key order or whitespace.
 */
export function boundaryDigest(geometry: unknown): string {
  return createHash('sha256').update(canonicalJson(geometry), 'utf8').digest('hex');
}

/** The wrapper's integrity block over the evidence object. */
export const sealEvidence = (evidence: unknown, key: SigningKey): Integrity => seal(evidence, key);

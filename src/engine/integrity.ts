import { createHash } from 'node:crypto';
import { signDigest, type SigningKey } from './signing.ts';

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, no whitespace, numbers in
 * ECMAScript shortest form and strings escaped as JSON.stringify does, which is what the RFC specifies.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`RFC 8785 has no form for ${value}`);
      // ECMAScript's Number::toString, which JSON.stringify writes too (-0 as 0).
      return String(value);
    case 'object': {
      // Written with loops and one string: every evidence object is sealed on the main thread.
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (value[i] === undefined ? 'null' : canonicalJson(value[i]));
        return `${out}]`;
      }
      const o = value as Record<string, unknown>;
      // Array.prototype.sort compares strings by UTF-16 code units, as RFC 8785 orders keys.
      const keys = Object.keys(o).sort();
      let out = '{';
      for (const k of keys) {
        const v = o[k];
        if (v === undefined) continue;
        out += `${out.length === 1 ? '' : ','}${JSON.stringify(k)}:${canonicalJson(v)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`RFC 8785 has no form for a ${typeof value}`);
  }
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

/**
 * An auditor's check of a stored evidence answer, without the service: the digest recomputed from the
 * object (RFC 8785, SHA-256), the Ed25519 signature over it checked with the service's published key,
 * and, given a boundary, that it is the one the evidence was read on (the signed `boundary.digest`).
 */
import { createHash, createPublicKey } from 'node:crypto';
import { boundaryDigest, canonicalJson } from './integrity.ts';
import { verifyDigest } from './signing.ts';

export interface VerifyCheck {
  check: 'digest' | 'signature' | 'key' | 'boundary';
  ok: boolean;
  said: string;
}

/** The key id the service names its key by: the first 16 hex digits of the SHA-256 of the public key's DER. */
function keyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

/** A boundary file's geometry: a bare geometry, a Feature, or a FeatureCollection of one feature. */
export function boundaryGeometryOf(file: unknown): unknown {
  const doc = file as { type?: string; geometry?: unknown; features?: Array<{ geometry?: unknown }> };
  if (doc?.type === 'Feature') return doc.geometry;
  if (doc?.type === 'FeatureCollection') {
    if (doc.features?.length !== 1) throw new Error(`the boundary file holds ${doc.features?.length ?? 0} features; give the one plot the evidence is about`);
    return doc.features[0].geometry;
  }
  return doc;
}

export function verifyEvidence(answer: Record<string, unknown>, publicKeyPem: string, boundaryFile?: unknown): VerifyCheck[] {
  const integrity = answer.integrity as { digest?: string; signature?: string; key_id?: string } | undefined;
  if (!integrity?.digest || !integrity.signature) throw new Error('the file carries no integrity block: give the answer of GET /api/v1/portal/plots/{id}/evidence as it was served');
  const signed = answer.evidence as { boundary?: { digest?: string } } | undefined;
  if (signed === undefined) throw new Error('the file carries no evidence object: give the answer of GET /api/v1/portal/plots/{id}/evidence as it was served');
  const digest = createHash('sha256').update(canonicalJson(signed), 'utf8').digest('hex');
  const checks: VerifyCheck[] = [
    digest === integrity.digest
      ? { check: 'digest', ok: true, said: `the evidence hashes to the digest it carries (${digest})` }
      : { check: 'digest', ok: false, said: `the evidence has been altered: it hashes to ${digest}, not to the digest ${integrity.digest} that was signed` },
    verifyDigest(publicKeyPem, integrity.digest, integrity.signature)
      ? { check: 'signature', ok: true, said: 'the signature over the digest is the service\'s (Ed25519, the published key)' }
      : { check: 'signature', ok: false, said: 'the signature does not verify with the published key' },
  ];
  const keyId = keyIdOf(publicKeyPem);
  if (integrity.key_id !== undefined && integrity.key_id !== keyId) checks.push({ check: 'key', ok: false, said: `the evidence names key ${integrity.key_id}, the key given is ${keyId}` });
  if (boundaryFile !== undefined) {
    const boundary = signed.boundary;
    if (boundary?.digest === undefined) {
      checks.push({ check: 'boundary', ok: false, said: 'the evidence was issued before boundaries were signed with it: it names no boundary to compare' });
    } else {
      const given = boundaryDigest(boundaryGeometryOf(boundaryFile));
      checks.push(given === boundary.digest
        ? { check: 'boundary', ok: true, said: `the boundary given is the one read (SHA-256 ${given})` }
        : { check: 'boundary', ok: false, said: `the boundary given is not the one read: it hashes to ${given}, the evidence was read on ${boundary.digest}` });
    }
  }
  return checks;
}

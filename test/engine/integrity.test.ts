import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson, sealEvidence } from '../../src/engine/integrity.ts';
import { loadSigningKey, verifyDigest } from '../../src/engine/signing.ts';

describe('evidence integrity', () => {
  test('canonical JSON follows RFC 8785: sorted keys by UTF-16 units, no whitespace, shortest numbers', () => {
    assert.equal(canonicalJson({ b: 1, a: [true, null, 'x'], '\u20ac': 1, '\r': 2, 'ö': 3 }), '{"\\r":2,"a":[true,null,"x"],"b":1,"ö":3,"€":1}');
    assert.equal(canonicalJson({ n: 1e21, m: 0.1 + 0.2, z: -0, e: 1e-7 }), '{"e":1e-7,"m":0.30000000000000004,"n":1e+21,"z":0}');
    assert.equal(canonicalJson({ a: { d: 1, c: undefined } }), '{"a":{"d":1}}');
    assert.throws(() => canonicalJson({ x: Number.NaN }), TypeError);
  });

  test('the digest is the hex SHA-256 of the canonical form, and the signature verifies with the public key', () => {
    const key = loadSigningKey(null, fs.mkdtempSync(path.join(os.tmpdir(), 'pce-key-')));
    const evidence = { verdict: 'prior_management_evidenced', seasons: [{ season: 2019, depth: 0.21 }], aoi_name: 'P-1' };
    const seal = sealEvidence(evidence, key);
    assert.equal(seal.digest, createHash('sha256').update(canonicalJson(evidence)).digest('hex'));
    assert.match(seal.digest, /^[0-9a-f]{64}$/);
    assert.equal(seal.key_id, key.keyId);
    assert.ok(verifyDigest(key.publicKeyPem, seal.digest, seal.signature));
  });

  test('one changed byte of the object or of the signature fails verification', () => {
    const key = loadSigningKey(null, fs.mkdtempSync(path.join(os.tmpdir(), 'pce-key-')));
    const seal = sealEvidence({ finding: 'established', depth: 0.21 }, key);
    const altered = sealEvidence({ finding: 'established', depth: 0.22 }, key);
    assert.notEqual(altered.digest, seal.digest);
    assert.ok(!verifyDigest(key.publicKeyPem, altered.digest, seal.signature));
    const sig = Buffer.from(seal.signature, 'base64');
    sig[0] ^= 1;
    assert.ok(!verifyDigest(key.publicKeyPem, seal.digest, sig.toString('base64')));
  });

  test('the generated key is kept: a restart signs with the same key id', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-key-'));
    assert.equal(loadSigningKey(null, dir).keyId, loadSigningKey(null, dir).keyId);
  });
});

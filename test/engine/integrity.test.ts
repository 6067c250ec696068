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

  test('keys a JavaScript object lists first (array indices), a "__proto__" key and odd values are written as RFC 8785 says', () => {
    assert.equal(canonicalJson({ 10: 'a', 9: 'b', x: 1, 2: 'c' }), '{"10":"a","2":"c","9":"b","x":1}');
    assert.equal(canonicalJson(JSON.parse('{"__proto__":{"b":1,"a":2},"z":0}')), '{"__proto__":{"a":2,"b":1},"z":0}');
    assert.equal(canonicalJson({ at: new Date(0) }), '{"at":{}}', 'no toJSON: the Date\'s own keys, none');
    assert.equal(canonicalJson([undefined, 1, -0, 1e21, '\u2028']), '[null,1,0,1e+21,"\u2028"]');
    assert.throws(() => canonicalJson({ f: () => 1 }), TypeError);
    assert.throws(() => canonicalJson(undefined), TypeError);
    assert.throws(() => canonicalJson({ n: 10n }), TypeError);
  });

  test('on many random values the canonical form parses back to the value, its keys in UTF-16 order at every level', () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const keys = ['a', 'B', 'ä', '€', '\ud83d\ude00', '\uff61', '\r', '0', '1', '10', '9', '01', '-1', '__proto__', ''];
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? pick(['n', 's', 'b', 'z']) : pick(['n', 's', 'b', 'z', 'o', 'o', 'a']);
      if (kind === 'n') return pick([0, 1, -1.5, 1e21, 1e-7, 0.1 + 0.2, 2 ** 53, Math.floor(rand() * 1e6) / 7]);
      if (kind === 's') return pick(['', 'x', 'é', '"', '\\', '\u2028', '\ud800']);
      if (kind === 'b') return rand() < 0.5;
      if (kind === 'z') return null;
      if (kind === 'a') return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let k = Math.floor(rand() * 5); k > 0; k--) Object.defineProperty(o, pick(keys), { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      return o;
    };
    // Keys in order by UTF-16 code units at every level of the text, read with a reviver that sees them in text order.
    const inOrder = (text: string) => {
      JSON.parse(text, function (this: unknown) {
        if (this !== null && typeof this === 'object' && !Array.isArray(this)) {
          const ks = Object.keys(this).filter((k) => !/^(0|[1-9][0-9]*)$/.test(k));
          for (let i = 1; i < ks.length; i++) assert.ok(ks[i - 1] < ks[i], `${ks[i - 1]} before ${ks[i]}`);
        }
        return arguments[1];
      });
    };
    for (let i = 0; i < 2000; i++) {
      const v = value(0);
      const text = canonicalJson(v);
      assert.deepEqual(JSON.parse(text), v);
      assert.equal(canonicalJson(JSON.parse(text)), text);
      inOrder(text);
    }
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

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The service's Ed25519 evidence key: from SIGNING_KEY, else generated once under the data directory. */
export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKeyPem: string;
}

export function loadSigningKey(pem: string | null, dataDir: string): SigningKey {
  let privatePem = pem;
  if (!privatePem) {
    const file = path.join(dataDir, 'keys', 'evidence-signing.pem');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const { privateKey } = generateKeyPairSync('ed25519');
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    }
    privatePem = fs.readFileSync(file, 'utf8');
  }
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('SIGNING_KEY: expected an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  // The key id is the first 16 hex digits of the SHA-256 of the public key's DER, so it names this key and no other.
  const keyId = `ed25519:${createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16)}`;
  return { keyId, privateKey, publicKeyPem };
}

/** Base64 Ed25519 signature of the digest's bytes (spec: the signature covers the lower-case hex digest decoded to bytes). */
export function signDigest(key: SigningKey, digestHex: string): string {
  return sign(null, Buffer.from(digestHex, 'hex'), key.privateKey).toString('base64');
}

export function verifyDigest(publicKeyPem: string, digestHex: string, signatureB64: string): boolean {
  return verify(null, Buffer.from(digestHex, 'hex'), createPublicKey(publicKeyPem), Buffer.from(signatureB64, 'base64'));
}

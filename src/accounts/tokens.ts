import { createHash, randomBytes } from 'node:crypto';

/** Secrets are stored only as their SHA-256; they carry 192 random bits, so a fast hash is enough. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** How anyone checks a stored evidence object's digest and signature without this service's help: one text for the PDF and the portal. */

/** `objectSource` says where the signed object is fetched, e.g. `the "evidence" member of GET <url>`. */
export function verificationSteps(objectSource: string, publicKeyUrl: string): string[] {
  return [
    `Take the evidence object: ${objectSource} (this document is rendered from that same stored object).`,
    'Canonicalise it with RFC 8785 (JSON Canonicalization Scheme) and compute the SHA-256 of the UTF-8 bytes. Its lower-case hex must equal the digest above.',
    `Fetch the public key from GET ${publicKeyUrl} (no key needed) and check that its key_id is the one above.`,
    'Verify the Ed25519 signature (base64 above) over the 32 bytes of the digest (the hex decoded to bytes, not the hex text).',
  ];
}

export const OPENSSL_NOTE = 'With OpenSSL 3, once the digest is checked, and the signature and the public key saved as sig.b64 and key.pem:';

export function opensslCommands(digest: string): string {
  return `printf '%s' ${digest} | xxd -r -p > digest.bin\nbase64 -d sig.b64 > sig.bin\nopenssl pkeyutl -verify -pubin -inkey key.pem -rawin -in digest.bin -sigfile sig.bin`;
}

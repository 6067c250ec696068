/** The content digest and signature of the stored evidence, and how anyone checks them without this service's help. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceWrapper } from '../../engine/evidence-store.ts';
import type { EvidenceSubject } from '../evidence-pdf.ts';
import { code, facts, heading, para } from '../layout.ts';

/** Where the signed object is fetched: a register plot's wrapper, or another subject's answer less the members it adds. */
function objectSource(wrapper: EvidenceWrapper, baseUrl: string, subject: EvidenceSubject | undefined): string {
  if (subject === undefined) return `the "evidence" member of GET ${baseUrl}/portal/plots/${wrapper.plot_id}/evidence`;
  return `GET ${baseUrl}${subject.path} without its members ${subject.addedKeys.map((k) => `"${k}"`).join(' and ')}`;
}

export function integritySection(wrapper: EvidenceWrapper, baseUrl: string, subject?: EvidenceSubject): Content[] {
  const i = wrapper.integrity;
  const keyUrl = `${baseUrl}/evidence/public-key`;
  const steps = [
    `Take the evidence object: ${objectSource(wrapper, baseUrl, subject)} (this document is rendered from that same stored object).`,
    'Canonicalise it with RFC 8785 (JSON Canonicalization Scheme) and compute the SHA-256 of the UTF-8 bytes. Its lower-case hex must equal the digest above.',
    `Fetch the public key from GET ${keyUrl} (no key needed) and check that its key_id is the one above.`,
    'Verify the Ed25519 signature (base64 above) over the 32 bytes of the digest (the hex decoded to bytes, not the hex text).',
  ];
  return [
    heading('Integrity: how to check this document'),
    facts([
      ['Canonicalisation', i.canonicalization],
      ['Content digest (SHA-256)', code(i.digest)],
      // 88 characters: small enough to stay on one line, so it copies whole.
      ['Signature (Ed25519, base64)', { text: i.signature, style: 'code', fontSize: 6.5 }],
      ['Signing key id', code(i.key_id)],
    ]),
    { ol: steps.map((s) => ({ text: s, style: 'body' })), margin: [0, 0, 0, 4] },
    para('With OpenSSL 3, once the digest is checked, and the signature and the public key saved as sig.b64 and key.pem:', { style: 'small' }),
    {
      text: `printf '%s' ${i.digest} | xxd -r -p > digest.bin\nbase64 -d sig.b64 > sig.bin\nopenssl pkeyutl -verify -pubin -inkey key.pem -rawin -in digest.bin -sigfile sig.bin`,
      style: 'code',
      fontSize: 7,
      margin: [8, 2, 0, 6],
    },
  ];
}

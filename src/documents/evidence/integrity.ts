/** The content digest and signature of the stored evidence, and how anyone checks them without this service's help. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceWrapper } from '../../reading-service/evidence-store.ts';
import type { EvidenceSubject } from '../evidence-pdf.ts';
import { code, facts, heading, para } from '../layout.ts';
import { OPENSSL_NOTE, opensslCommands, verificationSteps } from '../verification.ts';

/** Where the signed object is fetched: a register plot's wrapper, or another subject's answer less the members it adds. */
function objectSource(wrapper: EvidenceWrapper, baseUrl: string, subject: EvidenceSubject | undefined): string {
  if (subject === undefined) return `the "evidence" member of GET ${baseUrl}/portal/plots/${wrapper.plot_id}/evidence`;
  return `GET ${baseUrl}${subject.path} without its members ${subject.addedKeys.map((k) => `"${k}"`).join(' and ')}`;
}

export function integritySection(wrapper: EvidenceWrapper, baseUrl: string, subject?: EvidenceSubject): Content[] {
  const i = wrapper.integrity;
  const keyUrl = `${baseUrl}/evidence/public-key`;
  const steps = verificationSteps(objectSource(wrapper, baseUrl, subject), keyUrl);
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
    para(OPENSSL_NOTE, { style: 'small' }),
    {
      text: opensslCommands(i.digest),
      style: 'code',
      fontSize: 7,
      margin: [8, 2, 0, 6],
    },
  ];
}

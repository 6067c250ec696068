/**
 * The archive review, on a page of its own: the dated reading of a sub-metre archive scene filed
 * with this evidence, what it supports, and its own digest and signature. Nothing when no reading
 * is on record. It says plainly that the satellite verdict and its signature are unchanged.
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceWrapper } from '../../reading-service/evidence-store.ts';
import { code, facts, heading, para, share, subheading } from '../layout.ts';

const OBSERVED: Record<string, string> = {
  cultivated: 'cultivated',
  forest: 'forest',
  cleared: 'cleared ground',
  unclear: 'unclear: the scene does not show what the ground was',
};

export function archiveReviewSection(wrapper: EvidenceWrapper, baseUrl: string): Content[] {
  const review = wrapper.archive_review;
  if (review === null) return [];
  const r = review.reading;
  const i = review.integrity;
  const supports = r.supports_pre_cutoff_cultivation
    ? `The reading supports cultivation before the cutoff: the scene is dated on or before ${r.cutoff}, shows the plot cultivated and covers the whole plot. The plot's state reads "Cultivated on the archive scene date".`
    : `The reading does not support cultivation before the cutoff: that needs a scene dated on or before ${r.cutoff}, showing the plot cultivated and covering the whole plot.`;
  return [
    { text: '', pageBreak: 'before' },
    heading('Archive review: a dated reading of a sub-metre scene'),
    para(
      'A reviewer read an archive scene of this plot at sub-metre resolution and filed the statement below with this evidence. The imagery itself is not supplied. ' +
        'The reading is signed on its own: it does not change the satellite verdict, the evidence object or its signature.',
    ),
    facts([
      ['Scene', code(r.scene_id)],
      ['Provider', r.provider],
      ['Acquired on', r.acquired_on],
      ['What the scene shows on the plot', OBSERVED[r.observed] ?? r.observed],
      ['Share of the plot the scene covers', share(r.plot_share)],
      ['Reviewer', r.reviewer],
      ['Filed', r.filed_at],
      ['Reading id', code(r.id)],
    ]),
    subheading('Statement'),
    para(r.statement, { italics: true }),
    subheading('What it supports'),
    para(supports),
    subheading('Checking the reading'),
    facts([
      ['Filed with the evidence of digest', code(r.evidence_digest)],
      ['Reading digest (SHA-256)', code(i.digest)],
      ['Signature (Ed25519, base64)', { text: i.signature, style: 'code', fontSize: 6.5 }],
      ['Signing key id', code(i.key_id)],
    ]),
    para(
      `Take the "archive_review.reading" member of GET ${baseUrl}/portal/plots/${wrapper.plot_id}/evidence, canonicalise it with RFC 8785 and take its SHA-256: ` +
        'it must equal the reading digest above. Then verify the signature over the digest\'s 32 bytes with the same public key and steps as the evidence.',
      { style: 'small' },
    ),
  ];
}

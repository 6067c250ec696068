/**
 * The compliance document of a studio boundary (spec 4.6 `format=compliance`): written for a
 * competent authority or an auditor. Its cover names the operator, the plot reference and the
 * commodity the caller gives, with the answer in plain words and the digest that ties every page
 * to the signed object; the evidence document follows it, rendered from the same stored object.
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { evidenceDocument, type EvidenceDocumentInput, type EvidenceDocumentOptions } from './evidence-pdf.ts';
import { footprintPicture, type FootprintPicture } from './footprint-map.ts';
import { code, facts, para } from './layout.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from './meanings.ts';
import { renderPdf } from './pdf.ts';

/** The cover's fields as the caller gives them; one left out is printed as not given. */
export interface ComplianceCover {
  operator: string | null;
  plot_ref: string | null;
  commodity: string | null;
}

export interface ComplianceDocumentInput extends EvidenceDocumentInput {
  cover: ComplianceCover;
  /** The sensors behind the answer and the state of the Landsat half, as the JSON route serves them. */
  read: { sensors: string[]; landsat: string };
}

export const NOT_GIVEN = 'not given';

function coverPage(input: ComplianceDocumentInput): Content[] {
  const { wrapper, cover } = input;
  const e = wrapper.evidence;
  const verdict = VERDICT_MEANINGS[e.verdict];
  return [
    { text: 'Evidence for due diligence under Regulation (EU) 2023/1115', style: 'title' },
    { text: 'Land use before the cutoff of 31 December 2020, prepared for a competent authority or an auditor.', style: 'subtitle' },
    facts([
      ['Operator', cover.operator ?? NOT_GIVEN],
      ['Plot reference', cover.plot_ref ?? NOT_GIVEN],
      ['Commodity', cover.commodity ?? NOT_GIVEN],
      ['Boundary', `${e.aoi_name || 'no name given'} (studio boundary ${wrapper.plot_id})`],
      ['Area', `${(e.plot_area_km2 * 100).toLocaleString('en', { maximumFractionDigits: 2 })} ha`],
      ['Issued', e.issued],
      ['Answer', `${verdict.title} (${e.verdict})`],
      ['Reasons', e.reasons.map((r) => `${r}: ${REASON_MEANINGS[r] ?? 'a code this document does not know'}`).join('\n')],
      ['Finding', e.finding],
      ['Next step', e.next_step === null ? 'none: a positive finding' : `${e.next_step.code}: ${e.next_step.note}`],
      ['Read from', `${input.read.sensors.join(', ')}; the Landsat half is ${input.read.landsat}`],
      ['SHA-256 of the evidence', code(wrapper.integrity.digest)],
    ], 130),
    para(verdict.meaning),
    para(
      'The operator, plot reference and commodity above are given by the party that requested this document and are not read from the satellite record. ' +
        'The pages that follow are the evidence document of the boundary, rendered from the same signed evidence object; its digest and signature close it.',
      { pageBreak: 'after' },
    ),
  ];
}

export function complianceDocument(input: ComplianceDocumentInput, picture: FootprintPicture | null, options: EvidenceDocumentOptions): TDocumentDefinitions {
  const evidence = evidenceDocument(input, picture, options);
  const ref = input.cover.plot_ref ?? input.wrapper.evidence.aoi_name;
  return {
    ...evidence,
    info: { ...evidence.info, title: `Evidence for due diligence: ${ref}` },
    content: [...coverPage(input), ...(evidence.content as Content[])],
  };
}

export async function compliancePdf(input: ComplianceDocumentInput, options: EvidenceDocumentOptions): Promise<Buffer> {
  const picture = input.map === null ? null : await footprintPicture(input.map);
  return renderPdf(complianceDocument(input, picture, options));
}

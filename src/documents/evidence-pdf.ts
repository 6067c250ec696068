/**
 * The evidence document (spec 1, capability 3; 4.3): a PDF rendered from the stored evidence
 * wrapper and nothing else, so it cannot disagree with the JSON. Beside the wrapper it takes only
 * what the JSON does not carry: the register's commodity and the map stored with the evidence.
 * The same wrapper gives the same bytes: the PDF's dates are the issue time.
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { EvidenceWrapper } from '../reading-service/evidence-store.ts';
import { archiveReviewSection } from './evidence/archive-review.ts';
import { boundarySection } from './evidence/boundary.ts';
import { calibrationSection } from './evidence/calibration.ts';
import { commodityScopeSection } from './evidence/commodity-scope.ts';
import { contextSection } from './evidence/context.ts';
import { headlineSection } from './evidence/headline.ts';
import { instrumentsSection } from './evidence/instruments.ts';
import { integritySection } from './evidence/integrity.ts';
import { limitationsSection } from './evidence/limitations.ts';
import { partsSection } from './evidence/parts.ts';
import { plotSection, referenceText, type PlotRegisterFacts } from './evidence/plot.ts';
import { recordSection } from './evidence/record.ts';
import { scenesSection } from './evidence/scenes.ts';
import { verdictSection } from './evidence/verdict.ts';
import { footprintPicture, type EvidenceMap, type FootprintPicture } from './footprint-map.ts';
import { keepHeadingsWithNext, PAGE, STYLES } from './layout.ts';
import { renderPdf } from './pdf.ts';

export type { PlotRegisterFacts } from './evidence/plot.ts';

/**
 * What the evidence is about when it is not a register plot (a studio boundary): the noun the
 * document names it by, and where its signed object is fetched (a path below the base URL, and the
 * members to remove from that answer to get the object that was signed).
 */
export interface EvidenceSubject {
  noun: string;
  path: string;
  addedKeys: string[];
}

export interface EvidenceDocumentInput {
  /** A register plot unless given. */
  subject?: EvidenceSubject;
  wrapper: EvidenceWrapper;
  register: PlotRegisterFacts;
  /** Stored beside the evidence; null when nothing was stored. */
  map: EvidenceMap | null;
}

export interface EvidenceDocumentOptions {
  /** The service's base URL (ending /api/v1), for the verification routes. */
  baseUrl: string;
}

/** The synthetic label, on every page when the evidence came from the demo archive. */
export function syntheticLabel(wrapper: EvidenceWrapper): string | null {
  const e = wrapper.evidence;
  if (!e.synthetic) return null;
  return `SYNTHETIC DEMO DATA: ${e.synthetic_note ?? 'read from the generated demo archive, not from observations.'}`;
}

function header(wrapper: EvidenceWrapper, noun: string) {
  const synthetic = syntheticLabel(wrapper);
  const ref = referenceText(wrapper);
  return (): Content => ({
    margin: [PAGE.margins[0], 16, PAGE.margins[2], 0],
    stack: [
      {
        columns: [
          { text: `Evidence of land use before the EUDR cutoff · ${ref}`, style: 'small' },
          { text: `${noun} ${wrapper.plot_id}`, style: 'small', alignment: 'right', width: 'auto' },
        ],
      },
      synthetic === null
        ? { text: '' }
        : {
            table: { widths: ['*'], body: [[{ text: synthetic, style: 'synthetic', fillColor: '#b71c1c', margin: [4, 2, 4, 2] }]] },
            layout: 'noBorders',
            margin: [0, 4, 0, 0],
          },
    ],
  });
}

function footer(wrapper: EvidenceWrapper) {
  return (page: number, pages: number): Content => ({
    margin: [PAGE.margins[0], 14, PAGE.margins[2], 0],
    columns: [
      { text: [{ text: 'SHA-256 ', style: 'small' }, { text: wrapper.integrity.digest, style: 'code', fontSize: 6.5 }] },
      { text: `page ${page} of ${pages}`, style: 'small', alignment: 'right', width: 'auto' },
    ],
  });
}

export function evidenceDocument(input: EvidenceDocumentInput, picture: FootprintPicture | null, options: EvidenceDocumentOptions): TDocumentDefinitions {
  const { wrapper } = input;
  const e = wrapper.evidence;
  const issued = new Date(e.issued);
  const noun = input.subject?.noun ?? 'plot';
  return {
    pageSize: PAGE.size,
    pageMargins: PAGE.margins,
    info: {
      title: `Evidence of land use before the EUDR cutoff: ${referenceText(wrapper)}`,
      subject: `${noun[0].toUpperCase()}${noun.slice(1)} ${wrapper.plot_id}; verdict ${e.verdict}; SHA-256 ${wrapper.integrity.digest}`,
      author: 'Pre-cutoff land-use evidence service',
      creator: 'Pre-cutoff land-use evidence service',
      creationDate: issued,
      modDate: issued,
    },
    header: header(wrapper, noun),
    footer: footer(wrapper),
    defaultStyle: { font: 'Roboto', fontSize: 8.5 },
    styles: STYLES,
    content: keepHeadingsWithNext([
      { text: 'Evidence of land use before the EUDR cutoff', style: 'title' },
      {
        text: `Cutoff 31 December 2020 (Regulation (EU) 2023/1115). Rendered from the stored evidence object whose digest and signature close this document; the JSON evidence and this document cannot disagree.`,
        style: 'subtitle',
      },
      ...headlineSection(e),
      ...plotSection(wrapper, input.register, picture, noun),
      ...boundarySection(e),
      ...verdictSection(e),
      ...commodityScopeSection(e, input.register.commodity),
      ...partsSection(e),
      ...recordSection(e),
      ...instrumentsSection(e),
      ...contextSection(e),
      ...calibrationSection(e),
      ...limitationsSection(e),
      ...integritySection(wrapper, options.baseUrl, input.subject),
      ...scenesSection(e, picture),
      ...archiveReviewSection(wrapper, options.baseUrl),
    ]),
  };
}

export async function evidencePdf(input: EvidenceDocumentInput, options: EvidenceDocumentOptions): Promise<Buffer> {
  const picture = input.map === null ? null : await footprintPicture(input.map);
  return renderPdf(evidenceDocument(input, picture, options));
}

/** What page 1 says before anything else: moist forest lost after the cutoff, as a banner (it changes no verdict). */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { postCutoffLossHeadline, type PostCutoffLossFigures } from '../meanings.ts';

export function headlineSection(e: EvidenceObject): Content[] {
  if (e.post_cutoff_loss === null) return [];
  const loss = e.post_cutoff_loss as unknown as PostCutoffLossFigures;
  return [{
    table: {
      widths: ['*'],
      body: [[{
        stack: [
          { text: postCutoffLossHeadline(loss), bold: true, fontSize: 10 },
          { text: 'The Landsat moist-forest record dates this loss after the cutoff. It changes no verdict below; goods from land deforested after the cutoff may not be placed on the EU market, so establish what happened here before filing.', style: 'small', color: '#5d1a1a' },
        ],
        fillColor: '#fdecea',
        margin: [6, 4, 6, 4],
      }]],
    },
    layout: 'noBorders',
    margin: [0, 0, 0, 10],
  }];
}

/** The verdict, the reason and every reason with its plain meaning, the finding sentence and the next step. */
import type { Content } from 'pdfmake/interfaces.js';
import type { Verdict } from '../../engine/decide.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { code, grid, heading, para, subheading } from '../layout.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from '../meanings.ts';

const VERDICT_COLOURS: Record<Verdict, string> = {
  prior_management_evidenced: '#1b5e20',
  prior_management_weak: '#8d6e00',
  no_prior_management_evidenced: '#6d4c41',
  insufficient_record: '#455a64',
};

export function verdictSection(e: EvidenceObject): Content[] {
  const verdict = VERDICT_MEANINGS[e.verdict];
  const rows = e.reasons.map((r, i) => [
    { text: i === 0 ? 'reason' : '', style: 'cell', bold: true },
    { text: r, style: 'code', fontSize: 7 },
    { text: REASON_MEANINGS[r] ?? 'A code this document does not know.', style: 'cell' },
  ]);
  return [
    heading('Verdict'),
    {
      table: {
        widths: ['*'],
        body: [
          [
            {
              stack: [
                { text: verdict.title, style: 'verdict', color: VERDICT_COLOURS[e.verdict] },
                { text: e.verdict, style: 'code', margin: [0, 1, 0, 3] },
                { text: verdict.meaning, style: 'body' },
              ],
              margin: [6, 5, 6, 5],
            },
          ],
        ],
      },
      layout: { hLineWidth: () => 1.2, vLineWidth: () => 1.2, hLineColor: () => VERDICT_COLOURS[e.verdict], vLineColor: () => VERDICT_COLOURS[e.verdict] },
      margin: [0, 0, 0, 8],
    },
    subheading('Finding'),
    para(e.finding, { italics: true }),
    subheading('Reasons, in the order the rules place them'),
    // The longest code (45 characters) fits its column on one line, so it reads and copies whole.
    grid(['', 'code', 'what it means'], rows, [34, 196, '*']),
    para(
      'The first code is the plot\'s reason, as on its register row. A context block that withheld a positive reading is named before the ' +
        'instruments\' reason; the evidence floor is named after it.',
      { style: 'small' },
    ),
    subheading('Next step'),
    e.next_step === null
      ? para('None: a positive finding needs no further step from this service.')
      : { stack: [code(e.next_step.code), para(e.next_step.note, { margin: [0, 2, 0, 4] })] },
  ];
}

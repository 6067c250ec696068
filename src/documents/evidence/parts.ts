/** The parts of a multi-part plot, each read and decided on its own, and the rule that gives the plot its answer. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { grid, heading, para } from '../layout.ts';

export function partsSection(e: EvidenceObject): Content[] {
  if (e.parts === undefined || e.parts.length < 2) return [];
  const rows = e.parts.map((p) => [
    String(p.part),
    `${p.area_ha.toFixed(2)} ha`,
    { text: [p.verdict, ...p.reasons].join('\n'), style: 'code', fontSize: 6.5 },
    p.read ? `${p.pixels} px, ${p.seasons_observed} seasons` : 'not read',
    { text: p.finding, style: 'cell' },
  ]);
  return [
    heading('Parts'),
    para(
      `The plot was uploaded in ${e.parts.length} parts. Each was read on its own, on the archives' tiles under it, and decided on its own; ` +
        'the evidence floor applies to each part. The plot takes the answer of its most cautious part, so it carries a positive finding only when ' +
        'every part does; the record, instruments and context in this document are that part\'s.',
    ),
    grid(['part', 'area', 'verdict and reasons', 'read', 'finding'], rows, [24, 46, 150, 70, '*']),
  ];
}

/** Where the decision margins behind the verdict were measured (spec 2.8.1), and what that means for this plot. */
import type { Content } from 'pdfmake/interfaces.js';
import type { CalibrationState } from '../../engine/context/calibration.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { facts, heading, para, show } from '../layout.ts';

const STATE_WORDS: Record<CalibrationState, string> = {
  validated: 'validated: a control campaign has run in this region; its counts and date are below',
  in_campaign: 'in campaign: a control campaign is under way in this region; no accuracy is quoted yet',
  reads: 'reads: the archives cover this ground, but the decision margins were measured elsewhere; no accuracy is quoted for this region',
};

export function calibrationSection(e: EvidenceObject): Content[] {
  const c = e.calibration;
  const rows: Array<[string, string]> = [
    ['Region', c.region ?? 'none named'],
    ['Countries', show(c.countries)],
    ['State', STATE_WORDS[c.state] ?? show(c.state)],
    ['Commodities', show(c.commodities)],
  ];
  if (c.state === 'validated') {
    rows.push(
      ['Control blocks assessed', show(c.controls)],
      ['Forest blocks reaching a positive finding', show(c.forest_cleared)],
      ...(c.forest_cleared_rerun ? [['Same, re-read at evidence-floor scale', c.forest_cleared_rerun] as [string, string]] : []),
      ['Established crop blocks reaching a filable finding', show(c.established_crop_filable)],
      ['Measured on', show(c.measured_on)],
      ['Reference map', show(c.reference_map)],
    );
  }
  return [heading('Calibration'), facts(rows), para(c.note)];
}

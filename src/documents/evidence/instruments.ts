/**
 * Each structural instrument's categorical answer with the readings behind it and, when it could
 * not answer, its refusal in words (spec 2.7 rule 1), then the terrain. Only readings are shown:
 * the decision lines they were compared with are not part of the evidence (spec 2.7 rule 2).
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { answer, facts, heading, measure, para, show, subheading } from '../layout.ts';

const refusalRow = (refusal: string | null | undefined): Array<[string, string]> => (refusal ? [['Could not answer because', refusal]] : []);

export function instrumentsSection(e: EvidenceObject): Content[] {
  const { structure: s, radar: r, height: h, terrain: t } = e;
  const terrainWords =
    t.outside_characterised_range === null
      ? 'not measured'
      : t.outside_characterised_range
        ? 'yes: steeper than the ground the instruments were characterised on'
        : 'no: within the range the instruments were characterised on';
  return [
    heading('Structural readings'),
    para('Three instruments read the canopy\'s structure independently of the seasonal cycle. Each gives a categorical answer: forest-like, not forest-like, or no answer.'),
    subheading('Shade at the seasonal trough (optical)', 'structure'),
    facts([
      ['Answer', answer(s.forest_like)],
      ['Layer', s.layer],
      ['Shade fraction at the troughs', show(s.shade_at_trough)],
      ['Aerosol optical thickness at the troughs', show(s.aot_at_trough)],
      ['Troughs read through clear air', show(s.seasons_matched)],
      ['Withheld for dust or haze', show(s.withheld_for_dust)],
      ...refusalRow(s.refusal),
    ]),
    subheading('L-band radar against the forest around the plot', 'radar'),
    facts([
      ['Answer', answer(r.forest_like)],
      ['Instrument', r.instrument],
      ['Tile / mirror', `${show(r.tile)} / ${show(r.mirror)}`],
      ['Years read', show(r.years_read)],
      ['Plot minus local forest (HV)', measure(r.plot_minus_local_forest_db, 'dB')],
      ['Local forest baseline (HV)', measure(r.local_forest_baseline_db, 'dB')],
      ['Spread of the forest baseline (σ)', measure(r.sigma_db, 'dB')],
      ['HH over HV', measure(r.hh_hv_db, 'dB')],
      ...refusalRow(r.refusal),
    ]),
    subheading('Canopy height', 'height'),
    facts([
      ['Answer', answer(h.forest_like)],
      ['Instrument', h.instrument],
      ['Tile', show(h.tile)],
      ['Median height', measure(h.median_m, 'm', 1)],
      ['10th / 90th percentile', `${measure(h.p10_m, 'm', 1)} / ${measure(h.p90_m, 'm', 1)}`],
      ['Pixels read', show(h.pixels)],
      ...refusalRow(h.refusal),
    ]),
    subheading('Terrain', 'terrain'),
    facts([
      ['Mean slope', measure(t.mean_slope_deg, '°', 1)],
      ['Outside the characterised range', terrainWords],
      ['Source', t.source],
    ]),
  ];
}

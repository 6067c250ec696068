/**
 * Each structural instrument's categorical answer with the readings behind it and, when it could
 * not answer, its refusal in words (spec 2.7 rule 1), then the terrain. Only readings are shown:
 * the decision lines they were compared with are not part of the evidence (spec 2.7 rule 2).
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceBlocks, EvidenceObject } from '../../engine/evidence-object.ts';
import { answer, coverageRow, facts, heading, measure, para, share, show, subheading } from '../layout.ts';

const refusalRow = (refusal: string | null | undefined): Array<[string, string]> => (refusal ? [['Could not answer because', refusal]] : []);

/** The instrument's confidence and its sub-plot blocks; absent from objects issued before blocks were read. */
function blockRows(confident: boolean | undefined, b: EvidenceBlocks | null | undefined): Array<[string, string]> {
  if (confident === undefined) return [];
  const part = b === null || b === undefined
    ? show(null)
    : `${b.forest_like_ha > 0 ? `${show(b.forest_like_ha, 2)} ha (${share(b.forest_like_share)}) ${b.forest_like_where ?? ''}` : 'none'}; ${b.blocks_read} of ${b.blocks} blocks of ${b.cell_m} m answered`;
  return [['Clear of its line by its margin', show(confident)], ['Forest-like part of the plot (sub-plot blocks)', part]];
}

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
    para('Three instruments read the canopy\'s structure, each over the whole plot and block by block, so that a forest part is not averaged away. Each gives a categorical answer: forest-like, not forest-like, or no answer. Radar and canopy height are independent of the seasonal cycle, and a positive finding needs one of them to read a crop by its margin. Shade is read at the trough scenes of the same optical record as the cycle: it can withhold a finding when it reads forest-like, but it never confirms one.'),
    subheading('Shade at the seasonal trough (optical)', 'structure'),
    facts([
      ['Answer', answer(s.forest_like)],
      ['Layer', s.layer],
      ['Shade fraction at the troughs', show(s.shade_at_trough)],
      ['Aerosol optical thickness at the troughs', show(s.aot_at_trough)],
      ['Troughs read through clear air', show(s.seasons_matched)],
      ['Withheld for dust or haze', show(s.withheld_for_dust)],
      ...blockRows(s.confident, s.blocks),
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
      ...coverageRow(r.coverage),
      ...blockRows(r.confident, r.blocks),
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
      ...coverageRow(h.coverage),
      ...blockRows(h.confident, h.blocks),
      ...refusalRow(h.refusal),
    ]),
    subheading('Terrain', 'terrain'),
    facts([
      ['Mean slope', measure(t.mean_slope_deg, '°', 1)],
      ['Outside the characterised range', terrainWords],
      ['Source', t.source],
      ...coverageRow(t.coverage),
    ]),
  ];
}

/**
 * The plain meaning of every verdict (spec 2.9) and reason code (spec 2.10), for a reader who has
 * the document and not the API. The one table of them: documents and summaries import it.
 */
import type { ReasonCode, Verdict } from '../engine/decide.ts';

export interface VerdictMeaning {
  /** A short heading. */
  title: string;
  meaning: string;
}

export const VERDICT_MEANINGS: Record<Verdict, VerdictMeaning> = {
  prior_management_evidenced: {
    title: 'Established plantation before the cutoff',
    meaning:
      'The satellite record and the structural readings agree that the plot was an established, managed ' +
      'plantation before 31 December 2020.',
  },
  prior_management_weak: {
    title: 'Withheld: supporting evidence only',
    meaning:
      'No positive finding is issued. What was read is supporting evidence only; the reasons below say what ' +
      'withheld the finding. The plot goes on to a planting record, a title document or a field visit, with ' +
      'these reasons attached.',
  },
  no_prior_management_evidenced: {
    title: 'No prior management evidenced',
    meaning:
      'A well-observed record shows no annual canopy cycle, so it gives no evidence that the plot was managed ' +
      'as a plantation before the cutoff.',
  },
  insufficient_record: {
    title: 'Insufficient record',
    meaning:
      'Too few dry seasons before the cutoff could be measured to answer either way. The seasons without an ' +
      'answer are listed with the seasonal record.',
  },
};

export const REASON_MEANINGS: Record<ReasonCode, string> = {
  cycle_and_structure_agree:
    'Every measured dry season showed the canopy thinning and recovering (the wintering of a plantation), and ' +
    'the structural readings agree that the canopy is a crop.',
  structure_confirmed_single_trough:
    'The record verified one seasonal thinning, and radar or canopy height, both independent of that record, ' +
    'confidently reads a crop rather than forest over the whole plot.',
  shade_veto_overruled_by_two_confident_readings:
    'The canopy kept forest-like shade at its seasonal low, but radar and canopy height both confidently read ' +
    'a crop, and together they outweigh it.',
  shade_veto_overruled_by_structure_and_record:
    'The canopy kept forest-like shade at its seasonal low, but radar or canopy height confidently reads a ' +
    'crop, and the Landsat record dates the clearing of most of the plot to 2015 or earlier, with no moist ' +
    'forest or regrowth at the cutoff.',
  shade_veto_overruled_by_structure_and_eu_maps:
    'The canopy kept forest-like shade at its seasonal low, but radar or canopy height confidently reads a ' +
    'crop, and both Commission 2020 maps put at most a tenth of the plot in forest.',
  structural_reading_says_forest:
    'A structural instrument (shade at the seasonal low, radar or canopy height) reads the canopy, or a part of ' +
    'the plot over half a hectare or a tenth of it, as forest-like, so the seasonal cycle alone cannot carry a finding.',
  cycle_not_consistent:
    'Some measured dry seasons showed the seasonal thinning of a plantation and others did not, or the ' +
    'thinning fell at different times of year.',
  no_structural_reading:
    'Neither radar nor canopy height could answer, so nothing independent of the optical record confirms what ' +
    'the seasonal cycle suggests (shade is read at the same trough scenes, so it cannot confirm it).',
  single_structural_reading_short_of_margin:
    'Radar or canopy height was read, but neither reads a crop by the margin a finding needs (a canopy height ' +
    'between the crop and forest lines gives no answer).',
  terrain_outside_characterised_range:
    'The ground is steeper than the ground the instruments were characterised on, so their readings are not ' +
    'relied on here.',
  evergreen_canopy_unsupported:
    'There is no seasonal cycle, but a structural reading or the radar\'s polarisation says the canopy is ' +
    'cultivated: an evergreen crop that the seasonal method cannot confirm.',
  no_canopy_cycle: 'A well-observed record shows no annual canopy cycle.',
  record_too_thin: 'Too few dry seasons before the cutoff could be measured, mostly for cloud or gaps in the archive.',
  plot_below_evidence_floor:
    'The plot is under the 4 ha evidence floor (or is a point with no declared area, not shown to reach it): no ' +
    'positive finding is issued at this size, whatever the instruments read; their reason is listed beside this one.',
  inside_licensed_pulpwood_concession:
    'The plot intersects a licensed pulpwood concession on the Indonesian concession layer, so a positive ' +
    'reading is withheld; the instruments\' reason follows.',
  concession_layer_unavailable:
    'The plot is on Indonesian ground and the pulpwood concession layer could not be read, so a positive ' +
    'reading is withheld until the check can be made (run the plot again).',
  landsat_record_reads_undisturbed_forest:
    'The Landsat moist-forest record classes most of the plot as undisturbed moist forest at the end of 2020, ' +
    'so a positive reading is withheld.',
  landsat_record_unavailable:
    'On ground in Indonesia or Malaysia the Landsat moist-forest record could not be read, so a positive ' +
    'reading is withheld.',
  planted_forest_2020:
    'The Commission\'s 2020 forest-type map classes most of the plot as planted forest, so a positive reading ' +
    'is withheld; the instruments\' reason follows.',
  eu_forest_maps_read_forest:
    'The Commission\'s 2020 forest maps class at least half of the plot as forest; no positive finding is ' +
    'issued against them from the satellite record alone.',
  record_covers_part_of_plot:
    'The optical record (Sentinel-2 and Landsat) had data for less than 95% of the plot, so the rest of the ' +
    'plot was not read and a positive reading is withheld.',
  ground_not_shown_uniform:
    'A positive finding speaks for every part of the plot, and the instruments did not show that it is one crop ' +
    'throughout: a part over half a hectare or a tenth of the plot reads unlike the rest on the seasonal dip, ' +
    'canopy height, radar or shade, or the record is too short to test every part of the plot for the dip. ' +
    'Such a part may be forest the rest of the plot is not, so a positive reading is withheld.',
  surroundings_show_the_same_dip:
    'The ground around the plot thinned at the same time of year and as deeply as the plot did, as a deciduous ' +
    'forest around a deciduous crop does: the dip is then the season\'s, not evidence of how the plot was ' +
    'managed, so a positive reading is withheld.',
};

/**
 * Loss of moist forest after the cutoff (spec 2.8.4 rule 4) as a headline, said where the user looks:
 * the register, the plot page, page 1 of the evidence PDF, the shipment report and a statement's
 * warnings. It changes no verdict. The portal fills the same template (meanings.json): {share} as a
 * whole percentage, {area_ha} as stored, {years} joined by ", ".
 */
export const POST_CUTOFF_LOSS_HEADLINE = 'Moist forest on {share} of this plot ({area_ha} ha) was lost in {years}: the EUDR cutoff is 31 December 2020';

/** The figures of the evidence's `post_cutoff_loss` the headline names. */
export interface PostCutoffLossFigures {
  share: number;
  area_ha: number;
  years: readonly number[];
}

export function postCutoffLossHeadline(loss: PostCutoffLossFigures): string {
  return POST_CUTOFF_LOSS_HEADLINE
    .replace('{share}', `${Math.round(loss.share * 100)}%`)
    .replace('{area_ha}', String(loss.area_ha))
    .replace('{years}', loss.years.join(', '));
}

/**
 * What a positive finding needs for each commodity, and what this record can and cannot show for it
 * (spec 2.9–2.10): one line each, said on the plot page and in the evidence PDF. The method evidences
 * a seasonal canopy cycle; an evergreen crop keeps its canopy through the dry season, so it cannot
 * reach a positive finding from this record, by design.
 */
export const COMMODITY_SCOPES = {
  rubber: 'Rubber can reach a positive finding: the trees shed their leaves each dry season (wintering), and a finding needs that cycle in phase in the record before 2021 with radar or canopy height reading crop, not forest.',
  cocoa: 'Cocoa cannot reach a positive finding from this record: it keeps its canopy all year, so there is no seasonal cycle to evidence, and the read ends without one (evergreen_canopy_unsupported, or withheld by a context block) by design. Evidence it otherwise: planting records or a title, an archive imagery review of a scene before 2021, or a field visit.',
  coffee: 'Coffee cannot reach a positive finding from this record: it keeps its canopy all year, so there is no seasonal cycle to evidence, and the read ends without one (evergreen_canopy_unsupported, or withheld by a context block) by design. Evidence it otherwise: planting records or a title, an archive imagery review of a scene before 2021, or a field visit.',
  oil_palm: 'Oil palm cannot reach a positive finding from this record: it keeps its canopy all year, so there is no seasonal cycle to evidence, and the read ends without one (evergreen_canopy_unsupported, or withheld by a context block) by design. The oil palm map\'s planting by 2020 and the Landsat record\'s clearing before 2021, where shown, are supporting context for planting records, an archive imagery review or a field visit, never a verdict.',
  wood: 'Plantation wood reaches a positive finding only where its species sheds leaves in the dry season (teak, for one); evergreen plantations (acacia, eucalyptus, pine) are read as the evergreen crops are and end without one. Evidence them with planting or concession records, an archive imagery review or a field visit.',
  soya: 'Soya is read as any plot is: a positive finding needs a seasonal cycle in phase each year before 2021 with radar or canopy height reading crop, not forest. The method was built for tree crops; no campaign has measured it on soya fields.',
  cattle: 'Cattle land is read as any plot is: a positive finding needs a seasonal cycle in phase each year before 2021 with radar or canopy height reading crop, not forest. The method was built for tree crops; no campaign has measured it on pasture.',
} as const;
export type ScopedCommodity = keyof typeof COMMODITY_SCOPES;

/** Register spellings of a commodity that name one of the seven by another word. */
export const COMMODITY_ALIASES: Record<string, ScopedCommodity> = { palm_oil: 'oil_palm', palm: 'oil_palm', soy: 'soya', soybean: 'soya', soybeans: 'soya', timber: 'wood', cacao: 'cocoa' };

/** The line for a registered commodity ("Oil palm", "oil-palm", "palm oil"); null for one the table does not hold. */
export function commodityScope(commodity: string | null): string | null {
  if (commodity === null) return null;
  const key = commodity.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const scoped = (COMMODITY_ALIASES[key] ?? key) as ScopedCommodity;
  return COMMODITY_SCOPES[scoped] ?? null;
}

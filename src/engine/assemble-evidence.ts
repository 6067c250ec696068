/**
 * The evidence object of spec 2.7, put together from the read's plan, the plot task's readings,
 * the decision and the context blocks. Pure: the same inputs give the same object. Only readings
 * and categorical answers are carried; the decision lines and the kernels' working fields stay out
 * (spec 2.7 rule 2). Also the few facts of the object the register keeps for the plot's `state`.
 */
import { underClearLine } from './plan/clear-scenes.ts';
import type { ContextBlocks } from './context/index.ts';
import type { Decision } from './decide.ts';
import { EVIDENCE_FLOOR_KM2 } from './decide.ts';
import { bbox as bboxOf } from '@turf/turf';
import type { MultiPolygon, Point, Polygon } from 'geojson';
import type { EvidenceBlocks, EvidenceBoundary, EvidenceObject, EvidencePart, EvidenceSeason, SeriesPoint, SkippedScene } from './evidence-object.ts';
import { boundaryDigest } from './integrity.ts';
import { type FloorJudgedOn, findingSentence, forestPartClause, mapShareClause, noDipClause, unevenClause, whereInPlot } from './finding.ts';
import type { PlotFootprint } from './footprint.ts';
import type { BlockSummary } from './kernels/block-index.ts';
import type { PlotTaskResult } from './worker/tasks.ts';
import pkg from '../../package.json' with { type: 'json' };
import { nextStep } from './next-step.ts';
import { operatingPoints as op } from './operating-points.ts';
import type { EvidenceFacts, Landsat2020Class } from './plot-state.ts';
import { HEIGHT_INSTRUMENT, RADAR_INSTRUMENT, RECORD_PERIOD, SENSORS, type PlotPlan } from './plan/read-plan.ts';
import { unevenGround } from './uneven-ground.ts';

export const CUTOFF = '2020-12-31';

export const POSTURE =
  'The service reads open satellite archives and files nothing itself: the due diligence statement is filed by the caller, ' +
  'from the caller\'s own account in the EU information system, and the caller remains responsible for it.';

export const BASELINE_NOTE =
  'Each structural instrument is read against decision lines set before this read, which are not served: they move as ' +
  'control campaigns accumulate, and the calibration block says where they were measured. The radar is read against the ' +
  'forest in a ring around the plot, so its baseline is the plot\'s own neighbourhood.';

export const SYNTHETIC_NOTE =
  'Read from the generated demo archive: every scene and figure here is synthetic, drawn for a demonstration site, not observed.';

const STRUCTURE_LAYER = 'Sentinel-2 L2A shade fraction at each season\'s trough (spectral unmixing)';

/** Readings to the precision they carry; an absent reading stays null. */
const round = (v: number | null | undefined, digits: number): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits));

export interface AssembleInput {
  plan: PlotPlan;
  result: PlotTaskResult;
  decision: Decision;
  issued: Date;
  synthetic: boolean;
  /**
   * A plot read in several parts: `plan` and `result` are the part whose readings fill the blocks;
   * the area, footprint, finding and parts are the whole plot's (engine/plot-parts.ts).
   */
  whole?: { footprint: PlotFootprint; finding: string; parts: EvidencePart[] };
}

function skippedScenes(plan: PlotPlan, result: PlotTaskResult): SkippedScene[] {
  const out = [...plan.skipped];
  result.scenes.forEach((s, k) => {
    if (s.usable) return;
    const scene = plan.scenes[k];
    let why: string;
    if (s.pixels === 0) why = 'no plot pixel falls in the scene';
    else if (s.clear_pixels === 0) why = 'no clear pixel over the plot (cloud, shadow or no data)';
    else if (s.aot !== null && s.aot > op.scenes.maxAot) why = `haze or dust over the plot (mean aerosol optical thickness ${s.aot.toFixed(2)}) too thick to read its vegetation index through`;
    else if ((s.clear_fraction ?? 0) < op.scenes.minClearFraction) why = underClearLine(s.clear_fraction ?? 0);
    else why = `${s.clear_pixels} clear pixels over the plot, under the ${op.scenes.minPixels} a scene needs`;
    out.push({ scene: scene.id, at: scene.date, why });
  });
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.scene < b.scene ? -1 : 1));
}

function blocksOf(b: BlockSummary | null, cellM: number, plotHa: number): EvidenceBlocks | null {
  if (b === null) return null;
  return {
    cell_m: cellM,
    blocks: b.blocks,
    blocks_read: b.blocks_read,
    forest_like_blocks: b.forest_like_blocks,
    forest_like_ha: round(b.forest_like_ha, 2) ?? 0,
    forest_like_share: round(b.forest_like_share, 3),
    forest_like_where: b.forest_like_offset_m === null ? null : whereInPlot(b.forest_like_offset_m, plotHa),
  };
}

/** A map's forest share is named in the finding when it is above a tenth, even where it withholds nothing. */
const MAP_SHARE_NAMED = 0.1;

/** What lies under the finding: each instrument's forest-like part and each map's forest share (finding.ts words them). */
function partsOf(result: PlotTaskResult, blocks: Record<'structure' | 'radar' | 'height' | 'dips', EvidenceBlocks | null>): string[] {
  const parts: string[] = [];
  const d = blocks.dips;
  if (!result.troughs.phase_locked && result.troughs.dip_blocks !== null && d !== null && d.forest_like_where !== null && d.forest_like_share !== null && d.forest_like_share < 1) {
    parts.push(noDipClause(d.forest_like_ha, d.forest_like_share, d.forest_like_where));
  }
  const instruments = [['shade at the trough', result.structure.forest_like, blocks.structure], ['radar', result.radar?.forest_like, blocks.radar], ['canopy height', result.height?.forest_like, blocks.height]] as const;
  for (const [name, forestLike, b] of instruments) {
    if (forestLike !== true || b === null || b.forest_like_share === null || b.forest_like_where === null) continue;
    parts.push(forestPartClause(name, b.forest_like_ha, b.forest_like_share, b.forest_like_where));
  }
  const { forest_types: ft, history: h } = result.context.blocks;
  if (ft.available && ft.not_forest !== null && 1 - ft.not_forest > MAP_SHARE_NAMED) {
    parts.push(mapShareClause('the Commission\'s 2020 forest maps put', 1 - ft.not_forest, 'forest'));
  }
  if (h.available && h.checked && (h.moist_forest_2020_share ?? 0) > MAP_SHARE_NAMED) {
    parts.push(mapShareClause('the Landsat record puts', h.moist_forest_2020_share as number, 'moist forest at the end of 2020'));
  }
  return parts;
}

function instrumentBlocksOf(result: PlotTaskResult, plotHa: number): Record<'structure' | 'radar' | 'height' | 'dips', EvidenceBlocks | null> {
  return {
    structure: blocksOf(result.structure.blocks, op.blocks.fineCellM, plotHa),
    radar: blocksOf(result.radar?.blocks ?? null, op.blocks.radarCellM, plotHa),
    height: blocksOf(result.height?.blocks ?? null, op.blocks.fineCellM, plotHa),
    dips: blocksOf(result.troughs.dip_blocks, op.blocks.dipCellM, plotHa),
  };
}

/** The finding of one read as it stands on its own: a plot's, or one part's of a multi-part plot (`plotHa` the area read). */
export function readFinding(result: PlotTaskResult, decision: Decision, plotHa: number, floorOn: FloorJudgedOn): string {
  const t = result.troughs;
  const uneven = unevenGround(result, op.blocks.forestPart).map((u) => unevenClause(u.instrument, u.patch.ha, u.patch.share, whereInPlot(u.patch.offset_m, plotHa)));
  const counts = {
    measured: t.seasons_observed, dipped: t.seasons_with_dip, seasons: t.seasons.length, opticalCoverage: result.coverage.optical, floorOn,
    uneven, shortRecord: t.cycle === 'troughs_short_of_record', ring: { seen: result.ring.seasons_seen, same: result.ring.seasons_same },
  };
  return findingSentence(decision, counts, partsOf(result, instrumentBlocksOf(result, plotHa)));
}

/**
 * The boundary the plot was read on, as the register stores it: the uploaded one, or the declared
 * point with the circle drawn around it. Its digest ties the signed object to one polygon.
 */
function evidenceBoundary(read: PlotFootprint, stored: Point | Polygon | MultiPolygon): EvidenceBoundary {
  const geometry = read.drawn ? stored : read.footprint;
  const [w, s, e, n] = bboxOf(read.footprint);
  return {
    geometry,
    drawn: read.drawn ? (read.footprint as Polygon) : null,
    digest: boundaryDigest(geometry),
    centroid: read.centroid,
    bbox: [w, s, e, n],
    area_ha: Number(read.areaHa.toFixed(4)),
  };
}

/** Each kept scene's index and clear share over the plot, in the order of `scenes`. */
function seriesOf(plan: PlotPlan, result: PlotTaskResult): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  plan.scenes.forEach((s, k) => {
    const r = result.scenes[k];
    if (r.usable) out.push({ scene: s.id, at: s.date, index: round(r.ndvi, 3), clear_share: round(r.clear_fraction, 3) });
  });
  return out;
}

export function assembleEvidence(input: AssembleInput): EvidenceObject {
  const { plan, result, decision } = input;
  const t = result.troughs;
  const kept = plan.scenes.filter((_, k) => result.scenes[k].usable);
  const blocks = result.context.blocks;
  const seasons: EvidenceSeason[] = t.seasons.map((s) => ({
    season: s.season,
    label: s.label,
    observations: s.observations,
    plateau: round(s.plateau, 3),
    trough: round(s.trough, 3),
    trough_date: s.trough_date,
    depth: round(s.depth, 3),
    dipped: s.dipped,
    no_answer: s.no_answer,
    truncated: s.truncated,
    last_observed: s.last_observed,
  }));
  const { structure: st, radar: ra, height: he, terrain: te } = result;
  const footprint = input.whole?.footprint ?? plan.footprint;
  const plotAreaKm2 = Number((footprint.areaHa / 100).toFixed(6));
  // The blocks are the read part's: on a multi-part plot, its own area.
  const plotHa = plan.footprint.areaHa;
  const instrumentBlocks = instrumentBlocksOf(result, plotHa);
  const evidence: EvidenceObject = {
    // A plot registered without a reference has none: its id is said elsewhere, never passed off as one.
    aoi_name: plan.plot.ref ?? '',
    engine_version: pkg.version,
    operating_points_version: op.version,
    cutoff: CUTOFF,
    issued: input.issued.toISOString(),
    plot_area_km2: plotAreaKm2,
    evidence_floor_km2: EVIDENCE_FLOOR_KM2,
    calibration: plan.calibration,
    risk: blocks.risk,
    settlement: blocks.settlement,
    history: blocks.history,
    footprint: footprint.sentence,
    boundary: evidenceBoundary(footprint, plan.plot.geometry),
    read: {
      pixels: result.pixels,
      pitch_m: round(result.pitch_m, 1) ?? 10,
      scenes_searched: plan.searched['sentinel-2'] + plan.searched.landsat,
      scenes_kept: kept.length,
      min_clear_fraction: op.scenes.minClearFraction,
      min_pixels: op.scenes.minPixels,
      start: RECORD_PERIOD.start,
      end: RECORD_PERIOD.end,
      sensors: (Object.keys(SENSORS) as Array<keyof typeof SENSORS>).filter((s) => plan.searched[s] > 0).map((s) => SENSORS[s]),
      landsat: { scenes_kept: kept.filter((s) => s.sensor === 'landsat').length },
      coverage: result.coverage.optical,
    },
    verdict: decision.verdict,
    reason: decision.reason,
    reasons: decision.reasons,
    finding: input.whole?.finding ?? readFinding(result, decision, plotHa, footprint.areaKnown ? 'plot' : 'point_without_area'),
    seasons,
    seasons_observed: t.seasons_observed,
    seasons_with_dip: t.seasons_with_dip,
    phase_locked: t.phase_locked,
    dip_blocks: instrumentBlocks.dips,
    phase_sd_days: round(t.phase_sd_days, 1),
    mean_depth: round(t.mean_depth, 3),
    seasons_without_answer: t.seasons_without_answer,
    structure: {
      layer: STRUCTURE_LAYER,
      shade_at_trough: round(st.shade_at_trough, 3),
      seasons_matched: st.seasons_matched,
      forest_like: st.forest_like,
      confident: st.confident,
      blocks: instrumentBlocks.structure,
      aot_at_trough: round(st.aot_at_trough, 3),
      withheld_for_dust: st.withheld_for_dust,
      refusal: st.refusal,
    },
    radar: {
      instrument: RADAR_INSTRUMENT,
      tile: plan.radar.tile,
      mirror: plan.radar.mirror,
      years_read: plan.radar.years,
      plot_minus_local_forest_db: round(ra?.plot_minus_local_forest_db, 2),
      local_forest_baseline_db: round(ra?.local_forest_baseline_db, 2),
      sigma_db: round(ra?.sigma_db, 2),
      hh_hv_db: round(ra?.hh_hv_db, 2),
      forest_like: ra?.forest_like ?? null,
      confident: ra?.confident ?? false,
      blocks: instrumentBlocks.radar,
      refusal: ra === null ? plan.radar.refusal : ra.refusal,
      coverage: result.coverage.radar,
    },
    height: {
      instrument: HEIGHT_INSTRUMENT,
      tile: plan.height.tile,
      median_m: round(he?.median_m, 1),
      p10_m: round(he?.p10_m, 1),
      p90_m: round(he?.p90_m, 1),
      pixels: he?.pixels ?? 0,
      forest_like: he?.forest_like ?? null,
      confident: he?.confident ?? false,
      blocks: instrumentBlocks.height,
      refusal: he === null ? plan.height.refusal : he.refusal,
      coverage: result.coverage.height,
    },
    terrain: {
      mean_slope_deg: round(te?.mean_slope_deg, 1),
      source: plan.terrain.source,
      outside_characterised_range: te?.outside_characterised_range ?? null,
      coverage: result.coverage.terrain,
    },
    scenes: kept.map((s) => s.id),
    skipped: skippedScenes(plan, result),
    series: seriesOf(plan, result),
    posture: POSTURE,
    baseline_note: BASELINE_NOTE,
    next_step: nextStep({ evidence_state: 'done', verdict: decision.verdict, reasons: decision.reasons, area_ha: footprint.areaHa }),
    post_cutoff_loss: blocks.post_cutoff_loss,
    forest_types: blocks.forest_types,
    commodity_maps: blocks.commodity_maps,
    whisp: blocks.whisp,
    ...(blocks.concession === undefined ? {} : { concession: blocks.concession }),
    ...(input.whole === undefined ? {} : { parts: input.whole.parts }),
    synthetic: input.synthetic,
    ...(input.synthetic ? { synthetic_note: SYNTHETIC_NOTE } : {}),
  };
  return evidence;
}

const MOST = 0.5;

/**
 * The Landsat record's class of the plot at the end of 2020, from the history block (null: not
 * read). A plot with a forest part on a structural instrument's blocks is never "cleared": most of
 * it may have been, not all of it.
 */
function landsat2020(h: ContextBlocks['history'], forestPart: number | null): Landsat2020Class | null {
  if (!h.available) return null;
  if (!h.checked) return 'not_covered';
  const c = h.classes_2020;
  if (c === null) return null;
  if ((c.undisturbed_forest ?? 0) >= MOST) return 'undisturbed_forest';
  if ((c.degraded_forest ?? 0) >= MOST) return 'degraded_forest';
  if ((h.deforestation_year?.share_before_2021 ?? 0) >= MOST) return (forestPart ?? 0) > 0 ? 'mixed_cover' : 'cleared_before_2021';
  if ((h.never_moist_forest_share ?? 0) >= MOST) return 'outside_moist_forest';
  return 'mixed_cover';
}

/**
 * The largest share of the plot an instrument reads forest-like block by block, among those that
 * read the plot forest-like; 0 when blocks were read and none does, null when no blocks were read.
 */
export function forestPartShare(result: PlotTaskResult): number | null {
  let out: number | null = null;
  for (const i of [result.structure, result.radar, result.height]) {
    if (i === null || i.blocks === null) continue;
    const part = i.forest_like === true ? (i.blocks.forest_like_share ?? 0) : 0;
    out = Math.max(out ?? 0, part);
  }
  return out === null ? null : Number(out.toFixed(4));
}

/** What the register keeps of a read for the plot's `state` (engine/plot-state.ts); `forestPart` from forestPartShare(). */
export function evidenceFacts(blocks: ContextBlocks, seasonsObserved: number, forestPart: number | null): EvidenceFacts {
  const { forest_types: ft, history } = blocks;
  return {
    eu_maps_forest_share: ft.available && ft.not_forest !== null ? Number((1 - ft.not_forest).toFixed(4)) : null,
    eu_maps_planted_share: ft.available ? ft.planted : null,
    landsat_2020: landsat2020(history, forestPart),
    seasons_measured: seasonsObserved,
    forest_part_share: forestPart,
  };
}

/**
 * Multi-part plots (a MultiPolygon of several polygons) are read part by part: each part is
 * planned, computed and decided as a polygon plot of its own, on the archives' tiles under it, so
 * parts far apart are each read where they lie, one part's scenes never join another's series, and
 * the evidence floor is judged on each part's own area. The plot's answer is its most cautious
 * part's. This module owns the split, that order and the `parts` entries of the evidence object.
 */
import { readFinding } from './assemble-evidence.ts';
import { decide, type Decision, instrumentsRule, NO_CONTEXT, RULES } from './decide.ts';
import type { EvidencePart } from './evidence-object.ts';
import { type PlotFootprint, plotFootprint, polygonAreaHa } from './footprint.ts';
import type { PlotPlan, PlotToRead } from './plan/read-plan.ts';
import type { PlotTaskResult } from './worker/tasks.ts';

/** The parts a plot is read in: each polygon of a MultiPolygon as a polygon plot of its own area; any other plot whole. */
export function plotParts(plot: PlotToRead): PlotToRead[] {
  const g = plot.geometry;
  if (g.type !== 'MultiPolygon' || g.coordinates.length < 2) return [plot];
  return g.coordinates.map((rings) => ({ ...plot, geometry: { type: 'Polygon', coordinates: rings }, areaHa: polygonAreaHa(rings), declaredAreaHa: null }));
}

/** One part's answer: its own decision and finding, and what was read (null when no archive holds anything over it). */
export interface PartAnswer {
  footprint: PlotFootprint;
  decision: Decision;
  finding: string;
  read: { plan: PlotPlan; result: PlotTaskResult } | null;
  notRead: string | null;
}

export function readPartAnswer(plan: PlotPlan, result: PlotTaskResult, decision: Decision): PartAnswer {
  return { footprint: plan.footprint, decision, finding: readFinding(result, decision, plan.footprint.areaHa, 'part'), read: { plan, result }, notRead: null };
}

/**
 * A part no archive holds anything over: no season was measured on it, so the decision table's
 * first row answers it (a record too thin), and its finding says nothing was read and why.
 */
export function unreadPartAnswer(part: PlotToRead, why: string): PartAnswer {
  const footprint = plotFootprint(part.geometry, part.areaHa, part.declaredAreaHa);
  const none = { forest_like: null, confident: false } as const;
  const decision = decide({
    plot_area_km2: footprint.areaHa / 100, area_known: footprint.areaKnown, cycle: 'too_thin',
    shade: none, radar: { ...none, polarimetry_cultivated: null }, height: { ...none, between_lines: false }, terrain_outside: null, context: NO_CONTEXT,
  });
  return { footprint, decision, finding: `Nothing was read on this part: ${why}.`, read: null, notRead: why };
}

/** Withholdings of the instruments' own reading of the ground (decide.ts): as cautious as the instruments' withholding reasons. */
const INSTRUMENT_WITHHOLDINGS = new Set<string>(RULES.filter((r) => r.kind === 'withholding' && r.by === 'instruments').map((r) => r.code));

/**
 * How cautious an answer is, least first. A positive finding is the least cautious. A withheld
 * finding whose instruments read a plantation (held back by a context block or the floor) comes
 * before one the instruments withheld themselves. A refusal (too few seasons) says nothing either
 * way; no cycle over a well-observed record is the most cautious, since it is a reading against
 * prior management, where a refusal is a gap that other evidence may fill.
 */
export function caution(d: Decision): number {
  switch (d.verdict) {
    case 'prior_management_evidenced':
      return 0;
    case 'prior_management_weak':
      return instrumentsRule(d).verdict === 'prior_management_evidenced' && !d.reasons.some((r) => INSTRUMENT_WITHHOLDINGS.has(r)) ? 1 : 2;
    case 'insufficient_record':
      return 3;
    case 'no_prior_management_evidenced':
      return 4;
  }
}

/** The index of the most cautious of `parts` (the first among equals, in upload order); -1 when none. */
function mostCautious(parts: readonly PartAnswer[], among: (p: PartAnswer) => boolean = () => true): number {
  let best = -1;
  parts.forEach((p, k) => {
    if (among(p) && (best < 0 || caution(p.decision) > caution(parts[best].decision))) best = k;
  });
  return best;
}

const ha = (v: number) => `${v.toFixed(2)} ha`;
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);
const sameAnswer = (a: Decision, b: Decision) => a.verdict === b.verdict && a.reasons.join() === b.reasons.join();

export interface PlotAnswer {
  /** The plot's verdict and reasons: its most cautious part's, so a positive finding only when every part is positive. */
  decision: Decision;
  /** The part whose readings fill the object's top-level blocks: the most cautious part that was read. */
  blocks: number;
  finding: string;
  parts: EvidencePart[];
}

function partEntry(p: PartAnswer, k: number): EvidencePart {
  const r = p.read?.result;
  return {
    part: k + 1,
    area_ha: Number(p.footprint.areaHa.toFixed(4)),
    centroid: [Number(p.footprint.centroid[0].toFixed(6)), Number(p.footprint.centroid[1].toFixed(6))],
    read: p.read !== null,
    not_read: p.notRead,
    verdict: p.decision.verdict,
    reason: p.decision.reason,
    reasons: p.decision.reasons,
    pixels: r?.pixels ?? 0,
    scenes_kept: r?.scenes.filter((s) => s.usable).length ?? 0,
    seasons_observed: r?.troughs.seasons_observed ?? 0,
    tiles: { radar: p.read?.plan.radar.tile ?? null, height: p.read?.plan.height.tile ?? null },
    protected_area_intersects: r?.context.blocks.risk.protected_area.intersects ?? null,
    finding: p.finding,
  };
}

/** The answer of a plot read in several parts (at least one of them read). */
export function plotAnswer(parts: readonly PartAnswer[]): PlotAnswer {
  const n = parts.length;
  const governing = mostCautious(parts);
  const g = parts[governing];
  const label = (k: number) => `part ${k + 1} of ${n} (${ha(parts[k].footprint.areaHa)})`;
  let finding: string;
  if (parts.every((p) => sameAnswer(p.decision, g.decision))) {
    finding = `Each of the ${n} parts, read on its own, reaches the same answer; ${label(governing)} reads: ${g.finding}`;
  } else {
    const others = parts.flatMap((p, k) => (k === governing ? [] : [`${capital(label(k))}: ${p.decision.verdict} (${p.decision.reasons.join(', ')}).`]));
    finding = `Read part by part, the plot takes the answer of its most cautious part. ${capital(label(governing))}: ${g.finding} ${others.join(' ')}`;
  }
  return { decision: g.decision, blocks: mostCautious(parts, (p) => p.read !== null), finding, parts: parts.map(partEntry) };
}

/** The seasonal record: what was read, the chart of each season, and the same seasons as a table. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { coverageRow, facts, grid, heading, measure, para, show, subheading } from '../layout.ts';
import { CHART, seasonChart } from '../season-chart.ts';

/** Index values to three decimals, so the table's columns line up; a season without an answer has none. */
const index = (v: number | null) => (v === null ? '—' : v.toFixed(3));

export function recordSection(e: EvidenceObject): Content[] {
  const r = e.read;
  const chart = seasonChart({ seasons: e.seasons, scenes: e.scenes, skipped: e.skipped, series: e.series, start: r.start, end: r.end });
  const without = e.seasons_without_answer.length === 0 ? 'none' : e.seasons_without_answer.join(', ');
  return [
    heading('The seasonal record'),
    para(
      'A managed plantation of a wintering crop (rubber sheds its leaves once a year) shows a dip of its ' +
        'vegetation index in every dry season, at the same time of year; forest and evergreen crops do not. ' +
        'Each season is read from the scenes clear enough over the plot.',
    ),
    facts([
      ['Period read', `${r.start} to ${r.end}`],
      ['Sensors', show(r.sensors)],
      ['Scenes searched / kept', `${show(r.scenes_searched)} searched, ${show(r.scenes_kept)} kept (Landsat: ${show(r.landsat?.scenes_kept)} kept)`],
      ['A scene is kept when', `at least ${show(r.min_clear_fraction * 100)}% of the plot is clear and at least ${show(r.min_pixels)} clear pixels remain`],
      ['Plot pixels', `${show(r.pixels)} at ${show(r.pitch_m)} m`],
      ...coverageRow(r.coverage),
      ['Seasons measured / with a dip', `${show(e.seasons_observed)} measured, ${show(e.seasons_with_dip)} with a dip`],
      ['Troughs in phase', e.phase_sd_days === null ? `${show(e.phase_locked)} (fewer than two troughs to compare)` : `${show(e.phase_locked)} (spread of trough dates ${measure(e.phase_sd_days, 'days', 1)})`],
      ['Mean depth of the dips', e.mean_depth === null ? 'no season measured' : show(e.mean_depth)],
      ['Seasons without an answer', without],
    ]),
    { svg: chart, width: CHART.width },
    para(
      'Figure 1. Each band is one season. Green: the season\'s plateau (its green level outside the trough); red dot: ' +
        'the trough, at its date; brown bar: the depth between them. The figure draws what the evidence stores for each ' +
        'season, not a curve through every scene. Ticks along the foot are the kept scenes, crosses the skipped ones; ' +
        'all are listed in the annex.',
      { style: 'small', margin: [0, 3, 0, 6] },
    ),
    subheading('Seasons'),
    grid(
      ['season', 'window', 'scenes', 'plateau', 'trough', 'trough date', 'depth', 'dip', 'answer', 'last scene'],
      e.seasons.map((s) => [
        s.season,
        s.label + (s.truncated ? ' (cut by the period read)' : ''),
        s.observations,
        index(s.plateau),
        index(s.trough),
        s.trough_date ?? '—',
        index(s.depth),
        s.dipped,
        s.no_answer ? 'no answer' : 'answered',
        s.last_observed,
      ]),
      [30, '*', 30, 36, 36, 50, 32, 22, 44, 50],
    ),
  ];
}

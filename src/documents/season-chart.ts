/**
 * The seasonal record as an SVG chart: time across the period read, the vegetation index up. Each
 * season is drawn from what the evidence stores for it (spec 2.8.5): its plateau across its
 * window, its trough at the trough date, and the depth between them; the dates of the kept scenes
 * run along the foot and every skipped scene is marked. Where the evidence stores its `series`,
 * every kept scene's index value is a dot, so a reader sees the points each plateau and trough
 * was read from; the dots are not joined, as nothing is known between two scenes.
 */
import type { EvidenceSeason, SeriesPoint } from '../engine/evidence-object.ts';
import { sceneDate } from './scene-date.ts';

/** What the chart draws of each season of the evidence object. */
export type ChartSeason = Omit<EvidenceSeason, 'truncated' | 'last_observed'>;

export interface SeasonChartInput {
  seasons: readonly ChartSeason[];
  scenes: readonly string[];
  skipped: readonly { scene: string; at: string; why: string }[];
  /** Each kept scene's index value; absent on evidence read before it was stored. */
  series?: readonly SeriesPoint[];
  /** The period read, YYYY-MM-DD. */
  start: string;
  end: string;
}

export const CHART = { width: 515, height: 230 } as const;
const PLOT = { left: 40, right: 8, top: 22, bottom: 58 } as const;
const COLOURS = { plateau: '#2e7d32', trough: '#c62828', depth: '#6d4c41', kept: '#1565c0', scene: '#90a4ae', skipped: '#e65100', grid: '#d0d0d0', noAnswer: '#9e9e9e' };

const DAY_MS = 86_400_000;
const dayOf = (iso: string): number => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS;
const fmt = (v: number) => v.toFixed(2);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A season's window from its label ("2019-08 to 2020-07"), as day numbers; null when the label names no months. */
function windowOf(label: string): [number, number] | null {
  const m = /(\d{4})-(\d{2}).*?(\d{4})-(\d{2})/.exec(label);
  if (!m) return null;
  const from = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1) / DAY_MS;
  const to = Date.UTC(Number(m[3]), Number(m[4]), 1) / DAY_MS - 1;
  return [from, to];
}

function indexRange(seasons: readonly ChartSeason[], series: readonly SeriesPoint[]): [number, number] {
  const values = [...seasons.flatMap((s) => [s.plateau, s.trough]), ...series.map((p) => p.index)].filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return [0, 1];
  const lo = Math.max(-1, Math.floor((Math.min(...values) - 0.05) * 10) / 10);
  const hi = Math.min(1, Math.ceil((Math.max(...values) + 0.05) * 10) / 10);
  return hi > lo ? [lo, hi] : [lo, lo + 0.1];
}

export function seasonChart(input: SeasonChartInput): string {
  const { width, height } = CHART;
  const x0 = PLOT.left, x1 = width - PLOT.right, y0 = PLOT.top, y1 = height - PLOT.bottom;
  const t0 = dayOf(input.start), t1 = dayOf(input.end) + 1;
  const series = input.series ?? [];
  const [v0, v1] = indexRange(input.seasons, series);
  const x = (day: number) => x0 + ((Math.min(Math.max(day, t0), t1) - t0) / (t1 - t0)) * (x1 - x0);
  const y = (v: number) => y1 - ((v - v0) / (v1 - v0)) * (y1 - y0);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Roboto" font-size="7">`);

  // Season windows: shaded bands, each labelled with its answer.
  input.seasons.forEach((s, i) => {
    const w = windowOf(s.label);
    if (!w) return;
    const a = x(w[0]), b = x(w[1] + 1);
    const fill = s.no_answer ? '#eeeeee' : i % 2 === 0 ? '#f6f8f4' : '#ffffff';
    out.push(`<rect x="${fmt(a)}" y="${y0}" width="${fmt(b - a)}" height="${y1 - y0}" fill="${fill}"/>`);
    const answer = s.no_answer ? 'no answer' : s.dipped ? 'dip' : 'no dip';
    out.push(`<text x="${fmt((a + b) / 2)}" y="${y0 - 10}" text-anchor="middle" fill="#333">${s.season}</text>`);
    out.push(`<text x="${fmt((a + b) / 2)}" y="${y0 - 2}" text-anchor="middle" fill="${s.no_answer ? COLOURS.noAnswer : '#333'}">${answer}</text>`);
  });

  // Index grid and axis.
  for (let v = Math.ceil(v0 * 10) / 10; v <= v1 + 1e-9; v += 0.1) {
    out.push(`<line x1="${x0}" x2="${x1}" y1="${fmt(y(v))}" y2="${fmt(y(v))}" stroke="${COLOURS.grid}" stroke-width="0.4"/>`);
    out.push(`<text x="${x0 - 3}" y="${fmt(y(v) + 2.5)}" text-anchor="end" fill="#333">${v.toFixed(1)}</text>`);
  }
  out.push(`<text x="9" y="${fmt((y0 + y1) / 2)}" transform="rotate(-90 9 ${fmt((y0 + y1) / 2)})" text-anchor="middle" fill="#333">vegetation index</text>`);
  // Year ticks.
  const firstYear = new Date(t0 * DAY_MS).getUTCFullYear();
  const lastYear = new Date(t1 * DAY_MS).getUTCFullYear();
  for (let year = firstYear; year <= lastYear + 1; year++) {
    const day = Date.UTC(year, 0, 1) / DAY_MS;
    if (day < t0 || day > t1) continue;
    out.push(`<line x1="${fmt(x(day))}" x2="${fmt(x(day))}" y1="${y0}" y2="${y1 + 3}" stroke="${COLOURS.grid}" stroke-width="0.6"/>`);
    out.push(`<text x="${fmt(x(day))}" y="${y1 + 10}" text-anchor="middle" fill="#333">${year}</text>`);
  }
  out.push(`<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="none" stroke="#777" stroke-width="0.6"/>`);

  // Every kept scene's value, beneath the seasons' marks.
  for (const p of series) {
    if (p.index === null) continue;
    out.push(`<circle cx="${fmt(x(dayOf(p.at)))}" cy="${fmt(y(p.index))}" r="1.3" fill="${COLOURS.scene}"/>`);
  }

  // Each season: plateau across its window, trough at its date, depth between.
  for (const s of input.seasons) {
    const w = windowOf(s.label);
    if (!w || s.plateau === null) continue;
    const yp = y(s.plateau);
    out.push(`<line x1="${fmt(x(w[0]))}" x2="${fmt(x(w[1] + 1))}" y1="${fmt(yp)}" y2="${fmt(yp)}" stroke="${COLOURS.plateau}" stroke-width="1.4"/>`);
    if (s.trough === null || s.trough_date === null) continue;
    const xt = x(dayOf(s.trough_date)), yt = y(s.trough);
    out.push(`<line x1="${fmt(xt)}" x2="${fmt(xt)}" y1="${fmt(yp)}" y2="${fmt(yt)}" stroke="${COLOURS.depth}" stroke-width="1.2"/>`);
    out.push(`<circle cx="${fmt(xt)}" cy="${fmt(yt)}" r="2.2" fill="${COLOURS.trough}"/>`);
    if (s.depth !== null) out.push(`<text x="${fmt(xt + 3)}" y="${fmt((yp + yt) / 2 + 2.5)}" fill="${COLOURS.depth}">depth ${s.depth.toFixed(2)}</text>`);
  }

  // Kept scenes along the foot; skipped scenes as crosses beneath them.
  const rugY = y1 + 16;
  out.push(`<text x="${x0 - 3}" y="${rugY + 2}" text-anchor="end" fill="${COLOURS.kept}">kept</text>`);
  for (const id of input.scenes) {
    const date = sceneDate(id);
    if (date === null) continue;
    const xs = x(dayOf(date));
    out.push(`<line x1="${fmt(xs)}" x2="${fmt(xs)}" y1="${rugY - 3}" y2="${rugY + 3}" stroke="${COLOURS.kept}" stroke-width="0.6"/>`);
  }
  const skipY = y1 + 27;
  out.push(`<text x="${x0 - 3}" y="${skipY + 2}" text-anchor="end" fill="${COLOURS.skipped}">skipped</text>`);
  for (const s of input.skipped) {
    const date = /^\d{4}-\d{2}-\d{2}/.test(s.at) ? s.at.slice(0, 10) : sceneDate(s.scene);
    if (date === null) continue;
    const xs = x(dayOf(date));
    out.push(`<path d="M${fmt(xs - 2)},${skipY - 2}L${fmt(xs + 2)},${skipY + 2}M${fmt(xs - 2)},${skipY + 2}L${fmt(xs + 2)},${skipY - 2}" stroke="${COLOURS.skipped}" stroke-width="0.7"/>`);
  }

  // Legend.
  const ly = height - 8;
  const legend: Array<[string, string]> = [
    ...(series.length > 0 ? [[`<circle cx="6" cy="0" r="1.3" fill="${COLOURS.scene}"/>`, 'one scene'] as [string, string]] : []),
    [`<line x1="0" x2="12" y1="0" y2="0" stroke="${COLOURS.plateau}" stroke-width="1.4"/>`, 'plateau (green level of the season)'],
    [`<circle cx="6" cy="0" r="2.2" fill="${COLOURS.trough}"/>`, 'trough'],
    [`<line x1="6" x2="6" y1="-4" y2="4" stroke="${COLOURS.depth}" stroke-width="1.2"/>`, 'depth'],
    [`<line x1="6" x2="6" y1="-3" y2="3" stroke="${COLOURS.kept}" stroke-width="0.6"/>`, 'scene kept'],
    [`<path d="M4,-2L8,2M4,2L8,-2" stroke="${COLOURS.skipped}" stroke-width="0.7"/>`, 'scene skipped'],
  ];
  let lx = x0;
  for (const [mark, text] of legend) {
    out.push(`<g transform="translate(${lx} ${ly - 2.5})">${mark}</g><text x="${lx + 15}" y="${ly}" fill="#333">${esc(text)}</text>`);
    lx += 22 + text.length * 3.5;
  }
  out.push('</svg>');
  return out.join('\n');
}

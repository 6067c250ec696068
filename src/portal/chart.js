// The seasonal series as a chart (uPlot): every scene's value, kept and skipped apart, each season's
// plateau as a level line and its trough as a point.
import uPlot from '../vendor/uplot/uPlot.js';

const DAY = 86_400;
const seconds = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** "2016-08 to 2017-07" → the first and the last day of the season, in seconds. */
function seasonSpan(label) {
  const m = /^(\d{4})-(\d{2}) to (\d{4})-(\d{2})$/.exec(label ?? '');
  if (!m) return null;
  const end = Date.UTC(Number(m[3]), Number(m[4]), 0) / 1000;
  return [seconds(`${m[1]}-${m[2]}-01`), end];
}

/**
 * The scenes of a read as the chart draws them ({date, kept, ndvi}): kept scenes with their readings
 * from the evidence's own series where it carries one, else from the timeline; skipped scenes from
 * the evidence's skipped list.
 */
export function chartScenes(evidence, timelineScenes) {
  const kept = Array.isArray(evidence.series) ? evidence.series.map((p) => ({ date: p.at, kept: true, ndvi: p.index })) : timelineScenes.filter((s) => s.kept);
  return [...kept, ...(evidence.skipped ?? []).map((s) => ({ date: s.at, kept: false, ndvi: null }))];
}

/** Where skipped scenes sit: along the foot of the chart, on a scale of their own, since they have no reading. */
const SKIPPED_AT = 0.03;

/**
 * The NDVI axis runs from 0 (or the lowest reading, if below) to 1 (or the highest, if above): fitted
 * to the readings alone, a spread of a few hundredths would fill the chart's height and noise between
 * scenes would look like a seasonal dip.
 */
const ndviRange = (u, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1)];

/**
 * Draws into `container` and answers the chart; `scenes` are {date, kept, ndvi}, `seasons` the
 * evidence's (spec 2.8.5). A value missing from a series is a gap, never a zero.
 */
export function seasonChart(container, { scenes, seasons, width }) {
  const points = new Map();
  const at = (x) => {
    if (!points.has(x)) points.set(x, { kept: null, skipped: null, plateau: null, trough: null });
    return points.get(x);
  };
  for (const s of scenes) {
    if (!s.date) continue;
    if (!s.kept) at(seconds(s.date)).skipped = SKIPPED_AT;
    else if (s.ndvi !== null && s.ndvi !== undefined) at(seconds(s.date)).kept = s.ndvi;
  }
  const levels = [];
  for (const s of seasons) {
    const span = seasonSpan(s.label);
    if (span && s.plateau !== null && s.plateau !== undefined) {
      levels.push({ span, value: s.plateau });
      at(span[0]);
      at(span[1]);
      at(span[1] + DAY); // a gap, so one season's level does not run into the next
    }
    if (s.trough_date && s.trough !== null && s.trough !== undefined) at(seconds(s.trough_date)).trough = s.trough;
  }
  const xs = [...points.keys()].sort((a, b) => a - b);
  for (const x of xs) points.get(x).plateau = levels.find((l) => x >= l.span[0] && x <= l.span[1])?.value ?? null;
  const column = (k) => xs.map((x) => points.get(x)[k]);
  const dots = (stroke, fill, size) => ({ stroke, fill, paths: () => null, points: { show: true, size, stroke, fill } });
  return new uPlot(
    {
      width,
      height: 300,
      title: 'Vegetation index (NDVI) over the plot, scene by scene',
      scales: { x: { time: true }, y: { range: ndviRange }, skipped: { range: [0, 1] } },
      axes: [{}, { label: 'NDVI (0 bare, 1 dense canopy)' }],
      series: [
        { label: 'Date', value: (u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) },
        { label: 'Kept scene: the plot’s NDVI on a clear scene', ...dots('#0f6b35', '#0f6b35', 6) },
        { label: 'Skipped scene: left out of the read, no reading', scale: 'skipped', value: (u, v) => (v === null ? '—' : 'skipped'), ...dots('#6b7580', '#ffffff', 6) },
        { label: 'Season plateau: the canopy’s level that season', stroke: '#0b57a4', width: 2, spanGaps: false, points: { show: false } },
        { label: 'Season trough: the lowest point of its dry season', ...dots('#a4161a', '#a4161a', 9) },
      ],
    },
    [xs, column('kept'), column('skipped'), column('plateau'), column('trough')],
    container,
  );
}

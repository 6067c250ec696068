import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seasonChart, type ChartSeason, type SeasonChartInput } from '../../src/documents/season-chart.ts';

const season = (year: number, over: Partial<ChartSeason> = {}): ChartSeason => ({
  season: year,
  label: `${year - 1}-08 to ${year}-07`,
  observations: 18,
  plateau: 0.8,
  trough: 0.5,
  trough_date: `${year}-02-15`,
  depth: 0.3,
  dipped: true,
  no_answer: false,
  ...over,
});

function input(over: Partial<SeasonChartInput> = {}): SeasonChartInput {
  return {
    seasons: [season(2019), season(2020)],
    scenes: ['S2A_47PMQ_20190215_0_L2A', 'S2B_47PMQ_20190520_0_L2A', 'S2A_47PMQ_20200215_0_L2A'],
    skipped: [{ scene: 'S2B_47PMQ_20190601_0_L2A', at: '2019-06-01', why: 'cloud' }],
    start: '2018-08-01',
    end: '2020-12-31',
    ...over,
  };
}

const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length;
const KEPT = /stroke="#1565c0" stroke-width="0.6"/g;
const SKIPPED = /<path d="M[^"]*" stroke="#e65100"/g;

test('draws one trough with its depth for each season that dipped, at the trough date', () => {
  const svg = seasonChart(input());
  assert.match(svg, /^<svg [^>]*width="515"/);
  // The legend's dot sits at cy="0" in its own group.
  const circles = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="2.2" fill="#c62828"\/>/g)].filter((m) => m[2] !== '0');
  assert.equal(circles.length, 2);
  // A year apart on a time axis, the two troughs are a year's width apart.
  const [a, b] = circles.map((m) => Number(m[1]));
  const years = (Date.parse('2020-12-31') - Date.parse('2018-08-01')) / 86_400_000 + 1;
  const perDay = (515 - 40 - 8) / years;
  assert.ok(Math.abs(b - a - 365 * perDay) < 1, `${b - a}`);
  assert.equal(count(svg, /depth 0\.30/g), 2);
});

test('a lower trough is drawn lower', () => {
  const svg = seasonChart(input({ seasons: [season(2019, { trough: 0.6, depth: 0.2 }), season(2020, { trough: 0.4, depth: 0.4 })] }));
  const ys = [...svg.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1])).filter((y) => y !== 0);
  assert.ok(ys[1] > ys[0]);
});

test('marks every kept scene along the foot and every skipped scene with a cross', () => {
  const svg = seasonChart(input());
  assert.equal(count(svg, KEPT), 3 + 1); // the scenes, and the legend's mark
  assert.equal(count(svg, SKIPPED), 1 + 1);
});

test('a season without an answer is labelled so and draws no trough', () => {
  const svg = seasonChart(input({ seasons: [season(2019, { no_answer: true, dipped: false, plateau: null, trough: null, trough_date: null, depth: null }), season(2020)] }));
  assert.equal(count(svg, /<circle /g), 2); // one trough, and the legend's
  assert.match(svg, />no answer</);
});

test('a season read without a dip shows its plateau and says "no dip"', () => {
  const svg = seasonChart(input({ seasons: [season(2019, { dipped: false, trough: 0.78, depth: 0.02 }), season(2020)] }));
  assert.match(svg, />no dip</);
  assert.equal(count(svg, /stroke="#2e7d32" stroke-width="1.4"/g), 2 + 1);
});

test('an empty record still draws its axes and years', () => {
  const svg = seasonChart(input({ seasons: [], scenes: [], skipped: [] }));
  assert.match(svg, /vegetation index/);
  assert.match(svg, />2019</);
  assert.match(svg, /<\/svg>$/);
});

test('draws every kept scene of the series as a dot at its date and value, a higher value higher', () => {
  const series = [
    { scene: 'S2A_47PMQ_20190215_0_L2A', at: '2019-02-15', index: 0.52, clear_share: 0.9 },
    { scene: 'S2B_47PMQ_20190520_0_L2A', at: '2019-05-20', index: 0.81, clear_share: 1 },
    { scene: 'S2A_47PMQ_20200215_0_L2A', at: '2020-02-15', index: null, clear_share: 0 },
  ];
  const svg = seasonChart(input({ series }));
  const dots = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="1.3" fill="#90a4ae"\/>/g)].filter((m) => m[2] !== '0');
  // A scene without a value has no dot.
  assert.equal(dots.length, 2);
  const [first, second] = dots.map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
  assert.ok(second.x > first.x && second.y < first.y, JSON.stringify(dots.map((m) => m.slice(1))));
  assert.match(svg, /one scene/);
  assert.doesNotMatch(seasonChart(input()), /one scene/);
});

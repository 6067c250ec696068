import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALIBRATION_DEFAULTS, calibrationBlockFrom, mergeCampaign, parseCampaignFile } from '../../../src/engine/context/calibration.ts';
import {
  applyCampaign,
  clopperPearson,
  type ControlBlock,
  formatTable,
  parseControls,
  readControls,
  runCampaign,
  tallyCovers,
  writeCampaign,
} from '../../../src/engine/context/campaign.ts';
import type { Verdict } from '../../../src/engine/decide.ts';

const square = (lon: number, lat: number) => ({ type: 'Polygon' as const, coordinates: [[[lon, lat], [lon + 0.003, lat], [lon + 0.003, lat + 0.003], [lon, lat + 0.003], [lon, lat]]] });
const feature = (label: string, ref: string, props: Record<string, unknown> = {}) => ({ type: 'Feature', properties: { label, ref, ...props }, geometry: square(100, 10) });

test('a controls file: labelled blocks with their region, from the feature or the collection', () => {
  const blocks = parseControls({
    type: 'FeatureCollection',
    region: 'southeast-asia',
    features: [feature('forest', 'F1'), feature('established_crop', 'C1', { region: 'south-asia', country: 'lk' }), { ...feature('forest', 'x'), properties: { label: 'forest' }, id: 7 }],
  });
  assert.deepEqual(blocks.map((b) => [b.ref, b.label, b.region, b.country]), [
    ['F1', 'forest', 'southeast-asia', null],
    ['C1', 'established_crop', 'south-asia', 'LK'],
    ['7', 'forest', 'southeast-asia', null],
  ]);
  assert.throws(() => parseControls({ type: 'FeatureCollection', features: [feature('forest', 'F1')] }), { code: 'controls_invalid' });
  assert.throws(() => parseControls({ type: 'FeatureCollection', region: 'r', features: [feature('cocoa', 'F1')] }), { code: 'controls_invalid' });
});

const block = (ref: string, label: ControlBlock['label'], region = 'southeast-asia', cover: string | null = null): ControlBlock => ({ ref, label, region, geometry: square(100, 10), country: null, cover });

test('forest blocks count a positive finding, crop blocks a filable one; failed reads are left out and reported', async () => {
  const verdicts: Record<string, Verdict> = {
    F1: 'no_prior_management_evidenced', F2: 'prior_management_evidenced', F3: 'prior_management_weak',
    C1: 'prior_management_evidenced', C2: 'prior_management_evidenced', C3: 'insufficient_record',
  };
  const tallies = await runCampaign(
    [block('F1', 'forest'), block('F2', 'forest'), block('F3', 'forest'), block('F4', 'forest'), block('C1', 'established_crop'), block('C2', 'established_crop'), block('C3', 'established_crop'), block('S1', 'forest', 'south-asia')],
    async (b) => {
      if (b.ref === 'F4') throw new Error('archive down');
      return { verdict: verdicts[b.ref] ?? 'no_prior_management_evidenced', reason: 'no_canopy_cycle' };
    },
  );
  assert.deepEqual(tallies[0], { region: 'southeast-asia', forest: { positive: 1, read: 3 }, crop: { filable: 2, read: 3 }, failed: [{ ref: 'F4', why: 'archive down' }] });
  assert.deepEqual(tallies[1].forest, { positive: 0, read: 1 });
});

test('the Clopper–Pearson interval matches published exact intervals', () => {
  // Values of the exact binomial interval as tabled by R's binom.test and Clopper and Pearson (1934).
  const cases: Array<[number, number, number, number]> = [
    [0, 30, 0, 0.1157],
    [1, 10, 0.0025, 0.4450],
    [5, 10, 0.1871, 0.8129],
    [10, 10, 0.6915, 1],
    [3, 100, 0.0062, 0.0852],
  ];
  for (const [k, n, lo, hi] of cases) {
    const [l, h] = clopperPearson(k, n);
    assert.ok(Math.abs(l - lo) < 5e-5 && Math.abs(h - hi) < 5e-5, `${k}/${n}: [${l}, ${h}]`);
  }
  assert.throws(() => clopperPearson(3, 2), RangeError);
});

test('a campaign counts per cover type with each rate\'s interval and its blocks\' reasons; a cover with no blocks of a kind has no interval', async () => {
  const blocks = [
    block('F1', 'forest', 'southeast-asia', 'swamp_forest'), block('F2', 'forest', 'southeast-asia', 'swamp_forest'),
    block('C1', 'established_crop', 'west-africa', 'cocoa_shade'), block('C2', 'established_crop', 'west-africa', 'cocoa_shade'),
    block('X1', 'forest'),
  ];
  const outcomes = await readControls(blocks, async (b) => {
    if (b.ref === 'X1') throw new Error('archive down');
    return b.ref === 'F2' || b.ref === 'C1' ? { verdict: 'prior_management_evidenced', reason: 'cycle_and_structure_agree' } : { verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle' };
  });
  const covers = tallyCovers(outcomes);
  assert.deepEqual(covers.map((c) => [c.cover, c.forest.positive, c.forest.read, c.crop.filable, c.crop.read, c.failed]), [
    ['swamp_forest', 1, 2, 0, 0, 0],
    ['cocoa_shade', 0, 0, 1, 2, 0],
    ['unlabelled', 0, 0, 0, 0, 1],
  ]);
  assert.deepEqual(covers[0].forest.interval, clopperPearson(1, 2));
  assert.deepEqual(covers[0].reasons, [{ reason: 'cycle_and_structure_agree', blocks: 1 }, { reason: 'no_canopy_cycle', blocks: 1 }]);
  assert.deepEqual(covers[2].reasons, []);
  assert.equal(covers[0].crop.interval, null);
  assert.deepEqual(covers[1].crop.interval, clopperPearson(1, 2));
});

test('a cover\'s forest rate is counted over every block read and over those judged (insufficient_record left out), with the withheld findings beside it', async () => {
  const verdicts = { F1: 'prior_management_evidenced', F2: 'prior_management_weak', F3: 'insufficient_record', F4: 'no_prior_management_evidenced', C1: 'insufficient_record', C2: 'prior_management_evidenced' } as const;
  const blocks = [
    ...['F1', 'F2', 'F3', 'F4'].map((ref) => block(ref, 'forest', 'southeast-asia', 'plantation_beside_swamp_forest')),
    ...['C1', 'C2'].map((ref) => block(ref, 'established_crop', 'southeast-asia', 'plantation_beside_swamp_forest')),
  ];
  const outcomes = await readControls(blocks, async (b) => ({ verdict: verdicts[b.ref as keyof typeof verdicts], reason: 'no_canopy_cycle' }));
  const [c] = tallyCovers(outcomes);
  assert.deepEqual([c.forest.positive, c.forest.read, c.forest.judged, c.forest.weak], [1, 4, 3, 1]);
  assert.deepEqual(c.forest.interval, clopperPearson(1, 4));
  assert.deepEqual(c.forest.judgedInterval, clopperPearson(1, 3));
  assert.deepEqual([c.crop.filable, c.crop.read, c.crop.judged], [1, 2, 1]);
  assert.deepEqual(c.crop.judgedInterval, clopperPearson(1, 1));
  // Nothing judged: no interval over the judged blocks.
  const [none] = tallyCovers(outcomes.filter((o) => o.block.ref === 'F3'));
  assert.deepEqual([none.forest.judged, none.forest.judgedInterval, none.forest.interval], [0, null, clopperPearson(0, 1)]);
});

const REGIONS_FILE = new URL('../../../src/engine/context/calibration-regions.json', import.meta.url);
const tally = { region: 'southeast-asia', forest: { positive: 1, read: 20 }, crop: { filable: 17, read: 20 }, failed: [] };

test('a demo campaign writes its counts labelled demo and leaves the region at reads', () => {
  const campaign = applyCampaign(CALIBRATION_DEFAULTS, null, [tally], { archive: 'demo', measuredOn: '2026-11-22' });
  const table = mergeCampaign(CALIBRATION_DEFAULTS, campaign, 'demo');
  const region = table.regions.find((r) => r.id === 'southeast-asia')!;
  assert.deepEqual(
    [region.state, region.controls, region.forest_cleared, region.established_crop_filable, region.measured_on, region.campaign_archive],
    ['reads', 40, '1/20', '17/20', '2026-11-22', 'demo'],
  );
  const served = calibrationBlockFrom(table, { producerCountry: 'TH' });
  assert.equal(served.state, 'reads');
  assert.match(served.note, /synthetic demo world/);
  // Every other region is as it was.
  assert.deepEqual(table.regions.filter((r) => r.id !== 'southeast-asia'), CALIBRATION_DEFAULTS.regions.filter((r) => r.id !== 'southeast-asia'));
});

test('read for the public archive, the figures of a demo campaign are left out and the region quotes nothing', () => {
  const campaign = applyCampaign(CALIBRATION_DEFAULTS, null, [tally], { archive: 'demo', measuredOn: '2026-11-22' });
  const table = mergeCampaign(CALIBRATION_DEFAULTS, campaign, 'public');
  assert.deepEqual(table.regions, CALIBRATION_DEFAULTS.regions);
  const served = calibrationBlockFrom(table, { producerCountry: 'TH' });
  assert.deepEqual([served.state, served.controls, served.forest_cleared, served.measured_on], ['reads', null, null, null]);
  assert.doesNotMatch(served.note, /synthetic demo world/);
});

test('a campaign on the public archives validates the region; a demo campaign never replaces it', () => {
  const validated = applyCampaign(CALIBRATION_DEFAULTS, null, [tally], { archive: 'public', measuredOn: '2026-11-22' });
  const table = mergeCampaign(CALIBRATION_DEFAULTS, validated, 'public');
  const region = table.regions.find((r) => r.id === 'southeast-asia')!;
  assert.deepEqual([region.state, region.campaign_archive], ['validated', 'public']);
  assert.match(calibrationBlockFrom(table, { producerCountry: 'TH' }).note, /40 control blocks assessed; 1\/20 forest blocks/);
  assert.throws(() => applyCampaign(CALIBRATION_DEFAULTS, validated, [tally], { archive: 'demo', measuredOn: '2026-11-23' }), { code: 'validated_region' });
});

test('nothing is written for a region without both kinds of block read, or a region the file does not hold', () => {
  assert.throws(() => applyCampaign(CALIBRATION_DEFAULTS, null, [{ ...tally, crop: { filable: 0, read: 0 } }], { archive: 'demo', measuredOn: '2026-11-22' }), { code: 'nothing_read' });
  assert.throws(() => applyCampaign(CALIBRATION_DEFAULTS, null, [{ ...tally, region: 'atlantis' }], { archive: 'demo', measuredOn: '2026-11-22' }), { code: 'region_unknown' });
});

test('a later campaign keeps the figures of regions it did not read and replaces those it did', () => {
  const first = applyCampaign(CALIBRATION_DEFAULTS, null, [tally, { ...tally, region: 'west-africa' }], { archive: 'demo', measuredOn: '2026-11-22' });
  const second = applyCampaign(CALIBRATION_DEFAULTS, first, [{ ...tally, forest: { positive: 3, read: 4 } }], { archive: 'demo', measuredOn: '2026-11-23' });
  assert.equal(second.version, '2026-11-23');
  assert.deepEqual(second.regions.map((f) => [f.id, f.forest_cleared, f.measured_on]), [
    ['southeast-asia', '3/4', '2026-11-23'],
    ['west-africa', '1/20', '2026-11-22'],
  ]);
});

test('the campaign is written to its own file in the calibration layout, and the committed regions are never written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'campaign-'));
  try {
    const committed = await readFile(REGIONS_FILE, 'utf8');
    assert.equal(`${formatTable(JSON.parse(committed))}\n`, committed.replace(/(\d)\.0\b/g, '$1'));
    const path = join(dir, 'calibration', 'campaign.json');
    await writeCampaign(path, [tally], { archive: 'demo', measuredOn: '2026-11-22' });
    const text = await readFile(path, 'utf8');
    assert.equal(text, `${formatTable(JSON.parse(text))}\n`);
    const written = parseCampaignFile(JSON.parse(text));
    assert.equal(written.version, '2026-11-22');
    assert.deepEqual(written.regions.map((f) => [f.id, f.forest_cleared, f.campaign_archive]), [['southeast-asia', '1/20', 'demo']]);
    assert.equal(await readFile(REGIONS_FILE, 'utf8'), committed);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CALIBRATION_DEFAULTS,
  calibrationBlockFrom,
  CalibrationError,
  campaignFilePath,
  loadCalibrationTable,
  parseCalibrationTable,
} from '../../../src/engine/context/calibration.ts';

const fileUrl = new URL('../../../src/engine/context/calibration-regions.json', import.meta.url);

interface RawRegion {
  id: string;
  region: string;
  countries: string[];
  bboxes: number[][];
  commodities: string[];
  reference_map: string;
  state: string;
  controls: number | null;
  forest_cleared: string | null;
  forest_cleared_rerun: string | null;
  established_crop_filable: string | null;
  measured_on: string | null;
  campaign_archive: string | null;
}

function region(overrides: Partial<RawRegion> & Pick<RawRegion, 'id' | 'countries' | 'bboxes'>): RawRegion {
  return {
    region: `Region ${overrides.id}`,
    commodities: ['cocoa'],
    reference_map: 'a reference map',
    state: 'reads',
    controls: null,
    forest_cleared: null,
    forest_cleared_rerun: null,
    established_crop_filable: null,
    measured_on: null,
    campaign_archive: null,
    ...overrides,
  };
}

// Two regions whose boxes overlap between longitudes 8 and 10.
const west = region({ id: 'west', countries: ['GH', 'CI'], bboxes: [[-10, 0, 10, 12]] });
const east = region({ id: 'east', countries: ['CM', 'GA'], bboxes: [[8, -5, 20, 12]] });
const twoRegions = (): RawRegion[] => [structuredClone(west), structuredClone(east)];
const tableOf = (regions: RawRegion[]) => parseCalibrationTable({ version: 'test', regions });

test("the producer's country decides the region, even with a centroid in another box", () => {
  const block = calibrationBlockFrom(tableOf(twoRegions()), { producerCountry: 'GH', centroid: [15, 3] });
  assert.equal(block.region, 'Region west');
  assert.deepEqual(block.countries, ['GH', 'CI']);
  assert.equal(block.state, 'reads');
  assert.doesNotMatch(block.note, /centroid/);
});

test("the producer's country wins over the plot's own country; the plot's country serves when no producer country is set", () => {
  const table = tableOf(twoRegions());
  assert.equal(calibrationBlockFrom(table, { producerCountry: 'CM', plotCountry: 'GH' }).region, 'Region east');
  assert.equal(calibrationBlockFrom(table, { producerCountry: null, plotCountry: 'gh' }).region, 'Region west');
});

test('a country in no region gives a reads block without a region, and the centroid is not consulted', () => {
  const block = calibrationBlockFrom(tableOf(twoRegions()), { producerCountry: 'DE', centroid: [0, 5] });
  assert.equal(block.region, null);
  assert.equal(block.state, 'reads');
  assert.match(block.note, /No calibration region holds DE/);
});

test('with no country, a centroid inside exactly one box names that region', () => {
  const block = calibrationBlockFrom(tableOf(twoRegions()), { centroid: [15, 3] });
  assert.equal(block.region, 'Region east');
  assert.match(block.note, /chosen from the plot centroid/);
});

test("a centroid where two boxes overlap gives a reads block telling the caller to set the producer's country", () => {
  const block = calibrationBlockFrom(tableOf(twoRegions()), { centroid: [9, 5] });
  assert.equal(block.region, null);
  assert.equal(block.state, 'reads');
  assert.deepEqual(block.countries, []);
  assert.equal(block.controls, null);
  assert.equal(block.forest_cleared, null);
  assert.equal(block.established_crop_filable, null);
  assert.match(block.note, /Region west, Region east/);
  assert.match(block.note, /Set the producer's country to receive regional calibration/);
});

test('a box edge counts as inside', () => {
  assert.equal(calibrationBlockFrom(tableOf(twoRegions()), { centroid: [20, 12] }).region, 'Region east');
});

test('two boxes of one region overlapping each other still name that one region', () => {
  const regions = twoRegions();
  regions[1].bboxes.push([15, 0, 25, 8]);
  assert.equal(calibrationBlockFrom(tableOf(regions), { centroid: [17, 4] }).region, 'Region east');
});

test('a centroid in no box, or neither country nor centroid, gives a reads block without a region', () => {
  const table = tableOf(twoRegions());
  assert.equal(calibrationBlockFrom(table, { centroid: [100, 40] }).region, null);
  const none = calibrationBlockFrom(table, {});
  assert.equal(none.region, null);
  assert.match(none.note, /producer's country/);
});

test('a region that has not run a campaign quotes no figure and carries no re-read field', () => {
  const block = calibrationBlockFrom(tableOf(twoRegions()), { producerCountry: 'GH' });
  assert.equal(block.controls, null);
  assert.equal(block.forest_cleared, null);
  assert.equal(block.established_crop_filable, null);
  assert.equal(block.measured_on, null);
  assert.equal('forest_cleared_rerun' in block, false);
  assert.match(block.note, /no accuracy figure is quoted/);
});

test('a region validated on real controls carries the campaign figures the runner wrote', () => {
  const regions = twoRegions();
  Object.assign(regions[0], {
    state: 'validated',
    controls: 120,
    forest_cleared: '58/60',
    forest_cleared_rerun: '57/60',
    established_crop_filable: '55/60',
    measured_on: '2027-03-01',
    campaign_archive: 'public',
  });
  const block = calibrationBlockFrom(tableOf(regions), { producerCountry: 'CI' });
  assert.equal(block.state, 'validated');
  assert.equal(block.controls, 120);
  assert.equal(block.forest_cleared, '58/60');
  assert.equal(block.forest_cleared_rerun, '57/60');
  assert.equal(block.established_crop_filable, '55/60');
  assert.equal(block.measured_on, '2027-03-01');
  assert.match(block.note, /2027-03-01/);
});

test('a campaign on the demo world stays reads and is labelled as demo figures', () => {
  const regions = twoRegions();
  Object.assign(regions[1], {
    controls: 12,
    forest_cleared: '6/6',
    established_crop_filable: '5/6',
    measured_on: '2026-11-01',
    campaign_archive: 'demo',
  });
  const block = calibrationBlockFrom(tableOf(regions), { producerCountry: 'GA' });
  assert.equal(block.state, 'reads');
  assert.equal(block.forest_cleared, '6/6');
  assert.match(block.note, /synthetic demo world/);
});

function assertRejected(regions: RawRegion[], pattern: RegExp): void {
  assert.throws(
    () => tableOf(regions),
    (err: unknown) => err instanceof CalibrationError && err.code === 'calibration_table_invalid' && pattern.test(err.message),
  );
}

test('rejects a region marked validated without a campaign on real controls', () => {
  const regions = twoRegions();
  regions[0].state = 'validated';
  assertRejected(regions, /validated/);
});

test('rejects figures typed in without the rest of a campaign', () => {
  const regions = twoRegions();
  regions[0].forest_cleared = '9/10';
  assertRejected(regions, /written together/);
});

test('rejects a fraction whose numerator exceeds its denominator', () => {
  const regions = twoRegions();
  Object.assign(regions[0], {
    state: 'validated',
    controls: 10,
    forest_cleared: '11/10',
    established_crop_filable: '5/5',
    measured_on: '2027-01-01',
    campaign_archive: 'public',
  });
  assertRejected(regions, /x <= y/);
});

test('rejects a country held by two regions', () => {
  const regions = twoRegions();
  regions[1].countries.push('GH');
  assertRejected(regions, /GH is in both west and east/);
});

test('rejects a box whose west edge is not west of its east edge', () => {
  const regions = twoRegions();
  regions[0].bboxes = [[10, 0, -10, 12]];
  assertRejected(regions, /west < east/);
});

test('rejects a malformed country code and a malformed centroid in the input', () => {
  const table = tableOf(twoRegions());
  assert.throws(
    () => calibrationBlockFrom(table, { producerCountry: 'GHA' }),
    (err: unknown) => err instanceof CalibrationError && err.code === 'country_code_invalid',
  );
  assert.throws(
    () => calibrationBlockFrom(table, { centroid: [Number.NaN, 3] }),
    (err: unknown) => err instanceof CalibrationError && err.code === 'centroid_invalid',
  );
});

test('the shipped regions are all reads with no figure typed in', () => {
  const shipped = parseCalibrationTable(JSON.parse(readFileSync(fileUrl, 'utf8')));
  for (const r of shipped.regions) {
    assert.equal(r.state, 'reads', r.id);
    assert.equal(r.campaign_archive, null, r.id);
    assert.equal(r.controls, null, r.id);
    assert.equal(r.forest_cleared, null, r.id);
    assert.equal(r.established_crop_filable, null, r.id);
    assert.equal(r.measured_on, null, r.id);
  }
});

test('the shipped regions cover every EUDR commodity', () => {
  const shipped = parseCalibrationTable(JSON.parse(readFileSync(fileUrl, 'utf8')));
  const covered = new Set(shipped.regions.flatMap((r) => r.commodities));
  assert.deepEqual([...covered].sort(), ['cattle', 'cocoa', 'coffee', 'oil_palm', 'rubber', 'soya', 'wood']);
});

test('the shipped regions: producer country, a centroid in one box, and a centroid on the Nigeria-Cameroon frontier', () => {
  assert.equal(calibrationBlockFrom(CALIBRATION_DEFAULTS, { producerCountry: 'CI' }).region, 'West Africa');
  assert.equal(calibrationBlockFrom(CALIBRATION_DEFAULTS, { producerCountry: 'ID', centroid: [-60, -10] }).region, 'Southeast Asia and New Guinea');
  assert.equal(calibrationBlockFrom(CALIBRATION_DEFAULTS, { centroid: [-60, -10] }).region, 'Amazon and South America');
  const frontier = calibrationBlockFrom(CALIBRATION_DEFAULTS, { centroid: [9.2, 6.5] });
  assert.equal(frontier.region, null);
  assert.match(frontier.note, /West Africa, Central Africa/);
  assert.equal(calibrationBlockFrom(CALIBRATION_DEFAULTS, { producerCountry: 'CM', centroid: [9.2, 6.5] }).region, 'Central Africa');
});

/** A data directory holding `campaign` (text, or a value written as JSON) as its campaign file. */
async function withCampaignFile(campaign: unknown, fn: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'calibration-'));
  try {
    if (campaign !== undefined) {
      const path = campaignFilePath(dataDir);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, typeof campaign === 'string' ? campaign : JSON.stringify(campaign));
    }
    await fn(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const demoFigures = { id: 'west-africa', state: 'reads', controls: 12, forest_cleared: '6/6', forest_cleared_rerun: null, established_crop_filable: '5/6', measured_on: '2026-11-01', campaign_archive: 'demo' };
const invalidTable = (err: unknown) => err instanceof CalibrationError && err.code === 'calibration_table_invalid';

test('with no campaign file the service serves the committed regions, on either archive', async () => {
  await withCampaignFile(undefined, async (dataDir) => {
    assert.deepEqual(await loadCalibrationTable({ dataDir, archive: 'demo' }), CALIBRATION_DEFAULTS);
    assert.deepEqual(await loadCalibrationTable({ dataDir, archive: 'public' }), CALIBRATION_DEFAULTS);
  });
});

test('a demo campaign file is served over the committed regions on the demo archive, and not at all on the public one', async () => {
  await withCampaignFile({ version: '2026-11-01', regions: [demoFigures] }, async (dataDir) => {
    const demo = calibrationBlockFrom(await loadCalibrationTable({ dataDir, archive: 'demo' }), { producerCountry: 'CI' });
    assert.deepEqual([demo.region, demo.forest_cleared, demo.measured_on], ['West Africa', '6/6', '2026-11-01']);
    const real = calibrationBlockFrom(await loadCalibrationTable({ dataDir, archive: 'public' }), { producerCountry: 'CI' });
    assert.deepEqual([real.region, real.forest_cleared, real.measured_on], ['West Africa', null, null]);
  });
});

test('a campaign file that is not JSON, names no calibration region, or breaks the rules of a campaign is refused', async () => {
  await withCampaignFile('{ not json', async (dataDir) => {
    await assert.rejects(loadCalibrationTable({ dataDir, archive: 'demo' }), (e: unknown) => invalidTable(e) && /not JSON/.test((e as Error).message));
  });
  await withCampaignFile({ version: 'x', regions: [{ ...demoFigures, id: 'atlantis' }] }, async (dataDir) => {
    await assert.rejects(loadCalibrationTable({ dataDir, archive: 'demo' }), (e: unknown) => invalidTable(e) && /atlantis/.test((e as Error).message));
  });
  await withCampaignFile({ version: 'x', regions: [{ ...demoFigures, state: 'validated' }] }, async (dataDir) => {
    await assert.rejects(loadCalibrationTable({ dataDir, archive: 'demo' }), (e: unknown) => invalidTable(e) && /validated/.test((e as Error).message));
  });
});

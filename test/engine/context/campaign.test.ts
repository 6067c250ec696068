import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationBlockFrom, parseCalibrationTable } from '../../../src/engine/context/calibration.ts';
import {
  applyCampaign,
  CALIBRATION_FILE,
  type ControlBlock,
  formatTable,
  parseControls,
  runCampaign,
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

const block = (ref: string, label: ControlBlock['label'], region = 'southeast-asia'): ControlBlock => ({ ref, label, region, geometry: square(100, 10), country: null });

test('forest blocks count a positive finding, crop blocks a filable one; failed reads are left out and reported', async () => {
  const verdicts: Record<string, Verdict> = {
    F1: 'no_prior_management_evidenced', F2: 'prior_management_evidenced', F3: 'prior_management_weak',
    C1: 'prior_management_evidenced', C2: 'prior_management_evidenced', C3: 'insufficient_record',
  };
  const tallies = await runCampaign(
    [block('F1', 'forest'), block('F2', 'forest'), block('F3', 'forest'), block('F4', 'forest'), block('C1', 'established_crop'), block('C2', 'established_crop'), block('C3', 'established_crop'), block('S1', 'forest', 'south-asia')],
    async (b) => {
      if (b.ref === 'F4') throw new Error('archive down');
      return verdicts[b.ref] ?? 'no_prior_management_evidenced';
    },
  );
  assert.deepEqual(tallies[0], { region: 'southeast-asia', forest: { positive: 1, read: 3 }, crop: { filable: 2, read: 3 }, failed: [{ ref: 'F4', why: 'archive down' }] });
  assert.deepEqual(tallies[1].forest, { positive: 0, read: 1 });
});

const fileNow = async () => JSON.parse(await readFile(CALIBRATION_FILE, 'utf8'));
const tally = { region: 'southeast-asia', forest: { positive: 1, read: 20 }, crop: { filable: 17, read: 20 }, failed: [] };

test('a demo campaign writes its counts labelled demo and leaves the region at reads', async () => {
  const next = applyCampaign(await fileNow(), [tally], { archive: 'demo', measuredOn: '2026-11-22' });
  const table = parseCalibrationTable(next);
  const region = table.regions.find((r) => r.id === 'southeast-asia')!;
  assert.deepEqual(
    [region.state, region.controls, region.forest_cleared, region.established_crop_filable, region.measured_on, region.campaign_archive],
    ['reads', 40, '1/20', '17/20', '2026-11-22', 'demo'],
  );
  const served = calibrationBlockFrom(table, { producerCountry: 'TH' });
  assert.equal(served.state, 'reads');
  assert.match(served.note, /synthetic demo world/);
  // Every other region is as it was.
  const before = parseCalibrationTable(await fileNow());
  assert.deepEqual(table.regions.filter((r) => r.id !== 'southeast-asia'), before.regions.filter((r) => r.id !== 'southeast-asia'));
});

test('a campaign on the public archives validates the region; a demo campaign never replaces it', async () => {
  const validated = applyCampaign(await fileNow(), [tally], { archive: 'public', measuredOn: '2026-11-22' });
  const region = parseCalibrationTable(validated).regions.find((r) => r.id === 'southeast-asia')!;
  assert.deepEqual([region.state, region.campaign_archive], ['validated', 'public']);
  assert.match(calibrationBlockFrom(parseCalibrationTable(validated), { producerCountry: 'TH' }).note, /40 control blocks assessed; 1\/20 forest blocks/);
  assert.throws(() => applyCampaign(validated, [tally], { archive: 'demo', measuredOn: '2026-11-23' }), { code: 'validated_region' });
});

test('nothing is written for a region without both kinds of block read, or a region the file does not hold', async () => {
  const file = await fileNow();
  assert.throws(() => applyCampaign(file, [{ ...tally, crop: { filable: 0, read: 0 } }], { archive: 'demo', measuredOn: '2026-11-22' }), { code: 'nothing_read' });
  assert.throws(() => applyCampaign(file, [{ ...tally, region: 'atlantis' }], { archive: 'demo', measuredOn: '2026-11-22' }), { code: 'region_unknown' });
});

test('the file is rewritten in its own layout, figures and version only', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'campaign-'));
  try {
    const path = join(dir, 'calibration-regions.json');
    await copyFile(CALIBRATION_FILE, path);
    const original = await readFile(path, 'utf8');
    assert.equal(`${formatTable(JSON.parse(original))}\n`, original.replace(/(\d)\.0\b/g, '$1'));
    await writeCampaign(path, [tally], { archive: 'demo', measuredOn: '2026-11-22' });
    const written = JSON.parse(await readFile(path, 'utf8'));
    assert.equal(written.version, '2026-11-22');
    assert.deepEqual(written.notes, JSON.parse(original).notes);
    assert.equal(written.regions[0].forest_cleared, '1/20');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

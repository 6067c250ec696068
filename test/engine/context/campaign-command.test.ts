// The campaign runner end to end on the demo world: control blocks read by the engine as plots
// are, the counts written into the data directory's campaign file, labelled demo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../../src/config.ts';
import { calibrationBlockFrom, campaignFilePath, loadCalibrationTable } from '../../../src/engine/context/calibration.ts';
import { describeCampaign, runCampaignCommand } from '../../../src/engine/context/campaign-command.ts';
import { openDemoArchive } from '../../../src/demo/open-archive.ts';
import { DEMO_SITES } from '../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../src/demo/world.ts';
import { demoWorld } from '../../support/demo-world.ts';

/** Demo sites of Southeast Asia as control blocks: the deciduous forest, and established rubber. */
const CONTROLS: Record<string, 'forest' | 'established_crop'> = {
  'th-nan-deciduous-forest': 'forest',
  'th-surat-thani-rubber': 'established_crop',
  'vn-binh-phuoc-shade-veto': 'established_crop',
  'kh-kampong-cham-record': 'established_crop',
  'mm-mon-tmf-undisturbed': 'established_crop',
};

test('a campaign on the demo world writes the counts the engine reaches, labelled demo, into the data directory; a public archive never reads them', async () => {
  const { root } = await demoWorld(DEMO_SITES.map((s) => s.name));
  const dir = await mkdtemp(join(tmpdir(), 'campaign-run-'));
  try {
    const sites = DEMO_SITES.filter((s) => s.name in CONTROLS);
    const controls = {
      type: 'FeatureCollection',
      region: 'southeast-asia',
      features: sites.map((s) => ({
        type: 'Feature',
        properties: { label: CONTROLS[s.name], ref: s.name, country: s.country },
        geometry: { type: 'Polygon', coordinates: [buildSiteModel(s, DEMO_SEED).lonLatRing] },
      })),
    };
    const controlsFile = join(dir, 'controls.geojson');
    await writeFile(controlsFile, JSON.stringify(controls));
    const dataDir = join(dir, 'data');
    const regionsFile = new URL('../../../src/engine/context/calibration-regions.json', import.meta.url);
    const committed = await readFile(regionsFile, 'utf8');
    const config = loadConfig({ DATA_DIR: dataDir, POOL_SIZE: '2', LOG_LEVEL: 'silent' });
    const run = await runCampaignCommand(config, { controlsFile, openArchive: () => openDemoArchive({ dataDir, root }), measuredOn: '2026-11-22' });
    assert.equal(run.file, campaignFilePath(dataDir));
    assert.equal(await readFile(regionsFile, 'utf8'), committed);

    // What each block should reach is its site's truth, never a figure typed here.
    const positive = (label: string) => sites.filter((s) => CONTROLS[s.name] === label && s.truth.verdict === 'prior_management_evidenced').length;
    const count = (label: string) => sites.filter((s) => CONTROLS[s.name] === label).length;
    assert.deepEqual(run.regions, [{
      region: 'southeast-asia',
      forest: { positive: positive('forest'), read: count('forest') },
      crop: { filable: positive('established_crop'), read: count('established_crop') },
      failed: [],
    }]);
    const table = await loadCalibrationTable({ dataDir, archive: 'demo' });
    const region = table.regions.find((r) => r.id === 'southeast-asia')!;
    assert.deepEqual(
      [region.state, region.campaign_archive, region.controls, region.forest_cleared, region.established_crop_filable, region.measured_on],
      ['reads', 'demo', sites.length, `${positive('forest')}/${count('forest')}`, `${positive('established_crop')}/${count('established_crop')}`, '2026-11-22'],
    );
    assert.match(calibrationBlockFrom(table, { producerCountry: 'TH' }).note, /synthetic demo world/);
    const publicBlock = calibrationBlockFrom(await loadCalibrationTable({ dataDir, archive: 'public' }), { producerCountry: 'TH' });
    assert.deepEqual([publicBlock.state, publicBlock.controls, publicBlock.forest_cleared], ['reads', null, null]);
    assert.doesNotMatch(publicBlock.note, /synthetic demo world/);
    assert.match(describeCampaign(run).at(-1)!, /synthetic demo world.*no region becomes validated/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('npm run campaign without a controls file prints its usage and exits 2', async () => {
  const node = process.execPath;
  const main = new URL('../../../src/main.ts', import.meta.url).pathname;
  await assert.rejects(promisify(execFile)(node, [main, 'campaign'], { env: { ...process.env, DATA_DIR: tmpdir() } }), (err: { code?: number; stderr?: string }) => {
    assert.equal(err.code, 2);
    assert.match(err.stderr ?? '', /usage: npm run --silent campaign -- <controls.geojson>/);
    return true;
  });
});

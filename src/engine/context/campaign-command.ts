// `npm run campaign -- <controls file> [--out <campaign file>] [--json]`: reads every control
// block with the engine, on the archive it is given (the configured one), and writes the counts
// into the campaign file, `<DATA_DIR>/calibration/campaign.json` by default. On the demo archive
// the figures are written labelled `demo` and no region becomes `validated`.
import { readFile } from 'node:fs/promises';
import { area } from '@turf/turf';
import type { Config } from '../../config.ts';
import type { Archive } from '../archive.ts';
import { createPool } from '../worker/pool.ts';
import { DecodedTiles } from '../plan/raster-shipment.ts';
import { type EngineDeps, readPlot } from '../read-plot.ts';
import { loadSigningKey } from '../signing.ts';
import { campaignFilePath } from './calibration.ts';
import { type BlockOutcome, type ControlBlock, type ControlReader, parseControls, type RegionTally, readControls, runCampaign, writeCampaign } from './campaign.ts';

export const CAMPAIGN_USAGE = 'usage: npm run --silent campaign -- <controls.geojson> [--out <campaign.json>] [--json] | hard --seed N [--sites M] [--sky regional|clear] [--mix all|forest|rubber|remnant|ecotone] [--out results.md]';

/** A control block read as a plot without a job: nothing is stored, the verdict is all that is kept. */
export function engineReader(deps: EngineDeps): ControlReader {
  return async (block, signal) => {
    const reading = await readPlot(
      {
        id: block.ref,
        workspaceId: 'control-campaign',
        ref: block.ref,
        geometry: block.geometry,
        areaHa: area(block.geometry) / 10_000,
        declaredAreaHa: null,
        country: block.country,
        producerCountry: block.country,
      },
      deps,
      signal,
    );
    return reading.decision;
  };
}

export interface CampaignRun {
  regions: RegionTally[];
  file: string;
  archive: 'demo' | 'public';
  measured_on: string;
}

export interface CampaignOptions {
  controlsFile: string;
  /** Opens the archive the blocks are read from (once the controls are read); its kind labels the figures. */
  openArchive: () => Promise<Archive>;
  /** The campaign file written; default `<DATA_DIR>/calibration/campaign.json`, the one the service reads. */
  out?: string;
  /** The day written as `measured_on` (YYYY-MM-DD); today by default. */
  measuredOn?: string;
}

/** Runs `work` with a control reader over the engine on `archive`, then closes the pool and the archive. */
async function withEngine<T>(config: Config, archive: Archive, work: (read: ControlReader) => Promise<T>): Promise<T> {
  const pool = createPool({ size: config.poolSize, nice: config.poolNice });
  try {
    const deps: EngineDeps = { archive, pool, tiles: new DecodedTiles({ maxBytes: config.decodedTileCacheBytes }), signingKey: loadSigningKey(config.signingKeyPem, config.dataDir), whisp: config.whisp };
    return await work(engineReader(deps));
  } finally {
    await pool.close();
    await archive.close();
  }
}

/** Every block read by the engine on the archive opened, one outcome each; nothing is written. */
export async function readControlsWithEngine(config: Config, blocks: readonly ControlBlock[], openArchive: () => Promise<Archive>): Promise<BlockOutcome[]> {
  return withEngine(config, await openArchive(), (read) => readControls(blocks, read));
}

export async function runCampaignCommand(config: Config, options: CampaignOptions): Promise<CampaignRun> {
  const blocks = parseControls(JSON.parse(await readFile(options.controlsFile, 'utf8')));
  const archive = await options.openArchive();
  return withEngine(config, archive, async (read) => {
    const regions = await runCampaign(blocks, read);
    const file = options.out ?? campaignFilePath(config.dataDir);
    const measuredOn = options.measuredOn ?? new Date().toISOString().slice(0, 10);
    await writeCampaign(file, regions, { archive: archive.kind, measuredOn });
    return { regions, file, archive: archive.kind, measured_on: measuredOn };
  });
}

/** What the command prints: one line per region, or one JSON object with `--json`. */
export function describeCampaign(run: CampaignRun): string[] {
  const lines = run.regions.map((t) => {
    const failed = t.failed.length === 0 ? '' : `; ${t.failed.length} not read (${t.failed.map((f) => `${f.ref}: ${f.why}`).join('; ')})`;
    return `${t.region}: ${t.forest.positive}/${t.forest.read} forest blocks reached a positive finding, ${t.crop.filable}/${t.crop.read} established-crop blocks a filable one${failed}`;
  });
  const where = run.archive === 'demo' ? 'the synthetic demo world (labelled demo; no region becomes validated)' : 'the public archives';
  return [...lines, `measured on ${run.measured_on} over ${where}; written to ${run.file}`];
}

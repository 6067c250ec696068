/**
 * One plot's read, in the two halves a job overlaps: `preparePlot` plans the read and fetches its
 * tiles (main thread, I/O only), `finishPlot` computes in the pool, decides, cuts the map's chip,
 * assembles the evidence object and signs it. Nothing here touches the database.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import sharp from 'sharp';
import type { EvidenceMap } from '../documents/footprint-map.ts';
import type { Archive } from './archive.ts';
import { assembleEvidence, evidenceFacts, forestPartShare } from './assemble-evidence.ts';
import type { CalibrationTable } from './context/calibration.ts';
import { footprintBox } from './context/plot.ts';
import { decide, type Decision } from './decide.ts';
import type { EvidenceObject } from './evidence-object.ts';
import { type Integrity, sealEvidence } from './integrity.ts';
import type { EnginePool } from './worker/pool.ts';
import type { PlotTaskResult } from './worker/tasks.ts';
import type { EvidenceFacts } from './plot-state.ts';
import { type DecodedTiles, type Shipment, shipRasters } from './plan/raster-shipment.ts';
import { planRead, type PlotPlan, type PlotToRead } from './plan/read-plan.ts';
import type { SigningKey } from './signing.ts';
import { metresPerDegree } from './sources/reproject.ts';

export interface EngineDeps {
  archive: Archive;
  pool: EnginePool;
  tiles: DecodedTiles;
  signingKey: SigningKey;
  /** The deployment's WHISP switch: the perennial-crop rating is computed only when on. */
  whisp?: boolean;
  /** Calibration regions with the deployment's campaign figures (loadCalibrationTable); the committed regions by default. */
  calibration?: CalibrationTable;
  /** The largest footprint read, in hectares (the intake's plot area cap); MAX_READ_AREA_HA by default. */
  maxReadAreaHa?: number;
  /** The issue time of a read (tests fix it). */
  now?: () => Date;
}

export interface PreparedPlot {
  plan: PlotPlan;
  shipment: Shipment;
}

export interface PlotReading {
  evidence: EvidenceObject;
  integrity: Integrity;
  map: EvidenceMap;
  facts: EvidenceFacts;
  decision: Decision;
}

export async function preparePlot(plot: PlotToRead, deps: EngineDeps, signal?: AbortSignal): Promise<PreparedPlot> {
  const plan = await planRead(plot, deps.archive, signal, { whisp: deps.whisp ?? false, calibration: deps.calibration, maxAreaHa: deps.maxReadAreaHa });
  return { plan, shipment: await shipRasters(plan.requests, deps.tiles, signal) };
}

export function decisionOf(plan: PlotPlan, r: PlotTaskResult): Decision {
  return decide({
    plot_area_km2: plan.footprint.areaHa / 100,
    cycle: r.troughs.cycle,
    part_without_dip: r.troughs.part_without_dip,
    shade: r.structure,
    radar: r.radar ?? { forest_like: null, confident: false, polarimetry_cultivated: null },
    height: r.height ?? { forest_like: null, confident: false, between_lines: false },
    terrain_outside: r.terrain?.outside_characterised_range ?? null,
    context: r.context.facts,
    optical_coverage: r.coverage.optical,
  });
}

export async function finishPlot(prepared: PreparedPlot, deps: EngineDeps, signal?: AbortSignal): Promise<PlotReading> {
  const { plan, shipment } = prepared;
  const result = await deps.pool.run('plot', { ...plan.task, shipment: { tiles: shipment.tiles, rasters: shipment.rasters } }, { signal });
  const decision = decisionOf(plan, result);
  const evidence = assembleEvidence({ plan, result, decision, issued: (deps.now ?? (() => new Date()))(), synthetic: deps.archive.synthetic });
  const chip = await chipFor(plan, result, deps, signal);
  return {
    evidence,
    integrity: sealEvidence(evidence, deps.signingKey),
    map: { footprint: plan.footprint.footprint, chip },
    facts: evidenceFacts(result.context.blocks, result.troughs.seasons_observed, forestPartShare(result)),
    decision,
  };
}

export async function readPlot(plot: PlotToRead, deps: EngineDeps, signal?: AbortSignal): Promise<PlotReading> {
  return finishPlot(await preparePlot(plot, deps, signal), deps, signal);
}

/** The chip reaches this share of the footprint's extent past it on every side (at least CHIP_MARGIN_MIN_M). */
const CHIP_MARGIN_SHARE = 0.35;
const CHIP_MARGIN_MIN_M = 60;
const CHIP_PIXEL_M = 10;
const CHIP_MAX_PX = 256;

/** The kept Sentinel-2 scene clearest over the plot, the latest among equals. */
function chipScene(plan: PlotPlan, r: PlotTaskResult): string | null {
  let best: string | null = null;
  let bestClear = -1;
  plan.scenes.forEach((s, k) => {
    const reading = r.scenes[k];
    if (s.sensor !== 'sentinel-2' || !reading.usable) return;
    const clear = reading.clear_fraction ?? 0;
    if (clear >= bestClear) {
      best = s.id;
      bestClear = clear;
    }
  });
  return best;
}

/**
 * A true-colour chip of one kept scene around the footprint, for the document's map. It is not
 * part of the signed evidence, so a chip that cannot be cut leaves the map without one.
 */
async function chipFor(plan: PlotPlan, r: PlotTaskResult, deps: EngineDeps, signal?: AbortSignal): Promise<EvidenceMap['chip']> {
  const id = chipScene(plan, r);
  const scene = id === null ? undefined : plan.sentinel2.get(id);
  if (scene === undefined) return null;
  try {
    const extentM = extentMetres(plan.footprint.footprint);
    const bbox = footprintBox(plan.footprint.footprint, Math.max(CHIP_MARGIN_MIN_M, CHIP_MARGIN_SHARE * Math.max(extentM.x, extentM.y)));
    const m = metresPerDegree((bbox[1] + bbox[3]) / 2);
    const width = Math.min(CHIP_MAX_PX, Math.max(16, Math.round(((bbox[2] - bbox[0]) * m.lon) / CHIP_PIXEL_M)));
    const height = Math.min(CHIP_MAX_PX, Math.max(16, Math.round(((bbox[3] - bbox[1]) * m.lat) / CHIP_PIXEL_M)));
    const layers = await deps.archive.sentinel2.sceneWindows(scene, bbox, ['red', 'green', 'blue'] as const, signal);
    const [red, green, blue] = [layers.red.request, layers.green.request, layers.blue.request];
    const shipment = await shipRasters([red, green, blue], deps.tiles, signal);
    const enc = layers.red.encoding;
    const out = await deps.pool.run('chip', {
      shipment: { tiles: shipment.tiles, rasters: shipment.rasters },
      red: red.key,
      green: green.key,
      blue: blue.key,
      reflectance: { scale: enc.scale, offset: enc.offset, nodata: enc.nodata },
      bbox,
      width,
      height,
    }, { signal });
    const png = await sharp(Buffer.from(out.rgb.buffer, out.rgb.byteOffset, out.rgb.byteLength), { raw: { width: out.width, height: out.height, channels: 3 } }).png().toBuffer();
    return { png, bbox, scene: scene.id };
  } catch (err) {
    if (signal?.aborted) throw err;
    return null;
  }
}

function extentMetres(fp: Polygon | MultiPolygon): { x: number; y: number } {
  const [w, s, e, n] = footprintBox(fp, 0);
  const m = metresPerDegree((s + n) / 2);
  return { x: (e - w) * m.lon, y: (n - s) * m.lat };
}

/**
 * One plot's read, in the two halves a job overlaps: `preparePlot` plans the read, has its scene
 * masks read and fetches the tiles of its first step, `finishPlot` computes its steps in the pool
 * (a long record a run of scenes at a time), decides, cuts the map's chip, assembles the evidence
 * object and signs it. A multi-part plot goes through both halves part by
 * part (engine/plot-parts.ts) and still gives one signed object. Nothing here touches the database.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import type { EvidenceMap } from '../documents/footprint-map.ts';
import type { Archive } from './archive.ts';
import { assembleEvidence, evidenceFacts, forestPartShare } from './assemble-evidence.ts';
import type { CalibrationTable } from './context/calibration.ts';
import { footprintBox } from './context/plot.ts';
import { decide, type Decision } from './decide.ts';
import type { EvidenceObject } from './evidence-object.ts';
import { type Integrity, sealEvidence } from './integrity.ts';
import type { EnginePool } from './worker/pool.ts';
import type { PlotTaskResult, SceneGroupResult } from './worker/tasks.ts';
import type { EvidenceFacts } from './plot-state.ts';
import { type DecodedTiles, type Shipment, shipRasters, withShipment } from './plan/raster-shipment.ts';
import { maskKeys, otherRequests, sceneGroups, sceneRequests, withoutClouded } from './plan/clear-scenes.ts';
import { checkReadArea, NothingToReadError, planRead, type PlotPlan, type PlotToRead } from './plan/read-plan.ts';
import { type PlotFootprint, plotFootprint } from './footprint.ts';
import { type PartAnswer, plotAnswer, plotParts, readPartAnswer, unreadPartAnswer } from './plot-parts.ts';
import type { SigningKey } from './signing.ts';
import { operatingPoints as op } from './operating-points.ts';
import { unevenGround } from './uneven-ground.ts';
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

/**
 * One part planned, its masks read and its first step shipped unless that is left to when the part
 * is read; or a part over which no archive holds anything.
 */
export type PreparedPart = { plan: PlotPlan; ready: ShippedPart | null } | { plot: PlotToRead; notRead: NothingToReadError };

/**
 * Parts planned at once. A plot may hold up to the intake's MAX_PARTS_PER_PLOT parts and each plan
 * searches the catalogues, so they are planned a few at a time.
 */
const PARTS_PLANNED_AT_ONCE = 4;

/** `fn` over every item, at most `limit` running at once, answers in the items' order; the first failure stops the rest. */
async function atMost<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const run = async () => {
    while (!failed && next < items.length) {
      const k = next++;
      try {
        out[k] = await fn(items[k]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

export interface PreparedPlot {
  /** The whole plot's footprint: the area, sentence and map of the evidence. */
  footprint: PlotFootprint;
  /** One for a polygon or a point; one per polygon of a multi-part plot (engine/plot-parts.ts). */
  parts: PreparedPart[];
}

export interface PlotReading {
  evidence: EvidenceObject;
  integrity: Integrity;
  map: EvidenceMap;
  facts: EvidenceFacts;
  decision: Decision;
}

/**
 * The most decoded bytes of scene tiles a part's read holds at once: the decoded-tile cache's
 * bound, and no less than this, so a small cache does not split a record into scene-sized tasks.
 */
const MIN_GROUP_BYTES = 64 * 2 ** 20;

const groupBytes = (tiles: DecodedTiles) => Math.max(tiles.maxBytes, MIN_GROUP_BYTES);

/**
 * A part's record, without its clouded scenes, in runs (clear-scenes.ts). A record of one run is read
 * with every other layer in one plot task, as one shipment; a longer one a run at a time, then the rest.
 */
interface PartSteps {
  plan: PlotPlan;
  groups: number[][];
}

const inOneStep = (part: PartSteps) => part.groups.length <= 1;

/** The requests of a part's first step: the whole read where it is one step, else its first run's. */
const firstStep = (part: PartSteps) => (inOneStep(part) ? part.plan.requests : sceneRequests(part.plan, part.groups[0]));

/**
 * A part's scene masks, read in the pool a run at a time, take its clouded scenes out of the plan;
 * what is left is split into runs that each hold at most the bound's tiles.
 */
async function partSteps(plan: PlotPlan, deps: Pick<EngineDeps, 'pool' | 'tiles'>, signal?: AbortSignal): Promise<PartSteps> {
  const clear: Array<number | null> = [];
  for (const group of sceneGroups(plan, groupBytes(deps.tiles), maskKeys)) {
    const shipment = await shipRasters(sceneRequests(plan, group, maskKeys), deps.tiles, signal);
    const answer = await withShipment(deps.tiles, shipment, (m) => deps.pool.run('clear', { footprint: plan.task.footprint, shipment: m, masks: group.map((k) => plan.task.optical[k].clear) }, { signal }));
    clear.push(...answer.clear);
  }
  const kept = withoutClouded(plan, clear);
  return { plan: kept, groups: sceneGroups(kept, groupBytes(deps.tiles)) };
}

/** A part's record read in the pool a run at a time, each run's tiles let go before the next is shipped. `first` is the first run's shipment when it was shipped ahead. */
async function readRecord(part: PartSteps, deps: Pick<EngineDeps, 'pool' | 'tiles'>, signal?: AbortSignal, first?: Shipment): Promise<SceneGroupResult[]> {
  const record: SceneGroupResult[] = [];
  for (let k = 0; k < part.groups.length; k++) {
    const optical = part.groups[k].map((s) => part.plan.task.optical[s]);
    const shipment = k === 0 && first !== undefined ? first : await shipRasters(sceneRequests(part.plan, part.groups[k]), deps.tiles, signal);
    record.push(await withShipment(deps.tiles, shipment, (sh) => deps.pool.run('scenes', { footprint: part.plan.task.footprint, shipment: sh, optical }, { signal })));
  }
  return record;
}

/**
 * A part's read in the pool: a record of one run with every other layer in one plot task, a longer one
 * a run at a time and then the plot task over the runs' series and every other layer; last, the
 * shade per block at the trough scenes where the plot-wide shade answered. `first` is the first
 * step's shipment (firstStep) when it was shipped ahead.
 */
async function computePart(part: PartSteps, deps: Pick<EngineDeps, 'pool' | 'tiles'>, signal?: AbortSignal, first?: Shipment): Promise<PlotTaskResult> {
  const { plan } = part;
  const one = inOneStep(part);
  const record = one ? null : await readRecord(part, deps, signal, first);
  const rest = one && first !== undefined ? first : await shipRasters(one ? plan.requests : otherRequests(plan), deps.tiles, signal);
  const result = await withShipment(deps.tiles, rest, (sh) => deps.pool.run('plot', { ...plan.task, record, shipment: sh }, { signal }));
  if (!result.shade_blocks) return result;
  const at = result.structure.scenes;
  const shade = await shipRasters(sceneRequests(plan, at), deps.tiles, signal);
  const structure = await withShipment(deps.tiles, shade, (sh) => deps.pool.run('shade', { footprint: plan.task.footprint, shipment: sh, optical: at.map((s) => plan.task.optical[s]), structure: result.structure }, { signal }));
  return { ...result, structure, shade_blocks: false };
}

/** A planned read's optical record alone, read in the pool a run at a time (the bench's like-for-like optical read): its masks, then its runs. */
export async function readOpticalRecord(plan: PlotPlan, deps: Pick<EngineDeps, 'pool' | 'tiles'>, signal?: AbortSignal): Promise<{ plan: PlotPlan; record: SceneGroupResult[] }> {
  const steps = await partSteps(plan, deps, signal);
  return { plan: steps.plan, record: await readRecord(steps, deps, signal) };
}

/** A planned read computed in the pool as a plot's part is: the plan without its clouded scenes, and the plot task's answer. */
export async function computePlan(plan: PlotPlan, deps: Pick<EngineDeps, 'pool' | 'tiles'>, signal?: AbortSignal): Promise<{ plan: PlotPlan; result: PlotTaskResult }> {
  const steps = await partSteps(plan, deps, signal);
  return { plan: steps.plan, result: await computePart(steps, deps, signal) };
}

/** A part's steps, the first shipped. */
interface ShippedPart {
  steps: PartSteps;
  shipment: Shipment;
}

/** Plans a part's steps and ships its first, so its tiles are fetched while the plot before it computes. */
async function shipPart(plan: PlotPlan, deps: EngineDeps, signal?: AbortSignal): Promise<ShippedPart> {
  const steps = await partSteps(plan, deps, signal);
  return { steps, shipment: await shipRasters(firstStep(steps), deps.tiles, signal) };
}

const planPart = (part: PlotToRead, deps: EngineDeps, signal?: AbortSignal) =>
  planRead(part, deps.archive, signal, { whisp: deps.whisp ?? false, calibration: deps.calibration, maxAreaHa: deps.maxReadAreaHa });

/**
 * Plans and ships a plot's read. A multi-part plot is planned part by part, each on its own tiles;
 * only its first part read is shipped here, the others as they are read, so the tiles parts share
 * reach the pool already decoded, without their bytes. The area cap holds for the parts together; a part no archive
 * covers is kept to be stated, unless no part is covered, when the read fails as a single plot's would.
 */
export async function preparePlot(plot: PlotToRead, deps: EngineDeps, signal?: AbortSignal): Promise<PreparedPlot> {
  const split = plotParts(plot);
  if (split.length === 1) {
    const ready = await shipPart(await planPart(plot, deps, signal), deps, signal);
    return { footprint: ready.steps.plan.footprint, parts: [{ plan: ready.steps.plan, ready }] };
  }
  const footprint = plotFootprint(plot.geometry, plot.areaHa, plot.declaredAreaHa);
  checkReadArea(footprint, deps.maxReadAreaHa);
  const parts = await atMost(split, PARTS_PLANNED_AT_ONCE, (part) => planPart(part, deps, signal).then(
    (plan): PreparedPart => ({ plan, ready: null }),
    (err: unknown): PreparedPart => {
      if (err instanceof NothingToReadError) return { plot: part, notRead: err };
      throw err;
    },
  ));
  const first = parts.find((p) => 'plan' in p);
  if (first === undefined) throw (parts[0] as { notRead: NothingToReadError }).notRead;
  first.ready = await shipPart(first.plan, deps, signal);
  return { footprint, parts };
}

export function decisionOf(plan: PlotPlan, r: PlotTaskResult): Decision {
  return decide({
    plot_area_km2: plan.footprint.areaHa / 100,
    area_known: plan.footprint.areaKnown,
    cycle: r.troughs.cycle,
    part_without_dip: r.troughs.part_without_dip,
    uneven_part: unevenGround(r, op.blocks.forestPart).length > 0,
    ring_shares_dip: r.ring.same,
    shade: r.structure,
    radar: r.radar ?? { forest_like: null, confident: false, polarimetry_cultivated: null },
    height: r.height ?? { forest_like: null, confident: false, between_lines: false },
    terrain_outside: r.terrain?.outside_characterised_range ?? null,
    context: r.context.facts,
    optical_coverage: r.coverage.optical,
  });
}

async function readPart(part: PreparedPart, deps: EngineDeps, signal?: AbortSignal): Promise<PartAnswer> {
  if ('notRead' in part) return unreadPartAnswer(part.plot, part.notRead.message);
  // Shipped now, after the parts before it decoded the tiles they share: those travel without bytes.
  const ready = part.ready ?? (await shipPart(part.plan, deps, signal));
  const result = await computePart(ready.steps, deps, signal, ready.shipment);
  return readPartAnswer(ready.steps.plan, result, decisionOf(ready.steps.plan, result));
}

/**
 * Computes a prepared plot in the pool and seals its evidence. `computed` is called once the plot's
 * pool tasks have ended and its shipments are let go: what is left (deciding, the chip's three
 * tiles, sealing) holds little, so a job may start its next plot's computing then.
 */
export async function finishPlot(prepared: PreparedPlot, deps: EngineDeps, signal?: AbortSignal, computed?: () => void): Promise<PlotReading> {
  // One pool task at a time, as for a single plot.
  const answers: PartAnswer[] = [];
  for (const part of prepared.parts) answers.push(await readPart(part, deps, signal));
  computed?.();
  const issued = (deps.now ?? (() => new Date()))();
  const synthetic = deps.archive.synthetic;
  let evidence: EvidenceObject;
  let read: NonNullable<PartAnswer['read']>;
  let decision: Decision;
  if (answers.length === 1) {
    read = answers[0].read!;
    decision = answers[0].decision;
    evidence = assembleEvidence({ ...read, decision, issued, synthetic });
  } else {
    const answer = plotAnswer(answers);
    read = answers[answer.blocks].read!;
    decision = answer.decision;
    evidence = assembleEvidence({ ...read, decision, issued, synthetic, whole: { footprint: prepared.footprint, finding: answer.finding, parts: answer.parts } });
  }
  const chip = await chipFor(prepared.footprint.footprint, read.plan, read.result, deps, signal);
  return {
    evidence,
    integrity: sealEvidence(evidence, deps.signingKey),
    map: { footprint: prepared.footprint.footprint, chip },
    facts: evidenceFacts(read.result.context.blocks, read.result.troughs.seasons_observed, forestPartShare(read.result)),
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
/** Past this extent the chip's windows would grow with the distance between parts, not with the plot: no chip. */
const CHIP_MAX_EXTENT_M = 20_000;

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
 * A true-colour chip of one kept scene around the whole footprint (every part of a multi-part
 * plot, from the scenes of the part that fills the blocks), for the document's map. It is not
 * part of the signed evidence, so a chip that cannot be cut leaves the map without one, and a plot
 * whose parts lie too far apart for one scene's window is drawn without one.
 */
async function chipFor(footprint: Polygon | MultiPolygon, plan: PlotPlan, r: PlotTaskResult, deps: EngineDeps, signal?: AbortSignal): Promise<EvidenceMap['chip']> {
  const id = chipScene(plan, r);
  const scene = id === null ? undefined : plan.sentinel2.get(id);
  const extentM = extentMetres(footprint);
  if (scene === undefined || Math.max(extentM.x, extentM.y) > CHIP_MAX_EXTENT_M) return null;
  try {
    const bbox = footprintBox(footprint, Math.max(CHIP_MARGIN_MIN_M, CHIP_MARGIN_SHARE * Math.max(extentM.x, extentM.y)));
    const m = metresPerDegree((bbox[1] + bbox[3]) / 2);
    const width = Math.min(CHIP_MAX_PX, Math.max(16, Math.round(((bbox[2] - bbox[0]) * m.lon) / CHIP_PIXEL_M)));
    const height = Math.min(CHIP_MAX_PX, Math.max(16, Math.round(((bbox[3] - bbox[1]) * m.lat) / CHIP_PIXEL_M)));
    const layers = await deps.archive.sentinel2.sceneWindows(scene, bbox, ['red', 'green', 'blue'] as const, signal);
    const [red, green, blue] = [layers.red.request, layers.green.request, layers.blue.request];
    const shipment = await shipRasters([red, green, blue], deps.tiles, signal);
    const enc = layers.red.encoding;
    const out = await withShipment(deps.tiles, shipment, (sh) => deps.pool.run('chip', {
      shipment: sh,
      red: red.key,
      green: green.key,
      blue: blue.key,
      reflectance: { scale: enc.scale, offset: enc.offset, nodata: enc.nodata },
      bbox,
      width,
      height,
    }, { signal }));
    return { png: Buffer.from(out.png.buffer, out.png.byteOffset, out.png.byteLength), bbox, scene: scene.id };
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

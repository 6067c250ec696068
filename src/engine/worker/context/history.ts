// The history block's compute half (spec 2.8.4): the moist-forest record's shares, years and facts
// from the six TMF layers over the plot's pixels.
import { classShares } from '../../kernels/class-shares.ts';
import { maskFromBits, type PixelMask } from '../../kernels/rasterise-mask.ts';
import { yearStats, type YearStats } from '../../kernels/year-stats.ts';
import {
  ANNUAL_CLASSES,
  CLEARED_BY_YEAR,
  type ClassShares6,
  CUTOFF_YEAR,
  type EventYears,
  FEW_PIXELS,
  HISTORY_DATASETS,
  HISTORY_NOT_READ,
  type HistoryDataset,
  historyFrame,
  type HistoryLayers,
  historyNotRead,
  type HistoryPrepared,
  type HistoryProvenance,
  type HistoryResult,
  POST_CUTOFF_LOSS_MIN_PIXELS,
  POST_CUTOFF_LOSS_MIN_SHARE,
  type PostCutoffLoss,
  UNDISTURBED_WITHHOLDS_FROM,
} from '../../context/history.ts';
import type { ContextPlot } from '../../context/plot.ts';
import { percent, round, yearSpan } from '../../context/wording.ts';
import { ANNUAL_CHANGE, MAIN_CLASSES, SUBTYPE_PLANTATION_MAX, SUBTYPE_PLANTATION_MIN, TMF_LAST_YEAR } from '../../sources/products/tmf/codes.ts';
import { maskFor, type WorkerRaster } from '../raster-window.ts';
import { plotPixelsOn, tooLittleRead } from '../coverage.ts';
import { coverageShare, covers } from '../../kernels/coverage.ts';
import { rasterAt, readPixels, sameGrid, uint16, uint8 } from './rasters.ts';

const A = ANNUAL_CHANGE;
const M = MAIN_CLASSES;
/** Main classes of pixels that were moist forest at some time in the record; water and other land cover never were. */
const EVER_MOIST = [M.UNDISTURBED, M.DEGRADED, M.REGROWTH, M.DEFORESTED_TO_PLANTATION, M.DEFORESTED_TO_WATER, M.DEFORESTED_TO_OTHER, M.ONGOING_DISTURBANCE];
const NEVER_MOIST = [M.WATER, M.OTHER];
const PLANTATION_SUBTYPES = Array.from({ length: SUBTYPE_PLANTATION_MAX - SUBTYPE_PLANTATION_MIN + 1 }, (_, k) => SUBTYPE_PLANTATION_MIN + k);

const share4 = (v: number | null): number | null => (v === null ? null : round(v, 4));

function eventYears(s: YearStats): EventYears {
  return {
    share_ever: share4(s.share_ever),
    share_before_2021: share4(s.share_before),
    share_2021_or_later: share4(s.share_from),
    year_min: s.year_min,
    year_median: s.year_median,
    year_max: s.year_max,
    before_2021: s.before,
    from_2021: s.from,
  };
}

/** The plot mask narrowed to pixels whose value is in `keep` (a 256-entry lookup). */
function narrowed(mask: PixelMask, values: Uint8Array, keep: Uint8Array): PixelMask {
  const bits = new Uint8Array(mask.width * mask.height);
  const { spans } = mask;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) bits[i] = keep[values[i]];
  }
  return maskFromBits(bits, mask.width, mask.height);
}

function lookup(values: readonly number[]): Uint8Array {
  const t = new Uint8Array(256);
  for (const v of values) t[v] = 1;
  return t;
}

/** Distinct years from `fromYear` on that hold an event inside the mask, ascending. */
function yearsFrom(mask: PixelMask, years: Uint16Array, fromYear: number): number[] {
  const seen = new Set<number>();
  const { spans } = mask;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) if (years[i] >= fromYear) seen.add(years[i]);
  }
  return [...seen].sort((a, b) => a - b);
}

function reading(h: {
  c2020: ClassShares6;
  moist: number;
  never: number;
  deforestation: YearStats;
  plantation: number;
}): string[] {
  const out: string[] = [];
  const { c2020, deforestation: d } = h;
  if (h.never >= 0.995) {
    out.push('The record shows no moist forest on the plot at any time since 1990.');
  } else if (h.moist === 0) {
    out.push(`The record shows no moist forest on the plot at the end of 2020${(c2020.regrowth ?? 0) > 0 ? `; ${percent(c2020.regrowth ?? 0)} was regrowth` : ''}.`);
  } else {
    const parts = [`${percent(c2020.undisturbed_forest ?? 0)} undisturbed`, `${percent(c2020.degraded_forest ?? 0)} degraded`];
    const regrowth = (c2020.regrowth ?? 0) > 0 ? `, and ${percent(c2020.regrowth ?? 0)} was regrowth` : '';
    out.push(`At the end of 2020, ${percent(h.moist)} of the plot was moist forest (${parts.join(', ')})${regrowth}.`);
  }
  if (d.pixels_before > 0 && d.before.year_min !== null && d.before.year_max !== null) {
    out.push(`Deforestation is dated on ${percent(d.share_before ?? 0)} of the plot before 2021, ${yearSpan(d.before.year_min, d.before.year_max)}.`);
  }
  if (d.pixels_from > 0 && d.from.year_min !== null && d.from.year_max !== null) {
    out.push(`Moist forest was lost on ${percent(d.share_from ?? 0)} of the plot after the cutoff, ${yearSpan(d.from.year_min, d.from.year_max)}.`);
  } else if (h.never < 0.995) {
    out.push('No loss of moist forest is dated to 2021 or later.');
  }
  if (h.plantation > 0) out.push(`In 2025, ${percent(h.plantation)} of the plot is mapped as a plantation.`);
  return out;
}

export interface HistoryInput {
  /** Pixels whose centre lies inside the boundary, on the TMF window's grid. */
  mask: PixelMask;
  layers: HistoryLayers;
  tile: string;
  plotAreaHa: number;
  /** The plot's pixels on the TMF grid, wherever the tiles end: what a whole read would count. */
  plotPixels: number;
  /** Ground whose unread record withholds (history rule 3). */
  requiredGround: boolean;
  provenance: HistoryProvenance;
}

/** The block, `post_cutoff_loss` and the facts from the record read over the plot. */
export function readHistory(input: HistoryInput): HistoryResult {
  const { mask, layers, provenance } = input;
  const frameOf = historyFrame(provenance, { checked: true, available: true, tile: input.tile });
  // Rule 1: pixels with no class are dropped; the main-class layer says which pixels carry one.
  const classified = narrowed(mask, layers.TransitionMap_MainClasses, lookup([...EVER_MOIST, ...NEVER_MOIST]));
  const fewPixels =
    mask.count < FEW_PIXELS
      ? `Only ${mask.count} pixel${mask.count === 1 ? '' : 's'} of 30 m ${mask.count === 1 ? 'has its' : 'have their'} centre inside the boundary: the shares rest on few pixels.`
      : null;
  const coverage = coverageShare(classified.count, input.plotPixels);
  if (classified.count === 0) {
    const why = mask.count === 0 ? 'no 30 m pixel has its centre inside the boundary' : 'no pixel inside the boundary carries a class of the record';
    const sentence = `Nothing could be read from the record: ${why}.`;
    return {
      history: { ...frameOf, ...HISTORY_NOT_READ, pixels: mask.count, coverage, reading: [sentence], note_on_read: sentence },
      post_cutoff_loss: null,
      facts: { landsat_record_reads_undisturbed_forest: false, landsat_record_unavailable: false, record_cleared_by_2015: false },
    };
  }
  // Shares of part of the plot say nothing of the rest (kernels/coverage.ts): on ground that needs the
  // record, too little read withholds as an unread record does.
  if (!covers(coverage)) {
    return historyNotRead(provenance, { kind: 'too_little', tile: input.tile, why: tooLittleRead(coverage) }, input.requiredGround, { pixels: mask.count, coverage });
  }
  const shares = (classes: Uint8Array): ClassShares6 => {
    const s = classShares({ mask: classified, classes, names: ANNUAL_CLASSES, noClass: [A.NO_DATA] }).shares as ClassShares6;
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, share4(v)])) as ClassShares6;
  };
  const c1990 = shares(layers.AnnualChange_1990);
  const raw2020 = classShares({ mask: classified, classes: layers.AnnualChange_2020, names: ANNUAL_CLASSES, noClass: [A.NO_DATA] });
  const c2020 = shares(layers.AnnualChange_2020);
  const main = classShares({ mask: classified, classes: layers.TransitionMap_MainClasses, names: { never: NEVER_MOIST }, noClass: [A.NO_DATA] });
  const plantation = classShares({ mask: classified, classes: layers.TransitionMap_Subtypes, names: { plantation: PLANTATION_SUBTYPES }, noClass: [A.NO_DATA] });
  const years = (raster: Uint16Array) => yearStats({ mask: classified, years: raster, yearOffset: 0, none: 0, noData: [], cutoffYear: CUTOFF_YEAR });
  const deforestation = years(layers.DeforestationYear);
  const degradation = years(layers.DegradationYear);

  // The last year a pixel was moist forest: the year before its deforestation, or the record's
  // last year for a pixel never deforested; pixels never moist forest have none.
  const ever = narrowed(classified, layers.TransitionMap_MainClasses, lookup(EVER_MOIST));
  const last = new Uint16Array(mask.width * mask.height);
  for (let s = 0; s < ever.spans.length; s += 2) {
    for (let i = ever.spans[s]; i < ever.spans[s + 1]; i++) {
      const y = layers.DeforestationYear[i];
      last[i] = y === 0 ? TMF_LAST_YEAR : y - 1;
    }
  }
  // Split before the cutoff year, so the "from" side holds the pixels still forest at the end of 2020.
  const lastStats = yearStats({ mask: ever, years: last, yearOffset: 0, none: 0, noData: [], cutoffYear: CUTOFF_YEAR - 1 });

  const undisturbed2020 = raw2020.shares.undisturbed_forest ?? 0;
  const moist2020 = undisturbed2020 + (raw2020.shares.degraded_forest ?? 0);
  const never = main.shares.never ?? 0;
  const plantationShare = plantation.shares.plantation ?? 0;

  // Rule 4: loss dated from 2021 on at least 5% of the plot and at least three pixels.
  const lossShare = deforestation.share_from ?? 0;
  const post_cutoff_loss: PostCutoffLoss | null =
    lossShare >= POST_CUTOFF_LOSS_MIN_SHARE && deforestation.pixels_from >= POST_CUTOFF_LOSS_MIN_PIXELS
      ? {
          share: round(lossShare, 4),
          area_ha: round(lossShare * input.plotAreaHa, 2),
          years: yearsFrom(classified, layers.DeforestationYear, CUTOFF_YEAR + 1),
          source: `${provenance.source} ${provenance.version}, DeforestationYear`,
        }
      : null;

  // Clearing of most of the plot dated to 2015 or earlier, with no moist forest or regrowth left at the cutoff.
  const clearedBy2015 = yearStats({ mask: classified, years: layers.DeforestationYear, yearOffset: 0, none: 0, noData: [], cutoffYear: CLEARED_BY_YEAR });
  const nothingStanding = raw2020.counts.undisturbed_forest + raw2020.counts.degraded_forest + raw2020.counts.regrowth === 0;

  return {
    history: {
      ...frameOf,
      pixels: mask.count,
      coverage,
      classes_1990: c1990,
      classes_2020: c2020,
      moist_forest_2020_share: round(moist2020, 4),
      never_moist_forest_share: round(never, 4),
      deforestation_year: eventYears(deforestation),
      degradation_year: eventYears(degradation),
      last_moist_forest_year: {
        median: lastStats.year_median,
        max: lastStats.year_max,
        share_at_cutoff: share4(lastStats.share_from),
      },
      plantation_2025_share: round(plantationShare, 4),
      reading: reading({ c2020, moist: moist2020, never, deforestation, plantation: plantationShare }),
      note_on_read: fewPixels,
    },
    post_cutoff_loss,
    facts: {
      landsat_record_reads_undisturbed_forest: undisturbed2020 >= UNDISTURBED_WITHHOLDS_FROM,
      landsat_record_unavailable: false,
      record_cleared_by_2015: (clearedBy2015.share_before ?? 0) > 0.5 && nothingStanding,
    },
  };
}

/** The plot's mask and the six layers on the TMF grid, or null when the record was not read. */
export function historyLayers(p: HistoryPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): { mask: PixelMask; plotPixels: number; layers: HistoryLayers } | null {
  if (p.state !== 'read') return null;
  const r = Object.fromEntries(HISTORY_DATASETS.map((d) => [d, rasterAt(rasters, p.keys[d])])) as Record<HistoryDataset, WorkerRaster>;
  sameGrid('the moist-forest record', Object.values(r));
  return {
    // A tile missing beside one read reads as 0, no data: the record is read over the pixels read.
    mask: readPixels(maskFor(r.AnnualChange_2020, plot.footprint), p.keys.AnnualChange_2020, p.partlyRead),
    plotPixels: plotPixelsOn(r.AnnualChange_2020, plot.footprint),
    layers: {
      AnnualChange_1990: uint8(r.AnnualChange_1990, 'AnnualChange_1990'),
      AnnualChange_2020: uint8(r.AnnualChange_2020, 'AnnualChange_2020'),
      DeforestationYear: uint16(r.DeforestationYear, 'DeforestationYear'),
      DegradationYear: uint16(r.DegradationYear, 'DegradationYear'),
      TransitionMap_MainClasses: uint8(r.TransitionMap_MainClasses, 'TransitionMap_MainClasses'),
      TransitionMap_Subtypes: uint8(r.TransitionMap_Subtypes, 'TransitionMap_Subtypes'),
    },
  };
}

export function computeHistory(p: HistoryPrepared, read: ReturnType<typeof historyLayers>, plot: ContextPlot): HistoryResult {
  if (p.state !== 'read' || read === null) {
    return historyNotRead(p.provenance, p.state === 'read' ? { kind: 'unreadable', tile: p.tile, why: 'the windows were not read' } : p.notRead, p.requiredGround);
  }
  return readHistory({ mask: read.mask, layers: read.layers, tile: p.tile, plotAreaHa: plot.area_ha, plotPixels: read.plotPixels, requiredGround: p.requiredGround, provenance: p.provenance });
}

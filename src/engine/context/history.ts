// The `history` block and `post_cutoff_loss` (spec 2.8.4): the JRC Tropical Moist Forest record
// over the plot's 30 m pixels, and the three facts it gives the decision rules (at least half
// undisturbed forest at the end of 2020; Indonesian or Malaysian ground whose record could not be
// read; clearing of most of the plot dated to 2015 or earlier).
import type { YearRange } from '../kernels/year-stats.ts';
import { ANNUAL_CHANGE } from '../sources/products/tmf/codes.ts';
import type { PartlyRead } from './partly-read.ts';

export const CUTOFF_YEAR = 2020;
/** Spec 2.8.4 rule 3: at least half the plot undisturbed moist forest at the end of 2020 withholds. */
export const UNDISTURBED_WITHHOLDS_FROM = 0.5;
/** Spec 2.8.4 rule 4: loss dated from 2021 on at least 5% of the plot and at least three pixels. */
export const POST_CUTOFF_LOSS_MIN_SHARE = 0.05;
export const POST_CUTOFF_LOSS_MIN_PIXELS = 3;
/** Under this many 30 m pixels the block says its shares rest on few pixels. */
export const FEW_PIXELS = 12;
/** Spec 2.10 `shade_veto_overruled_by_structure_and_record`: clearing dated to this year or earlier. */
export const CLEARED_BY_YEAR = 2015;
/** Ground whose unreadable record withholds a positive finding (spec 2.8.4 rule 3). */
export const RECORD_REQUIRED_IN = ['ID', 'MY'] as const;

/** The TMF datasets the block reads, in the order `layers` names them. */
export const HISTORY_DATASETS = [
  'AnnualChange_1990',
  'AnnualChange_2020',
  'DeforestationYear',
  'DegradationYear',
  'TransitionMap_MainClasses',
  'TransitionMap_Subtypes',
] as const;
export type HistoryDataset = (typeof HISTORY_DATASETS)[number];

const A = ANNUAL_CHANGE;
export const ANNUAL_CLASSES = {
  undisturbed_forest: [A.UNDISTURBED],
  degraded_forest: [A.DEGRADED],
  deforested_land: [A.DEFORESTED],
  regrowth: [A.REGROWTH],
  water: [A.WATER],
  other_land_cover: [A.OTHER],
} as const;
export interface HistoryProvenance {
  source: string;
  version: string;
  licence: string;
  citation: string;
  acknowledgement: string;
}

export type ClassShares6 = Record<keyof typeof ANNUAL_CLASSES, number | null>;

export interface EventYears {
  share_ever: number | null;
  share_before_2021: number | null;
  share_2021_or_later: number | null;
  year_min: number | null;
  year_median: number | null;
  year_max: number | null;
  before_2021: YearRange;
  from_2021: YearRange;
}

export interface HistoryBlock {
  note: string;
  source: string;
  version: string;
  resolution_m: number;
  record: string;
  layers: string[];
  licence: string;
  citation: string;
  acknowledgement: string;
  definition: string;
  cutoff_year: number;
  checked: boolean;
  available: boolean;
  tile: string | null;
  pixels: number | null;
  /** Share of the plot's 30 m pixels that carry a class of the record (0..1); null when nothing was read. */
  coverage: number | null;
  classes_1990: ClassShares6 | null;
  classes_2020: ClassShares6 | null;
  moist_forest_2020_share: number | null;
  never_moist_forest_share: number | null;
  deforestation_year: EventYears | null;
  degradation_year: EventYears | null;
  last_moist_forest_year: { median: number | null; max: number | null; share_at_cutoff: number | null } | null;
  plantation_2025_share: number | null;
  reading: string[];
  note_on_read: string | null;
}

export interface PostCutoffLoss {
  share: number;
  area_ha: number;
  years: number[];
  source: string;
}

export interface HistoryFacts {
  landsat_record_reads_undisturbed_forest: boolean;
  landsat_record_unavailable: boolean;
  record_cleared_by_2015: boolean;
}

export interface HistoryResult {
  history: HistoryBlock;
  post_cutoff_loss: PostCutoffLoss | null;
  facts: HistoryFacts;
}

/** The six TMF layers over one window (all on the product's one grid), raw values. */
export interface HistoryLayers {
  AnnualChange_1990: Uint8Array;
  AnnualChange_2020: Uint8Array;
  DeforestationYear: Uint16Array;
  DegradationYear: Uint16Array;
  TransitionMap_MainClasses: Uint8Array;
  TransitionMap_Subtypes: Uint8Array;
}

const NOTE =
  'The Landsat record of tropical moist forest (JRC TMF, 1990 to 2025) summarised over the 30 m pixels whose centre lies inside the boundary. It withholds a positive finding when at least half of the plot was undisturbed moist forest at the end of 2020; otherwise it changes nothing.';
const DEFINITION =
  'Tropical moist forest is closed evergreen and semi-evergreen forest of the humid tropics as the product maps it from every Landsat scene since 1982. Undisturbed: no disturbance observed; degraded: disturbed but still forest; deforested land: forest cover lost; regrowth: forest growing back after deforestation. Shares are of the classified pixels; pixels without a class are dropped, not counted as other land cover.';

/** Every figure of the block, null: what a block that read nothing serves. */
export const HISTORY_NOT_READ = {
  pixels: null,
  coverage: null,
  classes_1990: null,
  classes_2020: null,
  moist_forest_2020_share: null,
  never_moist_forest_share: null,
  deforestation_year: null,
  degradation_year: null,
  last_moist_forest_year: null,
  plantation_2025_share: null,
} as const;

/** The block's description of itself, the same whether or not the record was read. */
type HistoryFrame = Omit<HistoryBlock, keyof typeof HISTORY_NOT_READ | 'reading' | 'note_on_read'>;

export function historyFrame(p: HistoryProvenance, state: { checked: boolean; available: boolean; tile: string | null }): HistoryFrame {
  return {
    note: NOTE,
    source: p.source,
    version: p.version,
    resolution_m: 30,
    record: '1990–2025',
    layers: [...HISTORY_DATASETS],
    licence: p.licence,
    citation: p.citation,
    acknowledgement: p.acknowledgement,
    definition: DEFINITION,
    cutoff_year: CUTOFF_YEAR,
    ...state,
  };
}

export type HistoryNotRead =
  /** Outside the product's tiles: nothing asked for. */
  | { kind: 'outside_coverage'; tile: string | null; why: string }
  /** The tile exists (or should) but could not be read: nothing is remembered. */
  | { kind: 'unreadable'; tile: string | null; why: string }
  /** Read, but its classes cover too little of the plot to give shares from (kernels/coverage.ts). */
  | { kind: 'too_little'; tile: string | null; why: string };

/**
 * The block when the record was not read. Neither case is a plot without history: every figure
 * is null, and only unreadable Indonesian or Malaysian ground withholds a finding. Outside the
 * tiles the product is there but does not cover the ground (`available` stays true); a tile that
 * could not be read is `available: false`, so the two are told apart.
 */
export function historyNotRead(p: HistoryProvenance, notRead: HistoryNotRead, requiredGround: boolean, read: { pixels: number; coverage: number } | null = null): HistoryResult {
  const outside = notRead.kind === 'outside_coverage';
  const sentence = {
    outside_coverage: `The plot lies outside the tiles of the moist-forest record (${notRead.why}); no read was attempted. This is not a plot without history.`,
    unreadable: `The moist-forest record could not be read (${notRead.why}); nothing was remembered, and running the plot again asks again. This is not a plot without history.`,
    too_little: `The moist-forest record was read over too little of the plot to give shares (${notRead.why}). This is not a plot without history.`,
  }[notRead.kind];
  return {
    history: {
      ...historyFrame(p, { checked: false, available: outside, tile: notRead.tile }),
      ...HISTORY_NOT_READ,
      ...read,
      reading: [sentence],
      note_on_read: sentence,
    },
    post_cutoff_loss: null,
    facts: {
      landsat_record_reads_undisturbed_forest: false,
      landsat_record_unavailable: !outside && requiredGround,
      record_cleared_by_2015: false,
    },
  };
}

export type HistoryPrepared = { provenance: HistoryProvenance; requiredGround: boolean } & (
  | { state: 'read'; tile: string; keys: Record<HistoryDataset, string>; partlyRead?: PartlyRead }
  | { state: 'not_read'; notRead: HistoryNotRead }
);


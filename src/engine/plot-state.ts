/**
 * What the record shows on a plot (spec 2.14): `{tone, label, summary}` on every register row,
 * shipment plot and book-summary row, whatever the plot's size and whether or not it was read. It
 * issues and withholds nothing; a client branches on `tone`.
 *
 * The rows of the spec's table are tried in its order and the first that holds decides tone and
 * label, except that a plot not read yet says so before the evidence floor is said of it. The
 * summary is built from a fixed vocabulary only, so it can be counted and translated.
 */
import { EVIDENCE_FLOOR_KM2, type Verdict } from './decide.ts';

export type PlotTone = 'finding' | 'record' | 'forest_mapped';

export interface PlotState {
  tone: PlotTone;
  label: string;
  summary: string;
}

export type ReadState = 'none' | 'queued' | 'running' | 'done' | 'failed';

/** The Landsat moist-forest record's class of the plot at the end of 2020, as the history block reads it. */
export const LANDSAT_2020_CLASSES = [
  /** At least half the plot undisturbed moist forest (history rule 3). */
  'undisturbed_forest',
  'degraded_forest',
  'cleared_before_2021',
  'outside_moist_forest',
  'mixed_cover',
  /** The plot lies outside the product's tiles. */
  'not_covered',
] as const;
export type Landsat2020Class = (typeof LANDSAT_2020_CLASSES)[number];

/**
 * The facts of a plot's stored evidence that its state needs, written with the evidence and cleared
 * when it is withdrawn. Absent or null: not read.
 */
export interface EvidenceFacts {
  /** A dated reading from a sub-metre archive scene on record supports cultivation before the cutoff. */
  archive_cultivation?: boolean | null;
  /** Share of the plot the Commission's 2020 maps class as forest (0..1). */
  eu_maps_forest_share?: number | null;
  /** Share of the plot the 2020 forest-type map classes as planted forest (0..1). */
  eu_maps_planted_share?: number | null;
  landsat_2020?: Landsat2020Class | null;
  /** Dry seasons the record could measure. */
  seasons_measured?: number | null;
  /** Share of the plot a structural instrument reads forest-like block by block (0..1; 0: no forest part). */
  forest_part_share?: number | null;
}

export interface PlotStateInput extends EvidenceFacts {
  evidence_state: ReadState;
  area_ha: number | null;
  /** The stored evidence carries a positive finding (verdict prior_management_evidenced). */
  positive_finding?: boolean | null;
}

/** "Most of the plot": the share at which the maps' forest reading withholds a finding (eu_forest_maps_read_forest, planted_forest_2020). */
export const MAPS_MOSTLY_SHARE = 0.5;
/** At most a tenth of the plot in forest is "not forest", as in shade_veto_overruled_by_structure_and_eu_maps. */
export const MAPS_NOT_FOREST_SHARE = 0.1;

const FLOOR_HA = EVIDENCE_FLOOR_KM2 * 100;

export const LABELS = {
  established: 'Established before the cutoff',
  archive: 'Cultivated on the archive scene date',
  underFloor: 'Record only, under the evidence floor',
  forestMaps: 'Forest on the 2020 maps',
  forestLandsat: 'Forest in the Landsat record',
  recordOnly: 'Record only',
  none: 'Not read yet',
  queued: 'Queued',
  running: 'Reading',
  failed: 'Could not be read',
} as const;

/** The summary's fixed vocabulary (spec 2.14). */
export const MAPS_READINGS = ['mostly forest', 'mostly planted forest', 'partly forest', 'not forest', 'not read'] as const;
export const LANDSAT_READINGS: Record<Landsat2020Class | 'not_read', string> = {
  undisturbed_forest: 'undisturbed forest at the end of 2020',
  degraded_forest: 'degraded forest at the end of 2020',
  cleared_before_2021: 'cleared before 2021',
  outside_moist_forest: 'outside moist forest',
  mixed_cover: 'mixed cover at the end of 2020',
  not_covered: 'does not cover this ground',
  not_read: 'not read',
};
const READ_STATE_LEADS: Record<Exclude<ReadState, 'done'>, string> = {
  none: 'Not read yet.',
  queued: 'Queued for reading.',
  running: 'Being read.',
  failed: 'Could not be read.',
};

const known = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

export function mapsReading(facts: EvidenceFacts): (typeof MAPS_READINGS)[number] {
  const forest = facts.eu_maps_forest_share;
  if (!known(forest)) return 'not read';
  if (known(facts.eu_maps_planted_share) && facts.eu_maps_planted_share >= MAPS_MOSTLY_SHARE) return 'mostly planted forest';
  if (forest >= MAPS_MOSTLY_SHARE) return 'mostly forest';
  if (forest > MAPS_NOT_FOREST_SHARE) return 'partly forest';
  return 'not forest';
}

function seasonsReading(count: number | null | undefined): string {
  if (!known(count)) return 'No dry season read yet.';
  if (count === 0) return 'No dry season could be read.';
  return count === 1 ? '1 dry season could be read.' : `${count} dry seasons could be read.`;
}

function summaryOf(input: PlotStateInput): string {
  const parts: string[] = [];
  if (input.evidence_state !== 'done') parts.push(READ_STATE_LEADS[input.evidence_state]);
  parts.push(`2020 maps: ${mapsReading(input)}.`);
  parts.push(`Landsat record: ${LANDSAT_READINGS[input.landsat_2020 ?? 'not_read']}.`);
  if (known(input.forest_part_share) && input.forest_part_share > 0) {
    parts.push(`Structural readings: forest-like on ${Math.max(1, Math.round(input.forest_part_share * 100))}% of the plot.`);
  }
  parts.push(seasonsReading(input.seasons_measured));
  return parts.join(' ');
}

function toneAndLabel(input: PlotStateInput): { tone: PlotTone; label: string } {
  if (input.positive_finding === true) return { tone: 'finding', label: LABELS.established };
  if (input.archive_cultivation === true) return { tone: 'finding', label: LABELS.archive };
  // The floor is said of a read plot: until then a small plot reads as unread as any other.
  if (input.evidence_state !== 'done') return { tone: 'record', label: LABELS[input.evidence_state] };
  if (known(input.area_ha) && input.area_ha < FLOOR_HA) return { tone: 'record', label: LABELS.underFloor };
  if (known(input.eu_maps_forest_share) && input.eu_maps_forest_share >= MAPS_MOSTLY_SHARE) {
    return { tone: 'forest_mapped', label: LABELS.forestMaps };
  }
  if (input.landsat_2020 === 'undisturbed_forest') return { tone: 'forest_mapped', label: LABELS.forestLandsat };
  return { tone: 'record', label: LABELS.recordOnly };
}

export function plotState(input: PlotStateInput): PlotState {
  return { ...toneAndLabel(input), summary: summaryOf(input) };
}

const POSITIVE: Verdict = 'prior_management_evidenced';

/** What a register row holds for its state: the plots table's columns of the same names. */
export interface PlotStateColumns {
  evidence_state: ReadState;
  area_ha: number | null;
  verdict: string | null;
  evidence_facts: EvidenceFacts | null;
}

/** The state of a stored plot, from its register columns. */
export function plotStateOfRow(row: PlotStateColumns): PlotState {
  return plotState({ ...(row.evidence_facts ?? {}), evidence_state: row.evidence_state, area_ha: row.area_ha, positive_finding: row.verdict === POSITIVE });
}

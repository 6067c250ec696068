/**
 * Validating and importing one uploaded plot file into a workspace's register (spec 2.3, 3.1, 4.1).
 * An import diffs the file against the stored plots by `ref` and writes the whole file in one
 * transaction (src/store/register/imports.ts), or writes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Em } from '../store/orm.ts';
import { insertPlots, storedByRef, storedRepeats, updatePlots, type PlotColumns, type PlotUpdate, type StoredPlot } from '../store/register/imports.ts';
import { lockRegister } from '../store/register/lock.ts';
import { takingTurns } from '../turns.ts';
import { boundaryMoved } from './boundary-shift.ts';
import { resolveCountry } from './countries.ts';
import { POINT_AREA, type Finding } from './findings.ts';
import type { PlotJudge } from './plot-file.ts';
import { workspaceProducers } from './producer-register.ts';
import type { PlotGeometry, RowError } from './types.ts';
import type { IntakeReport, PlotReport, ValidationState } from './validate.ts';

export interface PlotFileInput {
  workspaceId: string;
  bytes: Uint8Array;
  filename?: string;
  /** The query's `country` as sent (any accepted form); null or blank names none. */
  country?: string | null;
  now?: Date;
}

export type PlotOutcome = 'created' | 'updated' | 'unchanged' | 'duplicate_ref';

/** One plot's entry in the answer of validate and import. */
export interface PlotEntry {
  index: number;
  ref: string | null;
  validation_state: ValidationState;
  /** The area the register holds: measured on a boundary; for a point the declared area, else 4 ha. */
  area_ha: number | null;
  country: string | null;
  producer_id: string | null;
  findings: Finding[];
  repairs: Finding[];
  rejections: Finding[];
  /** Import only: the register's plot (a repeated ref's too, stored rejected without the ref). */
  plot_id?: string | null;
  outcome?: PlotOutcome;
  /** Import only, on a stored plot whose boundary moved: its evidence withdrawn, or a read in flight (spec 3.1). */
  evidence?: 'stale' | 'in_flight';
}

export interface ValidationAnswer {
  /** The query's country as alpha-2; absent when the query named none (spec 2.3 types it a string). */
  country?: string;
  notes: string[];
  notes_omitted: number;
  row_errors: RowError[];
  row_errors_omitted: number;
  plots: PlotEntry[];
}

export interface ImportCounters {
  /** New plots, with or without a ref. */
  created: number;
  /** Stored plots (matched on ref) that the file changed. */
  updated: number;
  /** Stored plots the file repeats unchanged. */
  skipped: number;
  /** Plots left out because an earlier plot of the file has the same ref. */
  duplicate_refs: number;
  /** New plots without a ref, which a later upload cannot match. */
  unreferenced_inserted: number;
  /** Plots of the file now in the register: created + updated + skipped. */
  registered: number;
  producers_matched: number;
  producers_unmatched: number;
  evidence_stale: number;
  evidence_in_flight: number;
}

export interface ImportAnswer extends ValidationAnswer {
  imported: ImportCounters;
}

/** The area the register holds for a plot (a point stands for its declared area, or the 4 ha the EU system assumes). */
function registeredArea(plot: PlotReport): number | null {
  if (plot.area_ha !== null) return plot.area_ha;
  if (plot.geometry?.type === 'Point') return plot.declared_area_ha ?? POINT_AREA.assumedHa;
  return plot.declared_area_ha;
}

function entryOf(plot: PlotReport): PlotEntry {
  return {
    index: plot.index,
    ref: plot.ref,
    validation_state: plot.validation_state,
    area_ha: registeredArea(plot),
    country: plot.country,
    producer_id: plot.producer_id,
    findings: plot.findings,
    repairs: plot.repairs,
    rejections: plot.rejections,
  };
}

/** The file judged by `judge` (the API's intake pool) against the query's country and the workspace's producers. */
async function judgeFile(em: Em, judge: PlotJudge, input: PlotFileInput): Promise<IntakeReport> {
  const country = input.country?.trim() ? resolveCountry(input.country) : null;
  const producers = await workspaceProducers(em, input.workspaceId);
  return judge({ bytes: input.bytes, filename: input.filename, country, producers, now: input.now }, input.workspaceId);
}

/** The report's `country`: the query's, or no key at all when it named none (never null). */
const queryCountry = (country: string | null) => (country === null ? {} : { country });

/** POST /portal/plots/validate: the report an import would give, storing nothing. */
export async function validatePlotFile(em: Em, judge: PlotJudge, input: PlotFileInput): Promise<ValidationAnswer> {
  const report = await judgeFile(em, judge, input);
  return { ...queryCountry(report.country), notes: report.notes, notes_omitted: report.notes_omitted, row_errors: report.row_errors, row_errors_omitted: report.row_errors_omitted, plots: report.plots.map(entryOf) };
}

function reportOf(plot: PlotReport) {
  return { findings: plot.findings, repairs: plot.repairs, rejections: plot.rejections };
}

const sameFindings = (a: Finding[], b: Finding[]) =>
  a.length === b.length && a.every((f, i) => f.code === b[i].code && f.message === b[i].message);

const sameGeometry = (a: PlotGeometry | null, b: PlotGeometry | null) =>
  a === null || b === null ? a === b : a.type === b.type && JSON.stringify(a.coordinates) === JSON.stringify(b.coordinates);

function unchanged(stored: StoredPlot, row: PlotColumns): boolean {
  return (
    stored.commodity === row.commodity &&
    stored.country === row.country &&
    stored.area_ha === row.area_ha &&
    stored.declared_area_ha === row.declared_area_ha &&
    stored.validation_state === row.validation_state &&
    stored.planted_year === row.planted_year &&
    stored.producer_id === row.producer_id &&
    sameGeometry(stored.geometry, row.geometry) &&
    sameFindings(stored.validation_report.findings, row.validation_report.findings) &&
    sameFindings(stored.validation_report.repairs, row.validation_report.repairs) &&
    sameFindings(stored.validation_report.rejections, row.validation_report.rejections)
  );
}

const namedProducer = (plot: PlotReport) =>
  plot.producer_id !== null || plot.findings.some((f) => f.code === 'producer_not_found' || f.code === 'producer_ambiguous');

const isRepeat = (plot: PlotReport) => plot.rejections.some((f) => f.code === 'duplicate_ref');

type PlotWrite = { insert: PlotColumns } | { update: PlotUpdate } | null;

/**
 * What one plot does to the register: the row it writes (none when unchanged), counted and entered in
 * the answer. A repeat of a ref earlier in the file is stored too, rejected and without the ref, which
 * its report's `repeat_of` names (spec 4.1: rejected plots are stored).
 */
function diffPlot(plot: PlotReport, entry: PlotEntry, previous: StoredPlot | undefined, counters: ImportCounters): PlotWrite {
  if (plot.producer_id !== null) counters.producers_matched++;
  else if (namedProducer(plot)) counters.producers_unmatched++;
  const repeat = isRepeat(plot);
  const row: PlotColumns = {
    id: previous?.id ?? randomUUID(),
    external_ref: repeat ? null : plot.ref,
    commodity: plot.commodity,
    country: plot.country ?? previous?.country ?? null,
    area_ha: entry.area_ha,
    declared_area_ha: plot.declared_area_ha,
    geometry: plot.geometry,
    validation_state: plot.validation_state,
    validation_report: repeat ? { ...reportOf(plot), repeat_of: plot.ref! } : reportOf(plot),
    planted_year: plot.planted_year,
    producer_id: plot.producer_id ?? previous?.producer_id ?? null,
  };
  entry.plot_id = row.id;
  entry.country = row.country;
  entry.producer_id = row.producer_id;
  if (repeat) {
    counters.duplicate_refs++;
    entry.outcome = 'duplicate_ref';
    if (!previous) return { insert: row };
    return unchanged(previous, row) ? null : { update: { ...row, moved: boundaryMoved(previous.geometry, row.geometry) } };
  }
  if (!previous) {
    counters.created++;
    if (plot.ref === null) counters.unreferenced_inserted++;
    entry.outcome = 'created';
    return { insert: row };
  }
  if (unchanged(previous, row)) {
    counters.skipped++;
    entry.outcome = 'unchanged';
    return null;
  }
  const moved = boundaryMoved(previous.geometry, row.geometry);
  if (moved && previous.evidence_state === 'done') {
    counters.evidence_stale++;
    entry.evidence = 'stale';
  } else if (moved && (previous.evidence_state === 'queued' || previous.evidence_state === 'running')) {
    counters.evidence_in_flight++;
    entry.evidence = 'in_flight';
  }
  counters.updated++;
  entry.outcome = 'updated';
  return { update: { ...row, moved } };
}

/** Plots diffed and written per chunk, so the stored rows held for the diff stay a chunk's worth. */
const DIFF_CHUNK = 5000;

/**
 * POST /portal/plots/import. Every plot of the file is stored, rejected ones with their findings; a
 * ref already in the register updates that plot. A file that names no country leaves a stored
 * country untouched, and a producer name that matches none leaves a stored producer attached.
 * Throws a DomainError (nothing written) for a file that cannot be taken as a whole.
 */
export async function importPlots(em: Em, judge: PlotJudge, input: PlotFileInput): Promise<ImportAnswer> {
  const report = await judgeFile(em, judge, input);
  const counters: ImportCounters = {
    created: 0, updated: 0, skipped: 0, duplicate_refs: 0, unreferenced_inserted: 0, registered: 0,
    producers_matched: 0, producers_unmatched: 0, evidence_stale: 0, evidence_in_flight: 0,
  };
  const entries = report.plots.map(entryOf);
  const turn = takingTurns();

  await em.transactional(async (tx) => {
    await lockRegister(tx, input.workspaceId);
    // Repeats are few; read once, so a ref repeated across chunks matches its stored repeats in file order.
    const repeats = await storedRepeats(tx, input.workspaceId, report.plots.filter(isRepeat).map((p) => p.ref!));
    for (let start = 0; start < report.plots.length; start += DIFF_CHUNK) {
      const plots = report.plots.slice(start, start + DIFF_CHUNK);
      const stored = await storedByRef(tx, input.workspaceId, plots.filter((p) => p.ref !== null && !isRepeat(p)).map((p) => p.ref!));
      const inserts: PlotColumns[] = [];
      const updates: PlotUpdate[] = [];
      for (const [k, plot] of plots.entries()) {
        await turn();
        const previous = plot.ref === null ? undefined : isRepeat(plot) ? repeats.get(plot.ref)?.shift() : stored.get(plot.ref);
        const write = diffPlot(plot, entries[start + k], previous, counters);
        if (write && 'insert' in write) inserts.push(write.insert);
        else if (write) updates.push(write.update);
      }
      await insertPlots(tx, input.workspaceId, inserts);
      await updatePlots(tx, input.workspaceId, updates);
    }
  });
  counters.registered = counters.created + counters.updated + counters.skipped + counters.duplicate_refs;
  return { imported: counters, ...queryCountry(report.country), notes: report.notes, notes_omitted: report.notes_omitted, row_errors: report.row_errors, row_errors_omitted: report.row_errors_omitted, plots: entries };
}

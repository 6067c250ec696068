import { ACCEPTED_COUNTRY_FORMS, countryContains, isRecognisedCountry, lookupCountry } from './countries.ts';
import {
  AREA_TOLERANCE,
  MIN_POLYGON_M2,
  POINT_AREA,
  REQUIRED_DECIMALS,
  effectOf,
  finding,
  type Finding,
} from './findings.ts';
import { polygonsAreaHa } from './geodesic.ts';
import { onLand } from './land.ts';
import { CAP_VARIABLES, DEFAULT_CAPS, type IntakeCaps, MAX_NOTES, MAX_REF_CHARS } from './limits.ts';
import { PlotOutOfTime, plotDeadline, type PlotDeadline } from './plot-deadline.ts';
import { producerMatcher, type ProducerMatch, type ProducerRef } from './producers.ts';
import { numberFrom, plotProperties, plotReference, textFrom } from './properties.ts';
import { tidyRings } from './rings.ts';
import { centroidOf, onEarth, readShape, swapAxes, type Shape } from './shape.ts';
import { isStorableText } from './text.ts';
import { checkTopology, splitAtAntimeridian, unwrapAntimeridian } from './topology.ts';
import type { ParsedFile, PlotGeometry, Position, RawPlot, RowError, SourceFormat } from './types.ts';

export type ValidationState = 'valid' | 'repaired' | 'rejected';

/** The validation report of one plot: what a filing would refuse, what was repaired, what to know. */
export interface PlotReport {
  index: number;
  ref: string | null;
  validation_state: ValidationState;
  findings: Finding[];
  repairs: Finding[];
  rejections: Finding[];
  /** WGS84 GeoJSON as repaired; null when no usable boundary could be read. */
  geometry: PlotGeometry | null;
  /** Ellipsoidal (WGS84) area measured on the boundary; null for a point. */
  area_ha: number | null;
  declared_area_ha: number | null;
  commodity: string | null;
  /** Alpha-2: the feature's own country, else the query's; null when neither names one. */
  country: string | null;
  planted_year: number | null;
  producer_id: string | null;
}

export interface IntakeReport {
  format: SourceFormat;
  /** The query's country (alpha-2), or null. */
  country: string | null;
  /** The first MAX_NOTES notes. */
  notes: string[];
  /** Notes beyond those listed. */
  notes_omitted: number;
  row_errors: RowError[];
  row_errors_omitted: number;
  plots: PlotReport[];
}

export interface ValidateOptions {
  /** Alpha-2 from resolveCountry() of the query's `country`; null or absent when it names none. */
  country?: string | null;
  /** The workspace's producers, matched by name ignoring case and spacing; never added to. */
  producers?: readonly ProducerRef[];
  /** The present, for the planted_year bound. */
  now?: Date;
  /** Bounds on each plot's geometry and judging time; DEFAULT_CAPS when absent. */
  caps?: IntakeCaps;
}

const FIRST_PLANTED_YEAR = 1900;

interface Context {
  country: string | null;
  matchProducer: (name: string) => ProducerMatch;
  thisYear: number;
  caps: IntakeCaps;
  /** Plots whose axis order could not be checked for want of a country. */
  uncheckedNoCountry: number;
  /** Countries given but outside the recognised list. */
  uncheckedCountries: Set<string>;
  /** Plots whose reference was read from somewhere other than `ref`, by where. */
  refsFrom: Map<string, number>;
}

/** Judges every plot of a parsed file as the EU information system would for a filing. Pure: stores nothing. */
export function validatePlots(file: ParsedFile, options: ValidateOptions = {}): IntakeReport {
  const plots: PlotReport[] = [];
  const summary = judgeEachPlot(file, options, (report) => plots.push(report));
  return { ...summary, plots };
}

/**
 * The same judgement plot by plot: each plot's report is handed to `take` as soon as it is made
 * (a worker passes it on and keeps none), and the file's summary is answered at the end.
 */
export function judgeEachPlot(file: ParsedFile, options: ValidateOptions, take: (report: PlotReport) => void): Omit<IntakeReport, 'plots'> {
  const context: Context = {
    country: options.country ?? null,
    matchProducer: producerMatcher(options.producers ?? []),
    thisYear: (options.now ?? new Date()).getUTCFullYear(),
    caps: options.caps ?? DEFAULT_CAPS,
    uncheckedNoCountry: 0,
    uncheckedCountries: new Set(),
    refsFrom: new Map(),
  };
  const refs = new Set<string>();
  for (const raw of file.plots) {
    const report = judgePlot(raw, context);
    if (report.ref !== null) {
      if (refs.has(report.ref)) {
        report.rejections.push(finding('duplicate_ref', `The ref is "${report.ref}".`));
        report.validation_state = 'rejected';
      }
      refs.add(report.ref);
    }
    take(report);
  }
  const notes = [...file.notes];
  if (context.uncheckedNoCountry > 0) {
    notes.push(
      `The country was not checked for ${context.uncheckedNoCountry} plot(s), and their axis order only against land: no country was given (the query's country or a feature's country).`,
    );
  }
  for (const [from, count] of context.refsFrom) {
    notes.push(`The reference of ${count} plot(s) without a "ref" was read from ${from}; a re-upload matches on it.`);
  }
  for (const code of context.uncheckedCountries) {
    notes.push(`The country was not checked for plots in ${code}, and their axis order only against land: the country is outside the recognised list.`);
  }
  // A note per layer of a zip, say, is bounded by the zip's entries; the report lists no more than MAX_NOTES all the same.
  return {
    format: file.format,
    country: context.country,
    notes: notes.slice(0, MAX_NOTES),
    notes_omitted: Math.max(0, notes.length - MAX_NOTES),
    row_errors: file.row_errors,
    row_errors_omitted: file.row_errors_omitted,
  };
}

const outOfTime = (out: PlotOutOfTime, caps: IntakeCaps) =>
  finding('geometry_too_complex', `Judging it was stopped after ${Math.round(out.tookMs)} ms; the most one plot may take is ${caps.plotBudgetMs} ms (${CAP_VARIABLES.plotBudgetMs}).`);

const ha = (x: number) => `${Number(x.toFixed(4))} ha`;

const tooLarge = (how: string, area: number, context: Context) =>
  finding('plot_too_large', `${how}: ${ha(area)}; the largest plot taken is ${ha(context.caps.plotAreaHa)} (${CAP_VARIABLES.plotAreaHa}).`);

function judgePlot(raw: RawPlot, context: Context): PlotReport {
  const found: Finding[] = [];
  const storable = storableProperties(raw.properties, found);
  const props = plotProperties(storable);
  const reference = plotReference(storable, raw.featureId);
  let ref = textFrom(reference.value);
  if (ref === null) found.push(finding('no_reference'));
  else if (reference.from !== null) context.refsFrom.set(reference.from, (context.refsFrom.get(reference.from) ?? 0) + 1);
  if (ref !== null && [...ref].length > MAX_REF_CHARS) {
    found.push(finding('ref_too_long', `It has ${[...ref].length} characters.`));
    ref = null;
  }
  const commodity = textFrom(props.commodity);

  let declared: number | null = null;
  if (props.area_ha !== undefined) {
    declared = numberFrom(props.area_ha);
    if (declared === null) found.push(finding('bad_area', `It reads "${String(props.area_ha)}".`));
  }

  let plantedYear: number | null = null;
  if (props.planted_year !== undefined) {
    const year = numberFrom(props.planted_year);
    if (year !== null && Number.isInteger(year) && year >= FIRST_PLANTED_YEAR && year <= context.thisYear) plantedYear = year;
    else found.push(finding('bad_planted_year', `It reads "${String(props.planted_year)}".`));
  }

  let producerId: string | null = null;
  const producerName = textFrom(props.producer);
  if (producerName !== null) {
    const match = context.matchProducer(producerName);
    if (match === 'not_found') found.push(finding('producer_not_found', `The name is "${producerName}".`));
    else if (match === 'ambiguous') found.push(finding('producer_ambiguous', `The name is "${producerName}".`));
    else producerId = match.id;
  }

  let country = context.country;
  if (props.country !== undefined) {
    const own = typeof props.country === 'string' ? lookupCountry(props.country) : null;
    if (own !== null) country = own;
    else found.push(finding('unknown_country', `It reads "${String(props.country)}". ${ACCEPTED_COUNTRY_FORMS}`));
  }

  const { geometry, area } = judgeInTime(raw, country, declared, commodity, found, context);

  const rejections = found.filter((f) => effectOf(f.code) === 'reject');
  const repairs = found.filter((f) => effectOf(f.code) === 'repair');
  return {
    index: raw.index,
    ref,
    validation_state: rejections.length > 0 ? 'rejected' : repairs.length > 0 ? 'repaired' : 'valid',
    findings: found.filter((f) => effectOf(f.code) === 'inform'),
    repairs,
    rejections,
    geometry,
    area_ha: area === null ? null : Number(area.toFixed(4)),
    declared_area_ha: declared,
    commodity,
    country,
    planted_year: plantedYear,
    producer_id: producerId,
  };
}

type JudgedGeometry = { geometry: PlotGeometry | null; area: number | null };

const none: JudgedGeometry = { geometry: null, area: null };

/**
 * The geometry judged within the plot's budget (PLOT_TIME_BUDGET_MS): the repair reads the clock as
 * it goes and is stopped once the budget is spent, and a plot that finished past it is rejected all
 * the same, its boundary not kept. Either way the rest of the file goes on.
 */
function judgeInTime(raw: RawPlot, country: string | null, declared: number | null, commodity: string | null, found: Finding[], context: Context): JudgedGeometry {
  const deadline = plotDeadline(context.caps.plotBudgetMs);
  try {
    const judged = judgeGeometry(raw, country, declared, commodity, found, context, deadline);
    deadline.check();
    return judged;
  } catch (error) {
    if (!(error instanceof PlotOutOfTime)) throw error;
    found.push(outOfTime(error, context.caps));
    return none;
  }
}

function judgeGeometry(
  raw: RawPlot,
  country: string | null,
  declared: number | null,
  commodity: string | null,
  found: Finding[],
  context: Context,
  deadline: PlotDeadline,
): JudgedGeometry {
  if (raw.axesSwapped) found.push(finding('axis_order_swapped', raw.axesSwapped));
  const reading = readShape(raw.geometry, context.caps);
  if (reading.rejection) {
    found.push(reading.rejection);
    return none;
  }
  found.push(...reading.repairs);

  // Placed by the centroid of the repaired boundary: that of a boundary that crosses itself or winds a
  // part the wrong way lies where the plot does not. Coordinates off the Earth either way round are not repaired.
  const repair = (polygons: Position[][][]) => repairPolygons(polygons, !raw.orientationByFormat, context.caps, deadline);
  const asRead = reading.shape.kind === 'polygons' && (onEarth(reading.shape) || onEarth(swapAxes(reading.shape)))
    ? repair(reading.shape.polygons)
    : null;
  const placed = placeInCountry(reading.shape, centroidOf(asRead?.polygons ? { kind: 'polygons', polygons: asRead.polygons } : reading.shape), country, context);
  found.push(...placed.found);
  if (placed.shape === null) return none;
  const shape = placed.shape;

  const decimals = raw.writtenDecimals ?? reading.decimals;
  if (decimals < REQUIRED_DECIMALS) found.push(finding('low_precision', `They carry at most ${decimals}.`));

  if (shape.kind === 'point') {
    if (declared === null) found.push(finding('point_area_assumed'));
    else if (declared > context.caps.plotAreaHa) found.push(tooLarge('Declared', declared, context));
    else if (declared > POINT_AREA.maxHa && commodity?.toLowerCase() !== POINT_AREA.exemptCommodity) {
      found.push(finding('point_over_4ha', `Declared: ${ha(declared)}.`));
    } else if (declared < POINT_AREA.minHa) found.push(finding('point_area_too_small', `Declared: ${ha(declared)}.`));
    return { geometry: { type: 'Point', coordinates: shape.at }, area: null };
  }

  // Swapping the axes mirrors the rings, so a swapped plot is repaired again: its orientation is judged the right way round.
  const repaired = (shape === reading.shape ? asRead : null) ?? repair(shape.polygons);
  found.push(...repaired.repairs);
  if (repaired.rejection) {
    found.push(repaired.rejection);
    return none;
  }
  const polygons = repaired.polygons;
  const area = polygonsAreaHa(polygons);
  if (area * 10_000 < MIN_POLYGON_M2) {
    found.push(finding('degenerate_polygon'));
    return none;
  }
  if (area > context.caps.plotAreaHa) {
    found.push(tooLarge('Measured', area, context));
    return none;
  }
  if (declared !== null) {
    const gap = Math.abs(declared - area);
    if (gap > AREA_TOLERANCE.relative * area && gap > AREA_TOLERANCE.absoluteHa) {
      found.push(finding('area_mismatch', `Declared ${ha(declared)}, measured ${ha(area)}.`));
    }
  }
  const geometry: PlotGeometry =
    polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
  return { geometry, area };
}

/** The properties whose name and text can be stored; each other one is left out with a finding. */
function storableProperties(properties: Record<string, unknown>, found: Finding[]): Record<string, unknown> {
  const entries = Object.entries(properties).filter(([name, value]) => {
    const storable = isStorableText(name) && (typeof value !== 'string' || isStorableText(value));
    if (!storable) found.push(finding('invalid_text', `The property is "${name}".`));
    return storable;
  });
  return Object.fromEntries(entries);
}

/**
 * Rings tidied, topology made valid and a polygon across the antimeridian cut there: the polygons as
 * repaired with what was repaired, or the repairs made before the rejection that stopped them.
 */
function repairPolygons(
  polygons: Position[][][],
  reportOrientation: boolean,
  caps: IntakeCaps,
  deadline: PlotDeadline,
): { polygons: Position[][][]; repairs: Finding[]; rejection?: undefined } | { polygons?: undefined; repairs: Finding[]; rejection: Finding } {
  const unwrapped = unwrapAntimeridian(polygons);
  const tidied = tidyRings(unwrapped.polygons, reportOrientation);
  if (tidied.rejection) return { repairs: [], rejection: tidied.rejection };
  const checked = checkTopology(tidied.polygons, caps, deadline);
  if (checked.rejection) return { repairs: tidied.repairs, rejection: checked.rejection };
  const repairs = [...tidied.repairs, ...checked.repairs];
  if (!unwrapped.crossed) return { polygons: checked.polygons, repairs };
  const split = splitAtAntimeridian(checked.polygons);
  if (split.rejection) return { repairs, rejection: split.rejection };
  return { polygons: split.polygons, repairs: [...repairs, ...split.repairs] };
}

/**
 * Coordinates on the Earth, in the stated country. The axis order is decided with the country's real
 * boundary: a plot outside it whose swapped coordinates fall inside was written latitude first.
 * Without a country it is decided with land (Natural Earth's): a plot in the sea whose swapped
 * coordinates fall on land.
 */
function placeInCountry(shape: Shape, [x, y]: Position, country: string | null, context: Context): { shape: Shape | null; found: Finding[] } {
  const checkable = country !== null && isRecognisedCountry(country);
  if (!checkable) {
    if (country === null) context.uncheckedNoCountry++;
    else context.uncheckedCountries.add(country);
  }
  const at = (px: number, py: number) => `${px.toFixed(6)}, ${py.toFixed(6)}`;
  const earthly = onEarth(shape);
  const swapped = swapAxes(shape);
  if (checkable) {
    if (earthly && countryContains(country, [x, y])) return { shape, found: [] };
    if (onEarth(swapped) && countryContains(country, [y, x])) {
      return { shape: swapped, found: [finding('axis_order_swapped', `Swapped, the plot falls in the stated country (${country}).`)] };
    }
    if (earthly) {
      return { shape, found: [finding('outside_country', `It lies at ${at(x, y)}; the stated country is ${country}.`)] };
    }
  } else if (!earthly || !onLand([x, y])) {
    if (onEarth(swapped) && onLand([y, x])) {
      const asWritten = earthly ? `lies in the sea at ${at(x, y)}` : 'lies off the Earth';
      const how = `No country was given: as written the plot ${asWritten}, swapped on land at ${at(y, x)}.`;
      return { shape: swapped, found: [finding('axis_order_swapped', how)] };
    }
    if (earthly) return { shape, found: [finding('not_on_land', `It lies at ${at(x, y)}.`)] };
  }
  if (!earthly) return { shape: null, found: [finding('coordinates_not_on_earth')] };
  return { shape, found: [] };
}

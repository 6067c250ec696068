/**
 * The checks of an adjudicate batch (spec 4.4, 7.4), every alert before any is written: geometry
 * type and readability, coordinates on the Earth, axis order against the alert's country (the
 * upload's rule: coordinates that fall in the country only with longitude and latitude exchanged),
 * footprint size, alert date and references repeated in the batch. Pure, and run on an intake
 * thread: a batch of 500 polygons is not measured on the event loop. The first rule broken, in that
 * order, refuses the batch, naming up to ten of the alerts that break it.
 */
import type { AlertCode, InputCode } from '../errors.ts';
import { countryContains, isRecognisedCountry } from '../intake/countries.ts';
import { DEFAULT_CAPS } from '../intake/limits.ts';
import { centroidOf, onEarth, readShape, swapAxes, type Shape } from '../intake/shape.ts';
import { ALERT_LIMITS } from './limits.ts';
import { readWindow, type ReadWindow } from './read-window.ts';

/** One alert as checked: its country is its own, else its producer's, else null (no axis check). */
export interface AlertToJudge {
  ref: string;
  geometry: unknown;
  alert_date: string;
  country: string | null;
}

export interface JudgedAlert {
  ref: string;
  footprint: Shape;
  footprint_area_ha: number;
  window: ReadWindow;
}

export type AlertJudgement = { refusal: { code: AlertCode | InputCode; message: string } } | { alerts: JudgedAlert[] };

/** The rules in the order they are tried; the first an alert of the batch breaks refuses it. */
const RULES = ['bad_geometry', 'coordinates_out_of_range', 'axis_order_swapped', 'footprint_too_large', 'alert_before_cutoff', 'ref_in_use'] as const;
type Rule = (typeof RULES)[number];

const WHAT: Record<Rule, string> = {
  bad_geometry: 'the geometry must be a GeoJSON Point, Polygon or MultiPolygon with readable coordinates enclosing an area',
  coordinates_out_of_range: 'a coordinate is not on the Earth: longitude must lie in -180..180 and latitude in -90..90, longitude first',
  axis_order_swapped: 'the coordinates fall in the alert\'s country only with longitude and latitude exchanged; send longitude first',
  footprint_too_large: `the footprint is over ${ALERT_LIMITS.maxFootprintHa / 100} km2, the largest adjudicated; send the alert's own footprint or a point`,
  alert_before_cutoff: `alert_date is before ${ALERT_LIMITS.earliestDate}; alerts before then are not adjudicated`,
  ref_in_use: 'the reference is repeated in the batch; give each alert its own',
};

/** A refusal naming up to ten of the alerts that break `rule`, and how many more. */
export function namingRefs(refs: readonly string[], what: string): string {
  const named = refs.slice(0, ALERT_LIMITS.refsNamed).map((r) => JSON.stringify(r)).join(', ');
  const more = refs.length > ALERT_LIMITS.refsNamed ? ` and ${refs.length - ALERT_LIMITS.refsNamed} more` : '';
  return `${refs.length === 1 ? 'alert' : 'alerts'} ${named}${more}: ${what}`;
}

function ruleBroken(alert: AlertToJudge): { rule: Rule } | { judged: JudgedAlert } {
  const reading = readShape(alert.geometry, DEFAULT_CAPS);
  if (reading.rejection) return { rule: 'bad_geometry' };
  const shape = reading.shape;
  if (shape.kind === 'polygons' && shape.polygons.some((rings) => rings.some((ring) => ring.length < 4))) return { rule: 'bad_geometry' };
  const earthly = onEarth(shape);
  const country = alert.country !== null && isRecognisedCountry(alert.country) ? alert.country : null;
  if (country !== null) {
    const [x, y] = centroidOf(shape);
    const fits = earthly && countryContains(country, [x, y]);
    if (!fits && onEarth(swapAxes(shape)) && countryContains(country, [y, x])) return { rule: 'axis_order_swapped' };
  }
  if (!earthly) return { rule: 'coordinates_out_of_range' };
  const { footprint_area_ha, window } = readWindow(shape);
  if (shape.kind === 'polygons' && footprint_area_ha <= 0) return { rule: 'bad_geometry' };
  if (footprint_area_ha > ALERT_LIMITS.maxFootprintHa) return { rule: 'footprint_too_large' };
  if (alert.alert_date < ALERT_LIMITS.earliestDate) return { rule: 'alert_before_cutoff' };
  return { judged: { ref: alert.ref, footprint: shape, footprint_area_ha, window } };
}

export function judgeAlerts(alerts: readonly AlertToJudge[]): AlertJudgement {
  const broken = new Map<Rule, string[]>();
  const judged: JudgedAlert[] = [];
  const refs = new Set<string>();
  const note = (rule: Rule, ref: string) => broken.set(rule, [...(broken.get(rule) ?? []), ref]);
  for (const alert of alerts) {
    if (refs.has(alert.ref)) note('ref_in_use', alert.ref);
    refs.add(alert.ref);
    const outcome = ruleBroken(alert);
    if ('rule' in outcome) note(outcome.rule, alert.ref);
    else judged.push(outcome.judged);
  }
  for (const rule of RULES) {
    const refsBroken = broken.get(rule);
    if (refsBroken !== undefined) return { refusal: { code: rule, message: namingRefs([...new Set(refsBroken)], WHAT[rule]) } };
  }
  return { alerts: judged };
}

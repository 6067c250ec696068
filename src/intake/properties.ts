/**
 * The plot properties read from an uploaded feature or row (spec 2.2), matched case-insensitively.
 * Besides the spec's names, the EU information system's own property names are read (`Area`,
 * `ProducerName`, `ProducerCountry`), so a file prepared for a filing imports as it is, and the
 * 10-character truncation a shapefile's dBASE table forces (`planted_ye`). The reference is read by
 * plotReference().
 */
const NAMES = {
  commodity: ['commodity'],
  area_ha: ['area_ha', 'area'],
  planted_year: ['planted_year', 'planted_ye'],
  producer: ['producer', 'producername'],
  country: ['country', 'producercountry'],
} as const;

export type PlotProperty = keyof typeof NAMES;

/** The value of each plot property; absent, null and blank values are undefined. */
export function plotProperties(properties: Record<string, unknown>): Record<PlotProperty, unknown> {
  const byName = valuedByName(properties);
  const pick = (aliases: readonly string[]) => aliases.map((a) => byName.get(a)?.value).find((v) => v !== undefined);
  return {
    commodity: pick(NAMES.commodity),
    area_ha: pick(NAMES.area_ha),
    planted_year: pick(NAMES.planted_year),
    producer: pick(NAMES.producer),
    country: pick(NAMES.country),
  };
}

/**
 * Where a plot's reference is read when it has no `ref`, in this order after the feature's own `id`
 * (GeoJSON): the names field apps and GIS exports give it (case does not matter, so `plotId` and
 * `PlotID` are one name).
 */
const REF_FALLBACKS = ['plot_id', 'plotid', 'plot_ref', 'id'];

const FEATURE_ID = 'the feature\'s own "id"';

/**
 * A plot's reference: `ref`, else the feature's own id, else the first of REF_FALLBACKS with a value;
 * `from` names where it was read, null for `ref` itself. Undefined value when none has one.
 */
export function plotReference(properties: Record<string, unknown>, featureId: unknown): { value: unknown; from: string | null } {
  const byName = valuedByName(properties);
  const ref = byName.get('ref');
  if (ref) return { value: ref.value, from: null };
  if (!isBlank(featureId)) return { value: featureId, from: FEATURE_ID };
  const fallback = REF_FALLBACKS.map((name) => byName.get(name)).find((v) => v !== undefined);
  return fallback ? { value: fallback.value, from: `"${fallback.name}"` } : { value: undefined, from: null };
}

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/** The properties with a value, by name trimmed and lower-cased (the first of names that differ only so), with the name as written. */
function valuedByName(properties: Record<string, unknown>): Map<string, { name: string; value: unknown }> {
  const byName = new Map<string, { name: string; value: unknown }>();
  for (const [name, value] of Object.entries(properties)) {
    const key = name.trim().toLowerCase();
    if (!isBlank(value) && !byName.has(key)) byName.set(key, { name, value });
  }
  return byName;
}

/** A number from a JSON number or from text with a decimal point or a decimal comma ("12,5"). */
export function numberFrom(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const t = value.trim().replace(/^([+-]?\d*),(\d+)$/, '$1.$2');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  return Number(t);
}

/** Text of a string or number property, trimmed; null when there is none. */
export function textFrom(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

// The physical side of the demo world: what each land cover looks like to each instrument.
// Values are typical of tropical scenes (Sentinel-2 L2A reflectance, PALSAR-2 L-band γ⁰, ETH
// canopy height); they are chosen to be plausible, not measured.

export type Cover =
  | 'forest'
  | 'deciduous_forest'
  | 'rubber'
  | 'oil_palm'
  | 'acacia'
  | 'teak'
  | 'farmland'
  | 'savanna'
  | 'bare'
  | 'young_crop';

/** Red and near-infrared surface reflectance; blue and green follow from red. */
export interface Spectrum {
  red: number;
  nir: number;
}

export interface CoverModel {
  /** Full canopy (or the cover's usual state). */
  leaf: Spectrum;
  /** At the depth of the dry-season trough, for covers that shed leaves. */
  trough?: Spectrum;
  /** Mean γ⁰ in dB. */
  hv: number;
  hh: number;
  /** Canopy height (m): median and spread; null where a canopy-height map masks the cover. */
  height: { median: number; sd: number } | null;
  /** Hansen tree cover in 2000 (%). */
  treecover2000: number;
}

export const COVERS: Record<Cover, CoverModel> = {
  forest: { leaf: { red: 0.028, nir: 0.3 }, hv: -11.5, hh: -6.5, height: { median: 30, sd: 4 }, treecover2000: 95 },
  // Dry dipterocarp forest: leafless for weeks in the dry season, still a tall, layered canopy in deep shade.
  deciduous_forest: { leaf: { red: 0.035, nir: 0.34 }, trough: { red: 0.075, nir: 0.27 }, hv: -12.0, hh: -7.0, height: { median: 27, sd: 3 }, treecover2000: 85 },
  // Tapped rubber: winters each dry season and shows litter and soil through bare crowns.
  rubber: { leaf: { red: 0.035, nir: 0.38 }, trough: { red: 0.12, nir: 0.3 }, hv: -14.5, hh: -8.5, height: { median: 15, sd: 2 }, treecover2000: 70 },
  // Open crowns over bare trunks: relatively more HH (trunk-ground double bounce) than forest.
  oil_palm: { leaf: { red: 0.04, nir: 0.4 }, hv: -14.0, hh: -5.5, height: { median: 12, sd: 2 }, treecover2000: 60 },
  acacia: { leaf: { red: 0.03, nir: 0.36 }, hv: -13.5, hh: -8.0, height: { median: 16, sd: 3 }, treecover2000: 40 },
  // Teak: a deciduous plantation, leafless for weeks in the dry season.
  teak: { leaf: { red: 0.035, nir: 0.35 }, trough: { red: 0.09, nir: 0.27 }, hv: -13.5, hh: -8.0, height: { median: 18, sd: 3 }, treecover2000: 50 },
  farmland: { leaf: { red: 0.08, nir: 0.28 }, hv: -19.5, hh: -12.0, height: { median: 2, sd: 1 }, treecover2000: 5 },
  savanna: { leaf: { red: 0.09, nir: 0.26 }, hv: -18.5, hh: -11.0, height: { median: 4, sd: 2 }, treecover2000: 15 },
  bare: { leaf: { red: 0.15, nir: 0.22 }, hv: -22.0, hh: -14.0, height: { median: 0, sd: 0.5 }, treecover2000: 0 },
  young_crop: { leaf: { red: 0.07, nir: 0.3 }, hv: -17.5, hh: -10.5, height: { median: 3, sd: 1 }, treecover2000: 0 },
};

/** Blue and green of a vegetated or soil spectrum (visible bands move together). */
export function visible(s: Spectrum): { blue: number; green: number } {
  return { blue: 0.65 * s.red + 0.004, green: 1.45 * s.red + 0.012 };
}

export function ndvi(s: Spectrum): number {
  return (s.nir - s.red) / (s.nir + s.red);
}

/** Mix of two spectra, `w` of the way from `a` to `b`. */
export function mix(a: Spectrum, b: Spectrum, w: number): Spectrum {
  return { red: a.red + (b.red - a.red) * w, nir: a.nir + (b.nir - a.nir) * w };
}

/** Cloud tops, bright in every band. */
export const CLOUD: Spectrum = { red: 0.42, nir: 0.46 };
/** Haze: path radiance added to the visible bands per unit of aerosol optical thickness. */
export const HAZE_PER_AOT = { blue: 0.06, red: 0.035, nir: 0.01 } as const;

/** Wintering intensity (0 leafy … 1 bare) `days` from the trough: a bell about three weeks wide. */
export function winteringIntensity(days: number): number {
  const sigma = 12;
  return Math.exp(-0.5 * (days / sigma) ** 2);
}

/** Signed days from `day` (days since 1970) to the nearest trough at day-of-year `troughDoy`. */
export function daysFromTrough(day: number, troughDoy: number): number {
  const date = new Date(day * 86_400_000);
  const year = date.getUTCFullYear();
  let best = Infinity;
  for (const y of [year - 1, year, year + 1]) {
    const t = Date.UTC(y, 0, 1) / 86_400_000 + troughDoy - 1;
    if (Math.abs(day - t) < Math.abs(best)) best = day - t;
  }
  return best;
}

/** The season year (UTC year of the nearest trough) of a day. */
export function seasonOf(day: number, troughDoy: number): number {
  const t = day - daysFromTrough(day, troughDoy);
  return new Date(t * 86_400_000).getUTCFullYear();
}

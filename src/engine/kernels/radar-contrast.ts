/**
 * L-band radar (ALOS PALSAR yearly mosaics) over a plot against the forest around it. Closed
 * forest gives the strongest cross-polarised (HV) return of any land cover around a plot, so the
 * local forest level is the upper part of the HV distribution in a ring around the plot; a plot
 * well below it has less woody volume than the forest next door. Powers are averaged in linear
 * units and reported in dB: γ⁰ = 10·log10(DN²) − CF.
 */
import type { PixelMask } from './rasterise-mask.ts';
import type { ClassTest } from './raster.ts';

export interface RadarInput {
  readonly plot: PixelMask;
  /** On the same grid as `plot`, built with ringMask(). */
  readonly ring: PixelMask;
  /** Digital numbers as the mosaics store them. */
  readonly hv: Uint16Array;
  readonly hh: Uint16Array;
  /** DN marking no data (0 before 2017, 1 since); DN 0 is never read whatever this says. */
  readonly nodata: number | null;
  /** CF of the mosaics, in dB (83.0). */
  readonly calibrationDb: number;
  /** Usable pixels, e.g. the mosaics' mask band with only "land" kept (no layover, shadow or water). */
  readonly usable: ClassTest;
}

export interface RadarLines {
  /** Plot-minus-forest HV contrast (dB, negative when darker) at or above which the plot reads forest-like. */
  readonly thresholdDb: number;
  /** Distance from the line, in units of the baseline's spread, a reading needs to be confident. */
  readonly marginSigmas: number;
  /** Quantile of the ring's HV from which pixels count as the local forest. */
  readonly forestQuantile: number;
  /** A baseline below this (dB) has no closed forest to compare against. */
  readonly forestBaselineMinDb: number;
  /** HH-to-HV ratio (dB) at or above which the polarimetry says a cultivated evergreen canopy. */
  readonly evergreenHhHvMinDb: number;
  /** Plot HV (dB) under which a crop reading is confident: under every forest type's return. */
  readonly cropMaxHvDb: number;
  readonly minPlotPixels: number;
  readonly minRingPixels: number;
}

export interface RadarContrast {
  plot_hv_db: number | null;
  plot_minus_local_forest_db: number | null;
  local_forest_baseline_db: number | null;
  /** Standard deviation (dB) of the forest pixels behind the baseline. */
  sigma_db: number | null;
  /** Plot HH over HV, in dB, over pixels valid in both. */
  hh_hv_db: number | null;
  plot_pixels: number;
  ring_pixels: number;
  forest_like: boolean | null;
  confident: boolean;
  polarimetry_cultivated: boolean | null;
  refusal: string | null;
  /** The plot was held against a forest baseline, whether or not that gave an answer. */
  compared: boolean;
}

// The ring is counted into a histogram of DN (one bin per value): dB is monotonic in DN, so the
// forest quantile and every moment of the forest pixels come from the bins, with one log10 per
// distinct DN rather than one per pixel. One scratch histogram per thread, cleared over the range
// it touched, spares a 256 KiB allocation per call.
const ringCounts = new Uint32Array(65536);

export function radarContrast(input: RadarInput, lines: RadarLines): RadarContrast {
  const { plot, ring, hv, hh, calibrationDb: cf } = input;
  const classes = input.usable.classes;
  const lookup = input.usable.lookup;
  const nodata = input.nodata ?? 0;
  let plotPixels = 0;
  let hvPower = 0;
  let bothHv = 0;
  let bothHh = 0;
  // Validity as 0/1 factors and min/max instead of branches: V8 keeps these loops branch-free.
  const ps = plot.spans;
  for (let s = 0; s < ps.length; s += 2) {
    const end = ps[s + 1];
    for (let i = ps[s]; i < end; i++) {
      const v = hv[i];
      const h = hh[i];
      const ok = lookup[classes[i]] & +(v !== 0) & +(v !== nodata);
      const both = ok & +(h !== 0) & +(h !== nodata);
      const p = v * v;
      hvPower += ok * p;
      plotPixels += ok;
      bothHv += both * p;
      bothHh += both * h * h;
    }
  }
  // Unread ring pixels are counted in bin 0, which no read pixel uses (DN 0 is never read).
  let ringPixels = 0;
  let lo = 65535;
  let hi = 0;
  const rs = ring.spans;
  for (let s = 0; s < rs.length; s += 2) {
    const end = rs[s + 1];
    for (let i = rs[s]; i < end; i++) {
      const v = hv[i];
      const ok = lookup[classes[i]] & +(v !== 0) & +(v !== nodata);
      const kept = v * ok;
      ringCounts[kept]++;
      ringPixels += ok;
      lo = Math.min(lo, kept + (1 - ok) * 65535);
      hi = Math.max(hi, kept);
    }
  }
  ringCounts[0] = 0;
  let baseline: number | null = null;
  let sigma: number | null = null;
  if (ringPixels >= lines.minRingPixels) {
    const k = Math.floor(lines.forestQuantile * (ringPixels - 1));
    let seen = 0;
    let cut = lo;
    while (seen + ringCounts[cut] <= k) seen += ringCounts[cut++];
    let n = 0;
    let power = 0;
    let db = 0;
    let db2 = 0;
    for (let v = cut; v <= hi; v++) {
      const c = ringCounts[v];
      if (c === 0) continue;
      const d = 20 * Math.log10(v);
      n += c;
      power += c * v * v;
      db += c * d;
      db2 += c * d * d;
    }
    baseline = 10 * Math.log10(power / n) - cf;
    const mean = db / n;
    sigma = Math.sqrt(Math.max(0, db2 / n - mean * mean));
  }
  if (ringPixels > 0) ringCounts.fill(0, lo, hi + 1);
  const plotDb = plotPixels > 0 ? 10 * Math.log10(hvPower / plotPixels) - cf : null;
  const hhHv = bothHv > 0 ? 10 * Math.log10(bothHh / bothHv) : null;
  const contrast = plotDb !== null && baseline !== null ? plotDb - baseline : null;
  const readings = {
    plot_hv_db: plotDb,
    plot_minus_local_forest_db: contrast,
    local_forest_baseline_db: baseline,
    sigma_db: sigma,
    hh_hv_db: hhHv,
    plot_pixels: plotPixels,
    ring_pixels: ringPixels,
  };
  if (plotPixels < lines.minPlotPixels) {
    return { ...readings, forest_like: null, confident: false, polarimetry_cultivated: null, refusal: 'Too few usable radar pixels inside the plot.', compared: false };
  }
  const polarimetry = hhHv !== null ? hhHv >= lines.evergreenHhHvMinDb : null;
  if (baseline === null || sigma === null || contrast === null) {
    return { ...readings, forest_like: null, confident: false, polarimetry_cultivated: polarimetry, refusal: 'Too few usable radar pixels around the plot to set a local forest baseline.', compared: false };
  }
  if (baseline < lines.forestBaselineMinDb) {
    return { ...readings, forest_like: null, confident: false, polarimetry_cultivated: polarimetry, refusal: 'No closed forest around the plot to compare its radar return with.', compared: false };
  }
  const forestLike = contrast >= lines.thresholdDb;
  // Darker than the forest around it, but as bright as a secondary, dry, degraded or swamp forest:
  // the ring may be a taller forest than the plot's, so the contrast cannot confirm a crop.
  if (!forestLike && (plotDb as number) >= lines.cropMaxHvDb) {
    return {
      ...readings, forest_like: null, confident: false, polarimetry_cultivated: polarimetry,
      refusal: 'The plot returns less than the forest around it, but as much as a secondary, dry deciduous, degraded or swamp forest can, so radar cannot tell a crop from forest here.',
      compared: true,
    };
  }
  return {
    ...readings,
    forest_like: forestLike,
    confident: Math.abs(contrast - lines.thresholdDb) >= lines.marginSigmas * sigma,
    polarimetry_cultivated: polarimetry,
    refusal: null,
    compared: true,
  };
}

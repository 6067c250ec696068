/**
 * The canopy's shade read at each season's trough. At the trough a wintering plantation has shed
 * its leaves and shows bright litter, soil and bare branches, while a forest canopy keeps the deep
 * shade of its uneven crowns (the shade endmember of spectral mixture analysis; Souza et al.
 * 2005). Haze brightens every pixel and hides that shade, so a trough seen through dust is dropped.
 */
import type { SeasonTrough } from './seasonal-troughs.ts';

export interface StructureLines {
  /** Mean shade fraction at the troughs at or above which the canopy reads forest-like. */
  readonly shadeLine: number;
  /** Distance from the line a reading needs to be confident. */
  readonly shadeMargin: number;
  /** Aerosol optical thickness above which a trough scene is too hazy to read. */
  readonly aotDustLimit: number;
}

export interface StructureAtTrough {
  /** Mean shade fraction of the troughs read through clear air. */
  shade_at_trough: number | null;
  /** Mean AOT of every trough scene that carries one. */
  aot_at_trough: number | null;
  withheld_for_dust: boolean;
  /** Seasons whose trough was read through clear air. */
  seasons_matched: number;
  forest_like: boolean | null;
  confident: boolean;
  refusal: string | null;
  /** Indices in the series of the trough scenes read through clear air (for readings per block). */
  scenes: number[];
}

/**
 * `shade` and `aot` are per scene of the series the seasons came from (NaN where a scene has no
 * value). Every season with an answer contributes its trough scene.
 */
export function structureAtTrough(
  seasons: readonly SeasonTrough[],
  shade: Float32Array | Float64Array,
  aot: Float32Array | Float64Array,
  lines: StructureLines,
): StructureAtTrough {
  let read = 0;
  let dusty = 0;
  let shadeSum = 0;
  let aotSum = 0;
  let aotCount = 0;
  const scenes: number[] = [];
  for (const s of seasons) {
    if (s.no_answer || s.trough_scene === null) continue;
    const sh = shade[s.trough_scene];
    if (sh !== sh) continue;
    read++;
    const a = aot[s.trough_scene];
    if (a === a) {
      aotSum += a;
      aotCount++;
      if (a > lines.aotDustLimit) {
        dusty++;
        continue;
      }
    }
    shadeSum += sh;
    scenes.push(s.trough_scene);
  }
  const matched = read - dusty;
  const aotAtTrough = aotCount > 0 ? aotSum / aotCount : null;
  const shadeAtTrough = matched > 0 ? shadeSum / matched : null;
  // One dusty season is dropped; when most troughs were seen through dust the canopy went unseen.
  const withheld = dusty > 0 && dusty * 2 > read;
  const base = { shade_at_trough: shadeAtTrough, aot_at_trough: aotAtTrough, withheld_for_dust: withheld, seasons_matched: matched, scenes };
  if (read === 0) {
    return { ...base, forest_like: null, confident: false, refusal: 'No clear scene at a seasonal trough to read the canopy at.' };
  }
  if (withheld || shadeAtTrough === null) {
    return { ...base, forest_like: null, confident: false, refusal: 'Haze or dust over most seasonal troughs hid the canopy, so its shade was not read.' };
  }
  return {
    ...base,
    forest_like: shadeAtTrough >= lines.shadeLine,
    confident: Math.abs(shadeAtTrough - lines.shadeLine) >= lines.shadeMargin,
    refusal: null,
  };
}

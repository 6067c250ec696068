/**
 * One optical scene's NDVI and shade summed per sub-plot block (block-index.ts), over the block's
 * clear pixels: the dip per block (block-dips.ts) reads the NDVI of every scene, the shade per
 * block (block-readings.ts) the shade of the trough scenes. Block ids are the same ground on every
 * grid, so scenes of both sensors add into one set of sums.
 */
import type { PixelMask } from './rasterise-mask.ts';
import type { ClassTest, Encoding } from './raster.ts';
import { type DigitalNumbers, type ShadeEndmembers, shadeCoefficients } from './scene-stats.ts';

/** Sums per scene and block, scene-major: scene k's blocks from k × blocks. */
export interface SceneBlockSums {
  readonly blocks: number;
  readonly ndvi: Float64Array;
  readonly shade: Float64Array;
  /** Clear pixels behind each sum. */
  readonly count: Uint32Array;
}

export const sceneBlockSums = (scenes: number, blocks: number): SceneBlockSums => ({
  blocks,
  ndvi: new Float64Array(scenes * blocks),
  shade: new Float64Array(scenes * blocks),
  count: new Uint32Array(scenes * blocks),
});

export interface SceneBlockInput {
  readonly mask: PixelMask;
  readonly blocks: Int32Array;
  readonly red: DigitalNumbers;
  readonly nir: DigitalNumbers;
  /** Shared by red and near-infrared. */
  readonly reflectance: Encoding;
  readonly clear: ClassTest;
  readonly shade: ShadeEndmembers;
}

/** Adds one scene's clear pixels into its blocks' sums, at `scene`'s place; NDVI and shade as sceneStats reads them. */
export function addSceneBlocks(input: SceneBlockInput, scene: number, into: SceneBlockSums): void {
  const { mask, blocks, red, nir, reflectance, clear } = input;
  const [kRed, kNir] = shadeCoefficients(input.shade);
  const { scale, offset } = reflectance;
  const nodata = reflectance.nodata ?? NaN;
  const at = scene * into.blocks;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      const r0 = red[i];
      const n0 = nir[i];
      const r = r0 * scale + offset;
      const n = n0 * scale + offset;
      const sum = n + r;
      const ok = clear.lookup[clear.classes[i]] & +(r0 !== nodata) & +(n0 !== nodata) & +(sum > 0);
      const b = at + blocks[i];
      into.ndvi[b] += ok === 1 ? (n - r) / sum : 0;
      into.shade[b] += ok * Math.max(0, Math.min(1, 1 - kRed * r - kNir * n));
      into.count[b] += ok;
    }
  }
}

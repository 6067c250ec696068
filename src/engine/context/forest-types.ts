// The `forest_types` block (spec 2.8.6) from the Commission's 2020 forest maps, and the three
// facts they give the decision rules: most of the plot planted forest (`planted_forest_2020`), at
// least half of it forest (`eu_forest_maps_read_forest`), and at most a tenth forest on both maps
// (which lets structure overrule a forest-like shade reading).
import { classShares } from '../kernels/class-shares.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import type { Archive } from '../archive.ts';
import { maskFor, type WorkerRaster } from '../worker/raster-window.ts';
import { type RasterRequest, requestForBox } from '../sources/raster-request.ts';
import { EU_FOREST_MAPS_ASSUMED, GFC2020, GFT2020, euForestTile, gfc2020Href, gfc2020Provenance, gft2020Href, gft2020Provenance } from '../sources/products/eu-forest-maps/codes.ts';
import type { ArchiveLocation } from '../sources/products/provenance.ts';
import { type ContextPlot, footprintBox } from './plot.ts';
import { rasterAt, uint8, unlessAborted } from './rasters.ts';
import { round } from './wording.ts';

/** "Most of the plot": strictly more than half. */
export const PLANTED_WITHHOLDS_ABOVE = 0.5;
/** "At least half of the plot" forest on the 2020 maps withholds. */
export const EU_FOREST_WITHHOLDS_FROM = 0.5;
/** "At most a tenth" forest on both maps lets structure overrule the shade veto. */
export const EU_FOREST_AT_MOST = 0.1;

// 0 is "not forest", a value, never missing (EU_FOREST_MAPS_ASSUMED).
const GFT_NAMES = {
  primary: [GFT2020.PRIMARY],
  naturally_regenerating: [GFT2020.NATURALLY_REGENERATING],
  planted: [GFT2020.PLANTED],
  not_forest: [EU_FOREST_MAPS_ASSUMED.notForest],
} as const;

export interface ForestTypesProvenance {
  source: string;
  licence: string;
  citation: string;
}

export interface ForestTypesBlock {
  available: boolean;
  primary: number | null;
  naturally_regenerating: number | null;
  planted: number | null;
  not_forest: number | null;
  source: string;
  licence: string;
  citation: string;
  note?: string;
}

export interface ForestTypesFacts {
  planted_forest_2020: boolean;
  eu_forest_maps_read_forest: boolean;
  eu_maps_at_most_a_tenth_forest: boolean;
}

export interface ForestTypesResult {
  forest_types: ForestTypesBlock;
  facts: ForestTypesFacts;
}

const NO_FACTS: ForestTypesFacts = { planted_forest_2020: false, eu_forest_maps_read_forest: false, eu_maps_at_most_a_tenth_forest: false };

/** The maps could not be read: nothing measured, nothing withheld on their account. */
export function forestTypesNotRead(p: ForestTypesProvenance, why: string): ForestTypesResult {
  return {
    forest_types: {
      available: false,
      primary: null,
      naturally_regenerating: null,
      planted: null,
      not_forest: null,
      ...p,
      note: `The 2020 forest maps could not be read (${why}); nothing is withheld on their account.`,
    },
    facts: NO_FACTS,
  };
}

export interface ForestTypesInput {
  /** Plot pixels on the GFT2020 window's grid. */
  gftMask: PixelMask;
  gft: Uint8Array;
  /** Plot pixels on the GFC2020 window's grid. */
  gfcMask: PixelMask;
  gfc: Uint8Array;
  provenance: ForestTypesProvenance;
}

export function readForestTypes(input: ForestTypesInput): ForestTypesResult {
  const types = classShares({ mask: input.gftMask, classes: input.gft, names: GFT_NAMES, noClass: [] });
  const cover = classShares({ mask: input.gfcMask, classes: input.gfc, names: { forest: [GFC2020.FOREST] }, noClass: [] });
  if (types.classified === 0 || cover.classified === 0) {
    return forestTypesNotRead(input.provenance, 'no 10 m pixel has its centre inside the boundary');
  }
  const s = types.shares;
  const c = types.counts;
  // Rules on counts, so a tenth is a tenth and not a sum of rounded shares.
  const gftForest = (c.primary + c.naturally_regenerating + c.planted) / types.classified;
  const gfcForest = cover.counts.forest / cover.classified;
  return {
    forest_types: {
      available: true,
      primary: round(s.primary ?? 0, 4),
      naturally_regenerating: round(s.naturally_regenerating ?? 0, 4),
      planted: round(s.planted ?? 0, 4),
      not_forest: round(s.not_forest ?? 0, 4),
      ...input.provenance,
    },
    facts: {
      planted_forest_2020: c.planted / types.classified > PLANTED_WITHHOLDS_ABOVE,
      eu_forest_maps_read_forest: Math.max(gftForest, gfcForest) >= EU_FOREST_WITHHOLDS_FROM,
      eu_maps_at_most_a_tenth_forest: gftForest <= EU_FOREST_AT_MOST && gfcForest <= EU_FOREST_AT_MOST,
    },
  };
}

// --- planning (main thread) and computing (worker) ----------------------------------------------

export type ForestTypesPrepared = { provenance: ForestTypesProvenance } & (
  | { state: 'read'; gft: string; gfc: string }
  | { state: 'not_read'; why: string }
);

function forestTypesProvenance(where: ArchiveLocation, tile: string): ForestTypesProvenance {
  const gft = gft2020Provenance(tile, where);
  const gfc = gfc2020Provenance(tile, where);
  return {
    source: `${gft.dataset} (GFT2020 ${GFT2020.version}, 10 m), on the forest mask of ${gfc.dataset} (GFC2020 ${GFC2020.version})`,
    licence: gft.licence,
    citation: `${gft.citation}; ${gfc.citation}`,
  };
}

export async function planForestTypes(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: ForestTypesPrepared }> {
  const tile = euForestTile(...plot.centroid);
  const provenance = forestTypesProvenance(archive.where, tile);
  const box = footprintBox(plot.footprint, 20);
  try {
    const [gft, gfc] = await Promise.all([gft2020Href(tile), gfc2020Href(tile)].map(async (href) => requestForBox(await archive.cogs.open(href, { signal }), box)));
    return { requests: [gft, gfc], prepared: { provenance, state: 'read', gft: gft.key, gfc: gfc.key } };
  } catch (err) {
    return { requests: [], prepared: { provenance, state: 'not_read', why: unlessAborted(err, signal) } };
  }
}

/** The plot on both maps' grids, or null when they were not read. */
export function forestTypesRasters(p: ForestTypesPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot) {
  if (p.state !== 'read') return null;
  const gft = rasterAt(rasters, p.gft);
  const gfc = rasterAt(rasters, p.gfc);
  return { gftMask: maskFor(gft, plot.footprint), gft: uint8(gft, 'GFT2020'), gfcMask: maskFor(gfc, plot.footprint), gfc: uint8(gfc, 'GFC2020') };
}

export function computeForestTypes(p: ForestTypesPrepared, read: ReturnType<typeof forestTypesRasters>): ForestTypesResult {
  if (p.state !== 'read' || read === null) return forestTypesNotRead(p.provenance, p.state === 'read' ? 'the windows were not read' : p.why);
  return readForestTypes({ ...read, provenance: p.provenance });
}

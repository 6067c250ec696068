// The hard world's sites: small sites (a plot of 3–20 ha on 800 m of ground) whose cover is one of
// the hard cover types and whose parameters are drawn from the ranges of covers.ts. Site `i` of a
// seed is the same whatever the world's size, so a thread can rebuild any site from its name.
import type { Cover } from '../landscape.ts';
import { localFrame, type Ring, toLonLat } from '../geometry.ts';
import { randomFor } from '../random.ts';
import { buildSiteModel, type SiteModel } from '../site-model.ts';
import type { SiteGround, TmfHistory } from '../sites.ts';
import { BESIDE_PLANTATIONS, type BesideForest, besideOf, CLEAR_SKY_REGIME, CLOUD_REGIMES, DRAWN_INTO_FOREST, drawCover, HARD_COVERS, HARD_KINDS, HARD_MIXES, type HardCover, type HardKind, type HardMix, plotCoverOf, type Range, REMNANT_EU_FOREST_SHARE_MAX, REMNANT_SURROUNDS, type TruthClass } from './covers.ts';

/** Where each region's sites lie: the middle of a one-degree cell inland, so every site's tiles are the same cell's; its country and dry-season trough. */
const ANCHORS: Record<string, { country: string; centre: [number, number]; troughDoy: number }> = {
  'southeast-asia': { country: 'ID', centre: [103.5, -1.5], troughDoy: 230 },
  'west-africa': { country: 'CI', centre: [-6.5, 6.5], troughDoy: 25 },
  'south-america': { country: 'BR', centre: [-55.5, -11.5], troughDoy: 235 },
};
/** Sites sit on a grid this far apart, so no two sites' ground (the tree-cover map reads ±2.5 km) overlaps. */
const SPACING_M = 5200;
const GRID = 16;
/** As many sites as the grid holds. */
export const MAX_HARD_SITES = GRID * GRID;

/** The sky a hard world is drawn under: its regions' cloud regimes, or the demo sites' clear one. */
export type HardSky = 'regional' | 'clear';

export interface HardSite {
  ground: SiteGround;
  kind: HardKind;
  /** The plot's cover type (for a plantation beside a forest, the plantation drawn). */
  cover: HardCover;
  /** The forest type around the plot when the site is a plantation beside one; null otherwise. */
  beside: BesideForest | null;
  region: string;
  /** The ground at the end of 2020: in the plot, and around it. */
  truth: { plot: TruthClass; surround: TruthClass };
  /**
   * Blocks drawn around a plantation beside a forest, reaching into the forest: each the plot
   * scaled about `anchor` (a corner of the plot, or its centre when null, in the local frame) so
   * that `share` of the block lies past the plot's edge.
   */
  drawnInto: Array<{ share: number; anchor: [number, number] | null }>;
}

/** Blocks drawn into the forest around each plantation beside one: one grown all round, seven from a corner. */
const DRAWN_INTO_BLOCKS = 8;

export function hardSiteName(index: number, mix: HardMix = 'all'): string {
  return `hard-${String(index).padStart(4, '0')}-${HARD_MIXES[mix][index % HARD_MIXES[mix].length]}`;
}

export function hardSiteNames(count: number, mix: HardMix = 'all'): string[] {
  return Array.from({ length: count }, (_, i) => hardSiteName(i, mix));
}

/** Site `index` of a seed and mix. Kinds take turns, so every kind appears once a world holds as many sites. */
export function hardSite(seed: string, index: number, sky: HardSky = 'regional', mix: HardMix = 'all'): HardSite {
  return siteOf(seed, index, HARD_MIXES[mix][index % HARD_MIXES[mix].length], sky);
}

function siteOf(seed: string, index: number, kind: HardKind, sky: HardSky): HardSite {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_HARD_SITES) throw new Error(`the hard world holds sites 0 to ${MAX_HARD_SITES - 1}`);
  const name = `hard-${String(index).padStart(4, '0')}-${kind}`;
  const beside = besideOf(kind);
  // Dry forest with no dry forest around it: farmland, or evergreen forest (null for every other kind).
  const remnant = REMNANT_SURROUNDS[kind] ?? null;
  const rnd = randomFor(seed, name, 'hard-site');
  // Beside a forest: the region is the forest's, the plantation one that region grows.
  const regions = HARD_COVERS[beside ?? plotCoverOf(kind)!].regions;
  const region = regions[Math.floor(rnd.next() * regions.length)];
  const plantations = BESIDE_PLANTATIONS.filter((p) => HARD_COVERS[p].regions.includes(region));
  const cover: HardCover = plotCoverOf(kind) ?? plantations[Math.floor(rnd.next() * plantations.length)];
  const type = HARD_COVERS[cover];
  const anchor = ANCHORS[region];
  const dx = ((index % GRID) - GRID / 2 + 0.5) * SPACING_M;
  const dy = (Math.floor(index / GRID) - GRID / 2 + 0.5) * SPACING_M;
  const centre = toLonLat(localFrame(...anchor.centre), dx, dy).map((v) => Math.round(v * 1e6) / 1e6) as [number, number];
  const plot = drawCover(type, rnd);
  const forestType = HARD_COVERS[beside ?? 'primary_evergreen'];
  const forest = drawCover(forestType, rnd);
  const forestSurround = remnant !== null ? remnant === 'evergreen' : type.truth === 'forest' || beside !== null || rnd.next() < 0.5;
  // A forest plot's surround is its own forest (a remnant's, farmland or evergreen forest); a plantation's is the forest drawn beside it, or farmland.
  const surroundCover: Cover = remnant === 'farmland' ? 'farmland' : remnant === 'evergreen' ? forestType.base : type.truth === 'forest' ? type.base : forestSurround ? forestType.base : 'farmland';
  const plantedYear = plot.ageYears === null ? null : 2020 - plot.ageYears;
  const regime: { overcast: Range; atTrough: Range } = sky === 'clear' ? CLEAR_SKY_REGIME : CLOUD_REGIMES[region];
  const changes = changesOf(cover, plantedYear, rnd.next());
  const ground: SiteGround = {
    name,
    country: anchor.country,
    centre,
    plot: { areaHa: rnd.between(3, 20), aspect: rnd.between(1, 1.5), angleDeg: rnd.between(-40, 40) },
    plotCover: changes.before,
    changes: changes.later,
    trough: { doy: Math.round(anchor.troughDoy + rnd.between(-15, 15)) },
    surround: { main: surroundCover, other: surroundCover, otherShare: 0 },
    sky: {
      overcast: rnd.between(...regime.overcast),
      overcastAtTrough: rnd.between(...regime.atTrough),
      // Smoke or dust over the trough: always on the hazy forest, now and then elsewhere.
      ...(cover === 'hazy_evergreen' || rnd.next() < 0.1 ? { dustAtTrough: true } : {}),
    },
    // The site's own canopies: the plot's cover, and the forest around it when the plot is not forest or is dry forest beside evergreen forest.
    covers: type.truth === 'forest' && remnant !== 'evergreen' ? { [type.base]: plot.model } : { [forestType.base]: forest.model, [type.base]: plot.model },
    terrain: { elevation: Math.round(rnd.between(20, 400)), slopeDeg: rnd.between(0, 8), aspectDeg: rnd.between(0, 360) },
    tmf: { plot: tmfOf(cover, plantedYear, changes.clearedYear, rnd.next()), surround: forestSurround ? tmfOf(remnant === 'evergreen' ? 'primary_evergreen' : surroundForest(cover, beside), null, null, rnd.next()) : { kind: 'never' } },
    euMaps: remnant !== null ? { forestShare: REMNANT_EU_FOREST_SHARE_MAX * rnd.next(), forestType: 'naturally_regenerating' } : euMapsOf(cover, rnd.next()),
    ...(type.base === 'oil_palm' && plantedYear !== null ? { oilPalm: { class: rnd.next() < 0.5 ? 1 : 2, plantingYear: plantedYear } as const } : {}),
    realSensors: true,
  };
  const corners = buildSiteModel(ground, seed).ring;
  return {
    ground,
    kind,
    cover,
    beside,
    region,
    truth: { plot: type.truth, surround: surroundCover === 'farmland' ? 'other' : 'forest' },
    drawnInto: beside === null ? [] : Array.from({ length: DRAWN_INTO_BLOCKS }, (_, k) => ({
      share: rnd.between(...DRAWN_INTO_FOREST),
      anchor: k === 0 ? null : corners[Math.floor(rnd.next() * corners.length)],
    })),
  };
}

/** The plot's covers over time: farmland before a young plantation; forest cleared after the cutoff. */
function changesOf(cover: HardCover, plantedYear: number | null, u: number): { before: Cover; later: Array<{ from: string; cover: Cover }>; clearedYear: number | null } {
  const base = HARD_COVERS[cover].base;
  if (cover === 'cleared_after_cutoff') {
    const year = 2021 + Math.floor(u * 3);
    return { before: 'forest', later: [{ from: `${year}-03-01`, cover: 'bare' }, { from: `${year}-10-01`, cover: 'young_crop' }], clearedYear: year };
  }
  // Planted within the record (2016 on): farmland until then.
  if (plantedYear !== null && plantedYear >= 2016) return { before: 'farmland', later: [{ from: `${plantedYear}-06-01`, cover: base }], clearedYear: null };
  return { before: base, later: [], clearedYear: null };
}

/** The forest type around a plot: the plot's own forest (undisturbed where it was cleared after the cutoff), or the one a plantation lies beside. */
function surroundForest(cover: HardCover, beside: BesideForest | null): HardCover {
  if (beside !== null) return beside;
  return HARD_COVERS[cover].truth === 'forest' && cover !== 'cleared_after_cutoff' ? cover : 'primary_evergreen';
}

function tmfOf(cover: HardCover, plantedYear: number | null, clearedYear: number | null, u: number): TmfHistory {
  switch (cover) {
    case 'primary_evergreen':
    case 'hazy_evergreen':
    case 'swamp_forest':
    case 'short_forest':
      return { kind: 'forest' };
    case 'secondary_forest':
    case 'degraded_forest':
      return { kind: 'degraded', year: 1995 + Math.floor(u * 15) };
    case 'dry_deciduous_forest':
    case 'coffee_sun':
      return { kind: 'never' };
    case 'cleared_after_cutoff':
      return { kind: 'deforested', year: clearedYear!, to: 'other' };
    case 'cocoa_shade':
    case 'coffee_shade':
      // Shade trees keep a canopy the moist-forest record often reads as forest, degraded or not.
      return u < 0.4 ? { kind: 'forest' } : { kind: 'degraded', year: 1995 + Math.floor(u * 20) };
    default:
      return plantedYear !== null && plantedYear > 1992 ? { kind: 'deforested', year: plantedYear - 1, to: 'plantation' } : { kind: 'never' };
  }
}

function euMapsOf(cover: HardCover, u: number): SiteGround['euMaps'] {
  const type = HARD_COVERS[cover];
  if (type.truth === 'forest') return { forestShare: 0.7 + 0.3 * u, forestType: cover === 'secondary_forest' || cover === 'degraded_forest' || cover === 'dry_deciduous_forest' ? 'naturally_regenerating' : 'primary' };
  // Shaded agroforests are often mapped as forest; plantations as planted trees.
  if (cover === 'cocoa_shade' || cover === 'coffee_shade') return { forestShare: 0.2 + 0.6 * u, forestType: 'naturally_regenerating' };
  return { forestShare: 0.2 * u, forestType: 'planted' };
}

export function hardSiteModels(seed: string, names: readonly string[], sky: HardSky): SiteModel[] {
  return names.map((n) => {
    const [, index, kind] = /^hard-(\d{4})-(\w+)$/.exec(n) ?? [];
    if (index === undefined || !HARD_KINDS.includes(kind as HardKind)) throw new Error(`not a hard-world site: ${n}`);
    return buildSiteModel(siteOf(seed, Number(index), kind as HardKind, sky).ground, seed);
  });
}

/**
 * A block drawn around the plot, reaching past its edge so that `share` of it lies outside: the plot
 * scaled about `anchor` (its centre when null) by 1/√(1 − share), as a closed GeoJSON ring (lon, lat).
 */
export function drawnRing(m: SiteModel, share: number, anchor: [number, number] | null): number[][] {
  const scale = 1 / Math.sqrt(1 - share);
  const [ax, ay] = anchor ?? [0, 0];
  const ring: Ring = m.ring.map(([x, y]) => [ax + (x - ax) * scale, ay + (y - ay) * scale]);
  return [...ring, ring[0]].map(([x, y]) => toLonLat(m.frame, x, y).map((v) => Math.round(v * 1e6) / 1e6));
}

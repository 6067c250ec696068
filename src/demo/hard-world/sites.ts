// The hard world's sites: small sites (a plot of 3–20 ha on 800 m of ground) whose cover is one of
// the hard cover types and whose parameters are drawn from the ranges of covers.ts. Site `i` of a
// seed is the same whatever the world's size, so a thread can rebuild any site from its name.
import type { Cover } from '../landscape.ts';
import { localFrame, type Ring, toLonLat } from '../geometry.ts';
import { randomFor } from '../random.ts';
import { buildSiteModel, type SiteModel } from '../site-model.ts';
import type { SiteGround, TmfHistory } from '../sites.ts';
import { CLEAR_SKY_REGIME, CLOUD_REGIMES, drawCover, HARD_COVER_TYPES, HARD_COVERS, type HardCover, type Range, type TruthClass } from './covers.ts';

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
  cover: HardCover;
  region: string;
  /** The ground at the end of 2020: in the plot, and around it. */
  truth: { plot: TruthClass; surround: TruthClass };
  /** For a plantation drawn loosely into the forest: how much larger than the plot its block is drawn. */
  looseScale: number | null;
}

export function hardSiteName(index: number): string {
  return `hard-${String(index).padStart(4, '0')}-${HARD_COVER_TYPES[index % HARD_COVER_TYPES.length]}`;
}

export function hardSiteNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => hardSiteName(i));
}

/** Site `index` of a seed. Cover types take turns, so every type appears once a world holds as many sites. */
export function hardSite(seed: string, index: number, sky: HardSky = 'regional'): HardSite {
  const name = hardSiteName(index);
  const cover = HARD_COVER_TYPES[index % HARD_COVER_TYPES.length];
  const type = HARD_COVERS[cover];
  const rnd = randomFor(seed, name, 'hard-site');
  const region = type.regions[Math.floor(rnd.next() * type.regions.length)];
  const anchor = ANCHORS[region];
  if (!Number.isInteger(index) || index < 0 || index >= MAX_HARD_SITES) throw new Error(`the hard world holds sites 0 to ${MAX_HARD_SITES - 1}`);
  const dx = ((index % GRID) - GRID / 2 + 0.5) * SPACING_M;
  const dy = (Math.floor(index / GRID) - GRID / 2 + 0.5) * SPACING_M;
  const centre = toLonLat(localFrame(...anchor.centre), dx, dy).map((v) => Math.round(v * 1e6) / 1e6) as [number, number];
  const plot = drawCover(type, rnd);
  const forest = drawCover(HARD_COVERS.primary_evergreen, rnd);
  const forestSurround = type.truth === 'forest' || cover === 'plantation_edge' || rnd.next() < 0.5;
  const surroundCover: Cover = type.base === 'deciduous_forest' ? 'deciduous_forest' : forestSurround ? 'forest' : 'farmland';
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
    // The site's own canopies: the plot's cover, and the forest around it when the plot is not forest.
    covers: type.base === 'forest' ? { forest: plot.model } : { forest: forest.model, [type.base]: plot.model },
    terrain: { elevation: Math.round(rnd.between(20, 400)), slopeDeg: rnd.between(0, 8), aspectDeg: rnd.between(0, 360) },
    tmf: { plot: tmfOf(cover, plantedYear, changes.clearedYear, rnd.next()), surround: forestSurround && surroundCover === 'forest' ? { kind: 'forest' } : { kind: 'never' } },
    euMaps: euMapsOf(cover, rnd.next()),
    ...(type.base === 'oil_palm' && plantedYear !== null ? { oilPalm: { class: rnd.next() < 0.5 ? 1 : 2, plantingYear: plantedYear } as const } : {}),
  };
  return {
    ground,
    cover,
    region,
    truth: { plot: type.truth, surround: surroundCover === 'farmland' ? 'other' : 'forest' },
    looseScale: cover === 'plantation_edge' ? rnd.between(1.15, 1.35) : null,
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

function tmfOf(cover: HardCover, plantedYear: number | null, clearedYear: number | null, u: number): TmfHistory {
  switch (cover) {
    case 'primary_evergreen':
    case 'hazy_evergreen':
    case 'swamp_forest':
      return { kind: 'forest' };
    case 'secondary_forest':
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
  if (type.truth === 'forest') return { forestShare: 0.7 + 0.3 * u, forestType: cover === 'secondary_forest' || cover === 'dry_deciduous_forest' ? 'naturally_regenerating' : 'primary' };
  // Shaded agroforests are often mapped as forest; plantations as planted trees.
  if (cover === 'cocoa_shade' || cover === 'coffee_shade') return { forestShare: 0.2 + 0.6 * u, forestType: 'naturally_regenerating' };
  return { forestShare: 0.2 * u, forestType: 'planted' };
}

export function hardSiteModels(seed: string, names: readonly string[], sky: HardSky): SiteModel[] {
  return names.map((n) => {
    const index = Number(/^hard-(\d+)-/.exec(n)?.[1] ?? NaN);
    if (!Number.isInteger(index) || hardSiteName(index) !== n) throw new Error(`not a hard-world site: ${n}`);
    return buildSiteModel(hardSite(seed, index, sky).ground, seed);
  });
}

/** A ring grown about the plot's centre by `scale`, as a closed GeoJSON ring (lon, lat). */
export function grownRing(m: SiteModel, scale: number): number[][] {
  const ring: Ring = m.ring.map(([x, y]) => [x * scale, y * scale]);
  return [...ring, ring[0]].map(([x, y]) => toLonLat(m.frame, x, y).map((v) => Math.round(v * 1e6) / 1e6));
}

// The hard world's cover types: the covers a real plot book meets, each drawn per site from the
// ranges below. Every range says where it comes from; where a source gives no number for the
// exact quantity, the range is set here from the source's description and says so. The world is
// synthetic: these ranges make its covers plausible and varied, not measured.
import type { Cover, CoverModel, Spectrum } from '../landscape.ts';
import type { Random } from '../random.ts';

export type HardCover =
  | 'primary_evergreen'
  | 'secondary_forest'
  | 'degraded_forest'
  | 'dry_deciduous_forest'
  | 'hazy_evergreen'
  | 'swamp_forest'
  | 'short_forest'
  | 'rubber_young'
  | 'rubber_mature'
  | 'teak'
  | 'pulpwood'
  | 'oil_palm'
  | 'cocoa_sun'
  | 'cocoa_shade'
  | 'coffee_sun'
  | 'coffee_shade'
  | 'cleared_after_cutoff';

/** What the ground was at the end of 2020. */
export type TruthClass = 'forest' | 'crop' | 'other';

export type Range = readonly [number, number];

export interface HardCoverType {
  /** The landscape cover whose writers draw it; `ranges` override its typical values. */
  base: Cover;
  /** The plot's ground at the end of 2020. */
  truth: TruthClass;
  /** Canopy height median (m) as a canopy-height map reads it. */
  heightM: Range;
  /** PALSAR L-band γ⁰ (dB). */
  hvDb: Range;
  hhDb: Range;
  /** Plateau NDVI of the full canopy. */
  ndvi: Range;
  /** NDVI drop at the dry-season trough, for covers that shed leaves. */
  troughDrop?: Range;
  /** Age at the end of 2020 (years), for plantations. */
  ageYears?: Range;
  /** Regions (calibration region ids) where the cover is drawn. */
  regions: readonly string[];
}

const SEA = 'southeast-asia';
const WAF = 'west-africa';
const SAM = 'south-america';

// Canopy heights: tropical closed forest mostly 25–40 m in the GEDI-calibrated Landsat height map
// (Potapov et al. 2021, Remote Sens. Environ. 253:112165) and the ETH canopy height 2020 (Lang et
// al. 2023, Nat. Ecol. Evol. 7:1778). L-band HV of closed forest −13 to −10 dB and of non-forest
// below about −15 dB: the PALSAR forest/non-forest thresholds of Shimada et al. 2014 (Remote Sens.
// Environ. 155:13-31); HV rises with biomass up to roughly 100–150 t/ha and then saturates
// (Mitchard et al. 2009, Geophys. Res. Lett. 36:L23401), so young, open or short canopies sit
// between the two.
export const HARD_COVERS: Record<HardCover, HardCoverType> = {
  primary_evergreen: { base: 'forest', truth: 'forest', heightM: [25, 40], hvDb: [-12.5, -10.5], hhDb: [-7.5, -5.5], ndvi: [0.8, 0.86], regions: [SEA, WAF, SAM] },
  // Secondary forest 5–30 years after abandonment: 6–25 m canopies, the youngest as short as a
  // plantation (Chazdon 2014, Second Growth, Univ. Chicago Press, ch. 6; Poorter et al. 2016, Nature
  // 530:211 on biomass recovery), HV down to crop levels while biomass is under ~100 t/ha (Mitchard
  // et al. 2009).
  secondary_forest: { base: 'forest', truth: 'forest', heightM: [6, 25], hvDb: [-16, -11.5], hhDb: [-10, -6.5], ndvi: [0.74, 0.86], regions: [SEA, WAF, SAM] },
  // Selectively logged or degraded forest: felling gaps, skid trails and a broken canopy 12–30 m
  // (Asner et al. 2005, Science 310:480-482 on selective logging in the Amazon; Rappaport et al.
  // 2018, Environ. Res. Lett. 13:065013 on lidar canopy height and cover lost to logging and fire);
  // HV falls with the biomass lost, into the range of tall plantations (Mitchard et al. 2009).
  degraded_forest: { base: 'forest', truth: 'forest', heightM: [12, 30], hvDb: [-15, -11], hhDb: [-9, -6], ndvi: [0.74, 0.85], regions: [SEA, WAF, SAM] },
  // Dry deciduous (dipterocarp, teak) forest: 12–25 m (Potapov et al. 2021 for dry tropical
  // forest); leafless for weeks each dry season with NDVI amplitudes of 0.2–0.4 in MODIS
  // phenology of monsoon Southeast Asia (Zhang et al. 2003, Remote Sens. Environ. 84:471-475, for
  // the method; the amplitude range is set here from their deciduous-forest curves). Open dry
  // forest and woodland stands reach down to 8 m and crop-like HV (Potapov et al. 2021; Mitchard
  // et al. 2009 on woodland biomass), so the low end overlaps teak and rubber on every instrument.
  dry_deciduous_forest: { base: 'deciduous_forest', truth: 'forest', heightM: [8, 25], hvDb: [-15.5, -11], hhDb: [-10, -6.5], ndvi: [0.72, 0.84], troughDrop: [0.15, 0.45], regions: [SEA, WAF] },
  // Evergreen forest under dry-season haze: peatland fire smoke over Sumatra and Borneo reaches
  // AOT above 1 in dry years (Field et al. 2016, PNAS 113:9204-9209); harmattan dust in West Africa
  // each December–February. The forest itself is primary-like.
  hazy_evergreen: { base: 'forest', truth: 'forest', heightM: [22, 38], hvDb: [-12.5, -10.5], hhDb: [-7.5, -5.5], ndvi: [0.8, 0.86], regions: [SEA, WAF] },
  // Peat swamp forest: 15–30 m, shorter than dryland forest (Potapov et al. 2021); flooded forest
  // raises L-band HH through trunk–water double bounce (Hess et al. 2003, Remote Sens. Environ.
  // 87:404-428).
  swamp_forest: { base: 'forest', truth: 'forest', heightM: [12, 30], hvDb: [-14, -10.5], hhDb: [-6, -3.5], ndvi: [0.76, 0.85], regions: [SEA, SAM] },
  // Short-stature forest on white sand and peat domes (heath forest, kerangas, campinarana): 5–20 m
  // canopies of low biomass (Adeney et al. 2016, Biotropica 48:7-23 on Amazonian white-sand
  // vegetation; Page et al. 1999, Phil. Trans. R. Soc. B 354:1885-1897 on the stunted pole forest of
  // Kalimantan peat domes); HV at crop levels as biomass is (Mitchard et al. 2009).
  short_forest: { base: 'forest', truth: 'forest', heightM: [5, 20], hvDb: [-17, -12.5], hhDb: [-11, -7], ndvi: [0.72, 0.84], regions: [SEA, SAM] },
  // Rubber: 5–12 m in the first years after planting and 15–25 m once tapped (Priyadarshan 2017,
  // Biology of Hevea Rubber, Springer, ch. 3); winters each dry season with an NDVI drop that grows
  // with the canopy (Dong et al. 2013, Remote Sens. Environ. 134:392-402).
  rubber_young: { base: 'rubber', truth: 'crop', heightM: [5, 12], hvDb: [-17, -14], hhDb: [-10.5, -8], ndvi: [0.72, 0.82], troughDrop: [0.08, 0.25], ageYears: [3, 7], regions: [SEA, WAF] },
  rubber_mature: { base: 'rubber', truth: 'crop', heightM: [14, 25], hvDb: [-14.5, -12], hhDb: [-9, -7], ndvi: [0.78, 0.85], troughDrop: [0.15, 0.35], ageYears: [8, 30], regions: [SEA, WAF, SAM] },
  // Teak: planted across Java and in Côte d'Ivoire (Kollert and Cherubini 2012, Teak resources and
  // market assessment 2010, FAO Planted Forests Working Paper FP/47/E); 10–25 m at 8–30 years and
  // leafless for weeks each dry season (Tewari 1992, A Monograph on Teak, International Book
  // Distributors, Dehra Dun, ch. 2), so its dip is as deep as the dry forest's.
  teak: { base: 'teak', truth: 'crop', heightM: [10, 25], hvDb: [-15, -11.5], hhDb: [-9.5, -7], ndvi: [0.74, 0.84], troughDrop: [0.2, 0.45], ageYears: [8, 30], regions: [SEA, WAF] },
  // Pulpwood: Acacia on 5–7-year rotations in Sumatra and eucalyptus in Brazil, 15–30 m at harvest
  // (Nambiar and Harwood 2014, Int. For. Rev. 16:225-248 on acacia; Stape et al. 2010, For. Ecol.
  // Manage. 259:1684-1694 on Brazilian eucalyptus), evergreen; young stands a few metres tall.
  pulpwood: { base: 'acacia', truth: 'crop', heightM: [6, 28], hvDb: [-16, -11.5], hhDb: [-10, -7], ndvi: [0.76, 0.85], ageYears: [2, 7], regions: [SEA, SAM] },
  // Oil palm: trunks grow 0.3–0.6 m a year, canopies 6–18 m at 5–25 years (Corley and Tinker 2016,
  // The Oil Palm, 5th ed., Wiley, ch. 4); open crowns over bare trunks give a high HH/HV ratio
  // against forest (Miettinen and Liew 2011, Int. J. Remote Sens. 32:2229, on PALSAR over palm).
  oil_palm: { base: 'oil_palm', truth: 'crop', heightM: [6, 18], hvDb: [-15.5, -12.5], hhDb: [-7, -4.5], ndvi: [0.76, 0.84], ageYears: [5, 25], regions: [SEA, WAF, SAM] },
  // Full-sun cocoa 3–6 m and shaded cocoa under shade trees of 15–25 m (Somarriba et al. 2013,
  // Agric. Ecosyst. Environ. 173:46-57; Asare et al. 2019 on West African cocoa agroforests).
  cocoa_sun: { base: 'young_crop', truth: 'crop', heightM: [3, 6], hvDb: [-18, -15], hhDb: [-11, -9], ndvi: [0.7, 0.8], ageYears: [5, 30], regions: [WAF, SAM] },
  cocoa_shade: { base: 'acacia', truth: 'crop', heightM: [12, 22], hvDb: [-14.5, -12], hhDb: [-9, -7], ndvi: [0.78, 0.85], ageYears: [10, 40], regions: [WAF, SAM] },
  // Coffee from unshaded monoculture (2–4 m) to rustic and polyculture shade (8–20 m) (Moguel and
  // Toledo 1999, Conserv. Biol. 13:11-21, their classification of coffee systems).
  coffee_sun: { base: 'young_crop', truth: 'crop', heightM: [2, 4], hvDb: [-18.5, -15.5], hhDb: [-11.5, -9], ndvi: [0.68, 0.78], ageYears: [5, 25], regions: [SEA, SAM] },
  coffee_shade: { base: 'acacia', truth: 'crop', heightM: [8, 20], hvDb: [-15, -12.5], hhDb: [-9.5, -7.5], ndvi: [0.76, 0.84], ageYears: [10, 40], regions: [SEA, SAM] },
  // Primary-like forest at the end of 2020, cleared in 2021–2023 (the cutoff is 31 Dec 2020).
  cleared_after_cutoff: { base: 'forest', truth: 'forest', heightM: [22, 38], hvDb: [-12.5, -10.5], hhDb: [-7.5, -5.5], ndvi: [0.8, 0.86], regions: [SEA, WAF, SAM] },
};

export const HARD_COVER_TYPES = Object.keys(HARD_COVERS) as HardCover[];

/** The forest types a plantation is drawn beside. */
export const BESIDE_FORESTS = ['primary_evergreen', 'secondary_forest', 'degraded_forest', 'dry_deciduous_forest', 'swamp_forest', 'short_forest'] as const satisfies readonly HardCover[];
export type BesideForest = (typeof BESIDE_FORESTS)[number];

/** The plantations drawn beside a forest: the one drawn is among those of the forest's region. */
export const BESIDE_PLANTATIONS = ['rubber_young', 'rubber_mature', 'teak', 'pulpwood'] as const satisfies readonly HardCover[];

/**
 * How far a block drawn around a plantation reaches into the forest beside it: the share of the
 * block that is forest, from a boundary a few metres out to a third of the block. Set here: no
 * source measures how far declared plots overrun a holding's edge.
 */
export const DRAWN_INTO_FOREST: Range = [0.05, 0.3];

/**
 * A remnant of dry deciduous forest amid farmland: no forest of its own around it (radar then has no
 * forest ring to hold the plot against, and the ring's dip is farmland's), and EU forest maps that
 * class under half of it forest, drawn over [0, REMNANT_EU_FOREST_SHARE_MAX). Set here, as a case the
 * other kinds leave out (every forest site is ringed by its own forest and mapped at 70% or more):
 * open dry forest is where global forest maps miss most, and a map that misses the remnant is the case
 * where the instruments alone must hold.
 */
export const DRY_FOREST_REMNANT = 'dry_forest_remnant';
export const REMNANT_EU_FOREST_SHARE_MAX = 0.45;
/**
 * The same dry forest beside closed evergreen forest, as where monsoon or savanna forest meets rain
 * forest: radar holds the plot against the evergreen forest around it, whose ring does not winter, and
 * the EU maps again class under half of it forest. Set here, for the same reason.
 */
export const DRY_FOREST_BY_EVERGREEN = 'dry_forest_by_evergreen';

/** A site's kind: a cover type alone, a plantation beside a forest type, or dry forest with no dry forest around it. */
export type HardKind = HardCover | `plantation_beside_${BesideForest}` | typeof DRY_FOREST_REMNANT | typeof DRY_FOREST_BY_EVERGREEN;

/** What stands around the dry forest of the two kinds that have no dry forest of their own around it. */
export const REMNANT_SURROUNDS: Partial<Record<HardKind, 'farmland' | 'evergreen'>> = { [DRY_FOREST_REMNANT]: 'farmland', [DRY_FOREST_BY_EVERGREEN]: 'evergreen' };

export const besideKind = (f: BesideForest): HardKind => `plantation_beside_${f}`;

/** The forest a kind's plantation lies beside; null for a cover type alone. */
export function besideOf(kind: HardKind): BesideForest | null {
  const f = kind.startsWith('plantation_beside_') ? kind.slice('plantation_beside_'.length) : null;
  return f === null ? null : (f as BesideForest);
}

/** The cover type of a kind's plot: its own, the dry deciduous forest of the REMNANT_SURROUNDS kinds; null for a plantation beside a forest (drawn per site). */
export const plotCoverOf = (kind: HardKind): HardCover | null => (REMNANT_SURROUNDS[kind] !== undefined ? 'dry_deciduous_forest' : besideOf(kind) === null ? (kind as HardCover) : null);

/**
 * The kinds a world cycles through. `all`: every cover type, then every plantation beside a forest.
 * `forest`: the kinds that hold forest (every forest type and every plantation beside one) and pure
 * rubber, the plantation whose dip the rules are for, so a campaign counts forest-holding blocks
 * without reading the other crops again. `rubber`: young and mature rubber alone, the controls whose
 * filable rate a campaign measures without the forest's many blocks. `remnant`: dry forest remnants
 * amid farmland alone (DRY_FOREST_REMNANT); `ecotone`: dry forest beside evergreen forest alone
 * (DRY_FOREST_BY_EVERGREEN); both kept out of the other mixes, so their worlds stay as they were.
 */
export type HardMix = 'all' | 'forest' | 'rubber' | 'remnant' | 'ecotone';
export const HARD_MIXES: Record<HardMix, readonly HardKind[]> = {
  all: [...HARD_COVER_TYPES, ...BESIDE_FORESTS.map(besideKind)],
  forest: [...HARD_COVER_TYPES.filter((c) => HARD_COVERS[c].truth === 'forest'), ...BESIDE_FORESTS.map(besideKind), 'rubber_young', 'rubber_mature'],
  rubber: ['rubber_young', 'rubber_mature'],
  remnant: [DRY_FOREST_REMNANT],
  ecotone: [DRY_FOREST_BY_EVERGREEN],
};

/** Every kind of every mix. */
export const HARD_KINDS: readonly HardKind[] = [...new Set(Object.values(HARD_MIXES).flat())];

/** Cloud regimes: share of scenes under cloud over the plot, by region. Tropical Southeast Asia and
 * West Africa's coastal belt are among the cloudiest lands in MODIS cloud frequency (Wilson and
 * Jetz 2016, PLoS Biol. 14:e1002415); the southern Amazon's dry season is clearer. */
export const CLOUD_REGIMES: Record<string, { overcast: Range; atTrough: Range }> = {
  [SEA]: { overcast: [0.25, 0.55], atTrough: [0, 0.3] },
  [WAF]: { overcast: [0.25, 0.5], atTrough: [0, 0.25] },
  [SAM]: { overcast: [0.15, 0.4], atTrough: [0, 0.2] },
};

/** The storied demo sites' sky (at most 0.15 of routine scenes lost): the control under which a
 * campaign reads the decision rules rather than the record's cloud gate. */
export const CLEAR_SKY_REGIME = { overcast: [0, 0.15], atTrough: [0, 0.1] } as const satisfies { overcast: Range; atTrough: Range };

/** A spectrum of a plateau NDVI: red drawn over the range of dense canopies, near-infrared to match. */
function spectrumOf(ndviValue: number, rnd: Random): Spectrum {
  const red = rnd.between(0.025, 0.045);
  return { red, nir: (red * (1 + ndviValue)) / (1 - ndviValue) };
}

const draw = (r: Range, rnd: Random) => rnd.between(r[0], r[1]);

/** One site's draw of a cover type: the cover model its writers use, and the age drawn. */
export function drawCover(type: HardCoverType, rnd: Random): { model: CoverModel; ageYears: number | null } {
  const plateau = draw(type.ndvi, rnd);
  const leaf = spectrumOf(plateau, rnd);
  // At the trough bare crowns show litter and soil: red rises, near-infrared falls a little.
  const troughNdvi = type.troughDrop ? plateau - draw(type.troughDrop, rnd) : null;
  const troughNir = leaf.nir * rnd.between(0.8, 0.9);
  const trough = troughNdvi === null ? undefined : { red: (troughNir * (1 - troughNdvi)) / (1 + troughNdvi), nir: troughNir };
  const median = draw(type.heightM, rnd);
  return {
    model: {
      leaf,
      ...(trough ? { trough } : {}),
      hv: draw(type.hvDb, rnd),
      hh: draw(type.hhDb, rnd),
      height: { median, sd: Math.max(1, median * 0.15) },
      treecover2000: type.truth === 'forest' ? Math.round(rnd.between(75, 98)) : Math.round(rnd.between(20, 70)),
    },
    ageYears: type.ageYears ? Math.round(draw(type.ageYears, rnd)) : null,
  };
}

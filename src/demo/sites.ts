// The demo sites: real-world places, each with the land, sky and context that should lead the
// evidence engine to one verdict and reason of spec 2.9/2.10. `intended` states the readings
// each instrument is meant to give (spec 2.7) and `truth` the decision those readings imply.
// The record that decides is read over 2016–2020, the five seasons before the cutoff.
import { type ContextFacts, type InstrumentAnswer, NO_CONTEXT, type ReasonCode, type Verdict } from '../engine/decide.ts';
import type { CycleClass } from '../engine/kernels/seasonal-troughs.ts';
import type { Cover, CoverModel, Spectrum } from './landscape.ts';

/** Land-cover history of a pixel on the Landsat moist-forest record (TMF). */
export type TmfHistory =
  | { kind: 'never' } // never moist forest: other land cover throughout
  | { kind: 'forest' } // undisturbed moist forest throughout
  | { kind: 'degraded'; year: number }
  | { kind: 'deforested'; year: number; to: 'plantation' | 'other' };

export interface Building {
  /** Centre in the site's local frame (m east, m north of the site centre). */
  x: number;
  y: number;
  widthM: number;
  depthM: number;
  heightM: number;
  /** Open Buildings years in which it stands. */
  years: number[];
}

export interface AlertEvent {
  dataset: 'gfw_integrated_alerts' | 'wur_radd_alerts';
  /** Where: the plot itself, or a disc in the local frame. */
  where: 'plot' | { x: number; y: number; radiusM: number };
  first: string;
  last: string;
  confidence: 'nominal' | 'high' | 'highest';
}

export interface ProtectedAreaSpec {
  name: string;
  /** OSM tags beyond the name (boundary, protect_class, protection_title, iucn_level …). */
  tags: Record<string, string>;
  /** Centre and radii of an elliptical outline in the local frame (m). */
  x: number;
  y: number;
  rx: number;
  ry: number;
}

export interface IntendedReadings {
  cycle: CycleClass;
  shade: InstrumentAnswer & { note: string };
  radar: InstrumentAnswer & { polarimetry_cultivated: boolean | null; note: string };
  height: InstrumentAnswer & { between_lines: boolean; note: string };
  terrain_outside: boolean;
  context: ContextFacts;
}

export interface SiteTruth {
  verdict: Verdict;
  reason: ReasonCode;
  reasons: ReasonCode[];
  /** The same site when one archive cannot be read (a fault of the local server). */
  variants?: Array<{ unreadable: 'gfw_wood_fiber' | 'tmf'; verdict: Verdict; reason: ReasonCode; reasons: ReasonCode[] }>;
}

/** The ground of a site: everything the generator writes its files from. */
export interface SiteGround {
  name: string;
  country: string;
  /** Site centre, longitude and latitude. */
  centre: [number, number];
  plot: { areaHa: number; aspect: number; angleDeg: number };
  plotCover: Cover;
  /** Later covers of the plot, from a date on. */
  changes?: Array<{ from: string; cover: Cover }>;
  /** Day of year of the dry-season trough (wintering) and which seasons show it. */
  trough: { doy: number; spectrum?: Spectrum; dipSeasons?: 'all' | 'even' };
  surround: { main: Cover; other: Cover; otherShare: number };
  sky: {
    /**
     * Share of the routine scenes (and of the scenes bracketing the trough) under cloud over the plot;
     * with real sensors, of every pass outside (and inside) the dry-season core around the trough.
     */
    overcast: number;
    overcastAtTrough: number;
    /** When set, only these seasons have clear scenes; every other season keeps at most two. */
    clearSeasons?: number[];
    /** Harmattan dust over the trough (aerosol optical thickness near 0.9). */
    dustAtTrough?: boolean;
  };
  plotHeight?: { median: number; sd: number } | null;
  /** This site's own values for some covers (a landscape's canopy, its radar), over the typical ones. */
  covers?: Partial<Record<Cover, CoverModel>>;
  terrain: { elevation: number; slopeDeg: number; aspectDeg: number };
  tmf: { plot: TmfHistory; plotShare?: number; surround: TmfHistory };
  euMaps: { forestShare: number; forestType: 'primary' | 'naturally_regenerating' | 'planted' };
  hansenRingLoss?: { year: number; share: number };
  /**
   * Sensors as they are rather than as the storied sites need them: thin cloud and shadow edges the
   * scene classification misses, mixed pixels along cover edges, and scenes misregistered against
   * each other by a fraction of a pixel (optical.ts).
   */
  realSensors?: boolean;
  /** The plot on the oil palm map (industrial 1, smallholder 2) and its planting year. */
  oilPalm?: { class: 1 | 2; plantingYear: number };
  buildings?: Building[];
  alerts?: AlertEvent[];
  concession?: 'inside' | 'nearby';
  protectedAreas?: ProtectedAreaSpec[];
  /** Ground past each product's usual window around the centre (m): a book's landscape of many plots reaches this far. */
  reachM?: number;
}

/** A demo site: its ground, the story it tells and the readings and verdict it is built to reach. */
export interface DemoSiteSpec extends SiteGround {
  title: string;
  commodity: 'rubber' | 'oil_palm' | 'cocoa';
  producer: string | null;
  plantedYear: number | null;
  story: string;
  intended: IntendedReadings;
  truth: SiteTruth;
}

// --- the instruments' answers, named once ------------------------------------------------------

const SHADE_CROP = { forest_like: false, confident: true, note: 'leafless crowns at the trough show litter and soil: shade near 0.23' } as const;
const SHADE_FOREST = { forest_like: true, confident: true, note: 'a partial wintering under dense crowns keeps shade near 0.37 at the trough' } as const;
const SHADE_DUST = { forest_like: null, confident: false, note: 'harmattan dust (AOT near 0.9) over every trough: withheld for dust' } as const;
const SHADE_DECIDUOUS = { forest_like: true, confident: true, note: 'a leafless layered forest canopy still casts shade near 0.36' } as const;
const SHADE_EVERGREEN_FOREST = { forest_like: true, confident: true, note: 'closed evergreen canopy: shade near 0.39 at every season\'s lowest point' } as const;
const SHADE_PALM = { forest_like: false, confident: true, note: 'a full oil palm canopy unmixes to shade near 0.19' } as const;
const SHADE_NONE = { forest_like: null, confident: false, note: 'no season was measured, so no trough to read shade at' } as const;

const RADAR_CROP = { forest_like: false, confident: true, polarimetry_cultivated: false, note: 'plot HV near −14.5 dB against a forest ring near −10.7 dB: about −3.8 dB' } as const;
const RADAR_FOREST = { forest_like: true, confident: true, polarimetry_cultivated: false, note: 'plot HV level with the forest ring' } as const;
const RADAR_NO_FOREST = { forest_like: null, confident: false, polarimetry_cultivated: false, note: 'farmland or savanna all around: ring baseline under −16 dB, no forest to compare with' } as const;
const RADAR_PALM = { forest_like: null, confident: false, polarimetry_cultivated: true, note: 'HV near −14 dB below the forest ring, but as bright as secondary or dry forest can be: no answer; HH/HV near 8.5 dB: cultivated' } as const;

// Tapped rubber and mature oil palm stand where secondary, dry deciduous, degraded or swamp forest stand too.
const HEIGHT_CROP = { forest_like: null, confident: false, between_lines: true, note: 'median canopy near 15 m, as tall as secondary or dry forest: read, but no answer' } as const;
const HEIGHT_PALM = { forest_like: null, confident: false, between_lines: true, note: 'median canopy near 12 m, as tall as secondary forest: read, but no answer' } as const;
const HEIGHT_MID = { forest_like: null, confident: false, between_lines: true, note: 'median canopy near 21 m, between the crop and forest lines: read, but no answer' } as const;
const HEIGHT_FOREST = { forest_like: true, confident: true, between_lines: false, note: 'median canopy of 27–30 m' } as const;
const HEIGHT_MASKED = { forest_like: null, confident: false, between_lines: false, note: 'the canopy-height map has no value over the plot (masked, 255)' } as const;

// A demo site's ground is mapped as not forest unless its story says otherwise.
const NO_FACTS: ContextFacts = { ...NO_CONTEXT, eu_maps_at_most_a_tenth_forest: true };
const facts = (f: Partial<ContextFacts> = {}): ContextFacts => ({ ...NO_FACTS, ...f });

const SURROUND_FOREST = { main: 'forest', other: 'rubber', otherShare: 0.35 } as const;
const CLEAR_SKY = { overcast: 0.15, overcastAtTrough: 0 } as const;
const EVIDENCED = 'prior_management_evidenced';
const WEAK = 'prior_management_weak';
const AGREE = 'cycle_and_structure_agree';
const ESTABLISHED_RUBBER = { kind: 'deforested', year: 1996, to: 'plantation' } as const;

export const DEMO_SITES: readonly DemoSiteSpec[] = [
  {
    name: 'th-surat-thani-rubber',
    title: 'Tapped rubber, Surat Thani (northern-hemisphere wintering in February)',
    country: 'TH', commodity: 'rubber', centre: [99.13, 8.85],
    plot: { areaHa: 9.2, aspect: 1.3, angleDeg: 17 }, producer: 'Demo Phunphin Rubber Cooperative', plantedYear: 2006,
    story: 'An established rubber smallholding that winters every February; a farmhouse went up on it in 2019.',
    plotCover: 'rubber', trough: { doy: 45 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 40, slopeDeg: 2, aspectDeg: 120 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    hansenRingLoss: { year: 2022, share: 0.04 },
    buildings: [
      { x: 40, y: -30, widthM: 12, depthM: 9, heightM: 5, years: [2020, 2023] },
      { x: 230, y: 150, widthM: 10, depthM: 8, heightM: 4, years: [2016, 2020, 2023] },
    ],
    protectedAreas: [{ name: 'Khlong Saeng Wildlife Sanctuary (demo outline)', tags: { boundary: 'protected_area', protect_class: '4', protection_title: 'Wildlife Sanctuary', iucn_level: 'IV' }, x: -14000, y: 12000, rx: 6000, ry: 4000 }],
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: EVIDENCED, reason: AGREE, reasons: [AGREE] },
  },
  {
    name: 'br-sao-paulo-rubber',
    title: 'Tapped rubber, São Paulo state (southern-hemisphere wintering in August)',
    country: 'BR', commodity: 'rubber', centre: [-49.35, -20.75],
    plot: { areaHa: 11.5, aspect: 1.6, angleDeg: -8 }, producer: 'Demo Seringueiros do Noroeste Paulista', plantedYear: 2003,
    story: 'A clonal rubber estate between pasture and riparian forest remnants; it winters in August.',
    plotCover: 'rubber', trough: { doy: 228 }, surround: { main: 'forest', other: 'farmland', otherShare: 0.4 }, sky: CLEAR_SKY,
    terrain: { elevation: 480, slopeDeg: 3, aspectDeg: 210 },
    tmf: { plot: { kind: 'never' }, surround: { kind: 'never' } },
    euMaps: { forestShare: 0, forestType: 'naturally_regenerating' },
    hansenRingLoss: { year: 2021, share: 0.03 },
    buildings: [{ x: -260, y: 40, widthM: 20, depthM: 12, heightM: 6, years: [2016, 2020, 2023] }],
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: EVIDENCED, reason: AGREE, reasons: [AGREE] },
  },
  {
    name: 'ga-lope-evergreen-forest',
    title: 'Closed evergreen forest declared as cocoa, Lopé (Gabon)',
    country: 'GA', commodity: 'cocoa', centre: [11.55, -0.45],
    plot: { areaHa: 8.0, aspect: 1.1, angleDeg: 30 }, producer: 'Demo Ogooué Cocoa Growers', plantedYear: null,
    story: 'Undisturbed evergreen forest inside a national park; no canopy cycle in any season.',
    plotCover: 'forest', trough: { doy: 200 }, surround: { main: 'forest', other: 'forest', otherShare: 0 }, sky: { overcast: 0, overcastAtTrough: 0.3 },
    terrain: { elevation: 260, slopeDeg: 6, aspectDeg: 60 },
    tmf: { plot: { kind: 'forest' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 1, forestType: 'primary' },
    protectedAreas: [{ name: 'Lopé National Park (demo outline)', tags: { boundary: 'national_park', protect_class: '2', protection_title: 'National Park', iucn_level: 'II' }, x: 3000, y: -2000, rx: 12000, ry: 9000 }],
    intended: { cycle: 'no_cycle', shade: SHADE_EVERGREEN_FOREST, radar: RADAR_FOREST, height: HEIGHT_FOREST, terrain_outside: false, context: facts({ eu_forest_maps_read_forest: true, landsat_record_reads_undisturbed_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle'] },
  },
  {
    name: 'my-johor-oil-palm',
    title: 'Industrial oil palm, Johor (no canopy cycle, structure says crop)',
    country: 'MY', commodity: 'oil_palm', centre: [103.35, 2.05],
    plot: { areaHa: 10.4, aspect: 1.2, angleDeg: 45 }, producer: 'Demo Kluang Estate Sdn Bhd', plantedYear: 2004,
    story: 'A mature oil palm block planted in 2004 on land cleared in 1992; evergreen, with the radar polarimetry of palms.',
    plotCover: 'oil_palm', trough: { doy: 90 }, surround: { main: 'forest', other: 'oil_palm', otherShare: 0.35 }, sky: { overcast: 0, overcastAtTrough: 0.2 },
    terrain: { elevation: 35, slopeDeg: 2, aspectDeg: 0 },
    tmf: { plot: { kind: 'deforested', year: 1992, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    oilPalm: { class: 1, plantingYear: 2004 },
    alerts: [{ dataset: 'gfw_integrated_alerts', where: { x: 420, y: -380, radiusM: 60 }, first: '2023-05-02', last: '2023-06-10', confidence: 'high' }],
    intended: { cycle: 'no_cycle', shade: SHADE_PALM, radar: RADAR_PALM, height: HEIGHT_PALM, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: 'evergreen_canopy_unsupported', reasons: ['evergreen_canopy_unsupported'] },
  },
  {
    name: 'ci-tai-cleared-2022',
    title: 'Forest cleared after the cutoff (March 2022), near Taï (Côte d\'Ivoire)',
    country: 'CI', commodity: 'cocoa', centre: [-7.65, 6.15],
    plot: { areaHa: 7.5, aspect: 1.4, angleDeg: 70 }, producer: 'Demo Cavally Cocoa Cooperative', plantedYear: 2022,
    story: 'Moist forest until a clearing in March 2022, then bare ground and young cocoa; alerts dated the clearing.',
    plotCover: 'forest', changes: [{ from: '2022-03-05', cover: 'bare' }, { from: '2022-07-01', cover: 'young_crop' }],
    trough: { doy: 20 }, surround: { main: 'forest', other: 'farmland', otherShare: 0.25 }, sky: { overcast: 0, overcastAtTrough: 0.3 },
    terrain: { elevation: 210, slopeDeg: 4, aspectDeg: 300 },
    tmf: { plot: { kind: 'deforested', year: 2022, to: 'other' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 1, forestType: 'naturally_regenerating' },
    hansenRingLoss: { year: 2023, share: 0.06 },
    buildings: [{ x: -20, y: 10, widthM: 8, depthM: 6, heightM: 3, years: [2023] }],
    alerts: [
      { dataset: 'gfw_integrated_alerts', where: 'plot', first: '2022-02-22', last: '2022-03-24', confidence: 'highest' },
      { dataset: 'wur_radd_alerts', where: 'plot', first: '2022-02-28', last: '2022-03-20', confidence: 'high' },
    ],
    protectedAreas: [{ name: 'Taï National Park (demo outline)', tags: { boundary: 'national_park', protect_class: '2', protection_title: 'Parc National', iucn_level: 'II' }, x: 9000, y: -16000, rx: 8000, ry: 11000 }],
    intended: { cycle: 'no_cycle', shade: SHADE_EVERGREEN_FOREST, radar: RADAR_FOREST, height: HEIGHT_FOREST, terrain_outside: false, context: facts({ eu_forest_maps_read_forest: true, landsat_record_reads_undisturbed_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle'] },
  },
  {
    name: 'th-trang-small-plot',
    title: 'Rubber smallholding under 4 ha, Trang',
    country: 'TH', commodity: 'rubber', centre: [99.6, 7.55],
    plot: { areaHa: 2.4, aspect: 1.5, angleDeg: 5 }, producer: 'Demo Trang Smallholders Group', plantedYear: 2010,
    story: 'A 2.4 ha rubber plot with a clean February wintering; every instrument reads crop, but it sits under the evidence floor.',
    plotCover: 'rubber', trough: { doy: 50 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 70, slopeDeg: 3, aspectDeg: 180 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: AGREE, reasons: [AGREE, 'plot_below_evidence_floor'] },
  },
  {
    name: 'cm-kribi-cloudy',
    title: 'Rubber under persistent cloud, Kribi (Cameroon)',
    country: 'CM', commodity: 'rubber', centre: [10.08, 2.72],
    plot: { areaHa: 9.0, aspect: 1.2, angleDeg: -25 }, producer: 'Demo Niété Rubber Outgrowers', plantedYear: 2001,
    story: 'Rubber on the cloud-bound Atlantic coast: no season keeps four clear scenes, so nothing can be measured.',
    plotCover: 'rubber', trough: { doy: 35 }, surround: SURROUND_FOREST, sky: { overcast: 0.9, overcastAtTrough: 0.9, clearSeasons: [] },
    terrain: { elevation: 60, slopeDeg: 3, aspectDeg: 270 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'too_thin', shade: SHADE_NONE, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: 'insufficient_record', reason: 'record_too_thin', reasons: ['record_too_thin'] },
  },
  {
    name: 'lr-harbel-single-trough',
    title: 'Rubber seen clearly in one season only, Harbel (Liberia)',
    country: 'LR', commodity: 'rubber', centre: [-10.33, 6.28],
    plot: { areaHa: 12.0, aspect: 1.3, angleDeg: 12 }, producer: 'Demo Harbel Rubber Farmers', plantedYear: 1998,
    story: 'Only the 2019 season was seen through the clouds, and it wintered; radar and height both read a crop, but one season cannot show that every part of the plot winters.',
    plotCover: 'rubber', trough: { doy: 25 }, surround: SURROUND_FOREST, sky: { overcast: 0.9, overcastAtTrough: 0.9, clearSeasons: [2019] },
    terrain: { elevation: 20, slopeDeg: 1, aspectDeg: 90 },
    tmf: { plot: { kind: 'deforested', year: 1993, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'troughs_short_of_record', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: 'ground_not_shown_uniform', reasons: ['ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  },
  {
    name: 'cn-xishuangbanna-steep',
    title: 'Rubber terraces on steep hills, Xishuangbanna (Yunnan)',
    country: 'CN', commodity: 'rubber', centre: [100.95, 21.95],
    plot: { areaHa: 8.6, aspect: 1.2, angleDeg: 35 }, producer: 'Demo Jinghong Hill Rubber', plantedYear: 2005,
    story: 'A wintering rubber stand on slopes near 27°, steeper than the instruments were characterised on.',
    plotCover: 'rubber', trough: { doy: 60 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 900, slopeDeg: 27, aspectDeg: 150 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: true, context: facts() },
    truth: { verdict: WEAK, reason: 'terrain_outside_characterised_range', reasons: ['terrain_outside_characterised_range'] },
  },
  {
    name: 'ng-edo-dust',
    title: 'Rubber with a dust-hazed trough among farmland, Edo (Nigeria)',
    country: 'NG', commodity: 'rubber', centre: [5.78, 6.42],
    plot: { areaHa: 10.0, aspect: 1.1, angleDeg: -40 }, producer: 'Demo Iyanomo Rubber Growers', plantedYear: 2000,
    story: 'Wintering falls in the harmattan, so every trough is seen through dust: a dip seen only through haze does not count, so no season answers; farmland all round leaves radar no forest to compare with, and the canopy height sits between the lines.',
    plotCover: 'rubber', trough: { doy: 20 }, surround: { main: 'farmland', other: 'savanna', otherShare: 0.3 },
    sky: { overcast: 0.15, overcastAtTrough: 0, dustAtTrough: true },
    plotHeight: { median: 21, sd: 1.5 },
    terrain: { elevation: 90, slopeDeg: 2, aspectDeg: 45 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'deforested', year: 1988, to: 'other' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'too_thin', shade: SHADE_DUST, radar: RADAR_NO_FOREST, height: HEIGHT_MID, terrain_outside: false, context: facts() },
    truth: { verdict: 'insufficient_record', reason: 'record_too_thin', reasons: ['record_too_thin'] },
  },
  {
    name: 'gh-dust-no-structure',
    title: 'Rubber with a dust-hazed trough and no structural reading, Western Region (Ghana)',
    country: 'GH', commodity: 'rubber', centre: [-2.05, 5.25],
    plot: { areaHa: 9.5, aspect: 1.4, angleDeg: 60 }, producer: 'Demo Apimanim Outgrowers', plantedYear: 1999,
    story: 'Dust over every trough, so no dip is counted and no season answers; farmland all round for the radar, and the canopy-height map masked over the plot: no structural instrument could answer either.',
    plotCover: 'rubber', trough: { doy: 30 }, surround: { main: 'farmland', other: 'savanna', otherShare: 0.3 },
    sky: { overcast: 0.15, overcastAtTrough: 0, dustAtTrough: true },
    plotHeight: null,
    terrain: { elevation: 60, slopeDeg: 2, aspectDeg: 200 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'deforested', year: 1985, to: 'other' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'too_thin', shade: SHADE_DUST, radar: RADAR_NO_FOREST, height: HEIGHT_MASKED, terrain_outside: false, context: facts() },
    truth: { verdict: 'insufficient_record', reason: 'record_too_thin', reasons: ['record_too_thin'] },
  },
  {
    name: 'id-jambi-pulpwood-concession',
    title: 'Rubber inside a licensed pulpwood concession, Jambi (Indonesia)',
    country: 'ID', commodity: 'rubber', centre: [102.85, -1.25],
    plot: { areaHa: 9.8, aspect: 1.3, angleDeg: -15 }, producer: 'Demo Tebo Rubber Farmers', plantedYear: 2002,
    story: 'A wintering rubber garden whose eastern part lies inside a mapped wood-fibre (HTI) concession.',
    plotCover: 'rubber', trough: { doy: 215 }, surround: { main: 'forest', other: 'acacia', otherShare: 0.35 }, sky: CLEAR_SKY,
    terrain: { elevation: 55, slopeDeg: 2, aspectDeg: 100 },
    tmf: { plot: { kind: 'deforested', year: 1997, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    concession: 'inside',
    alerts: [{ dataset: 'wur_radd_alerts', where: { x: -350, y: 420, radiusM: 70 }, first: '2023-07-04', last: '2023-08-15', confidence: 'nominal' }],
    protectedAreas: [{ name: 'Bukit Tigapuluh buffer reserve (demo outline)', tags: { leisure: 'nature_reserve', boundary: 'protected_area', protect_class: '4' }, x: -11000, y: -15000, rx: 5000, ry: 5000 }],
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts({ inside_licensed_pulpwood_concession: true }) },
    truth: { verdict: WEAK, reason: 'inside_licensed_pulpwood_concession', reasons: ['inside_licensed_pulpwood_concession', AGREE] },
  },
  {
    name: 'id-kalbar-rubber',
    title: 'Rubber outside every mapped concession, West Kalimantan (Indonesia)',
    country: 'ID', commodity: 'rubber', centre: [110.35, 0.15],
    plot: { areaHa: 8.8, aspect: 1.2, angleDeg: 25 }, producer: 'Demo Sanggau Rubber Union', plantedYear: 2004,
    story: 'A wintering rubber garden near, not in, a wood-fibre concession; read again with the concession layer or the Landsat record down, it is withheld.',
    plotCover: 'rubber', trough: { doy: 240 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 45, slopeDeg: 2, aspectDeg: 330 },
    tmf: { plot: { kind: 'deforested', year: 1995, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    concession: 'nearby',
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: {
      verdict: EVIDENCED, reason: AGREE, reasons: [AGREE],
      variants: [
        { unreadable: 'gfw_wood_fiber', verdict: WEAK, reason: 'concession_layer_unavailable', reasons: ['concession_layer_unavailable', AGREE] },
        { unreadable: 'tmf', verdict: WEAK, reason: 'landsat_record_unavailable', reasons: ['landsat_record_unavailable', AGREE] },
      ],
    },
  },
  {
    name: 'pe-madre-de-dios-eu-forest',
    title: 'Rubber agroforest the EU 2020 maps read as forest, Madre de Dios (Peru)',
    country: 'PE', commodity: 'rubber', centre: [-69.25, -12.55],
    plot: { areaHa: 10.6, aspect: 1.3, angleDeg: -60 }, producer: 'Demo Shiringueros de Tambopata', plantedYear: 2008,
    story: 'Rubber planted under thinned forest: it winters in August and reads as a crop, but the Commission\'s 2020 map classes 80% of it as forest.',
    plotCover: 'rubber', trough: { doy: 222 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 210, slopeDeg: 2, aspectDeg: 20 },
    tmf: { plot: { kind: 'degraded', year: 2005 }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0.8, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts({ eu_forest_maps_read_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: WEAK, reason: 'eu_forest_maps_read_forest', reasons: ['eu_forest_maps_read_forest', AGREE] },
  },
  {
    name: 'in-kerala-planted-forest',
    title: 'Rubber the 2020 forest-type map classes as planted forest, Kottayam (Kerala)',
    country: 'IN', commodity: 'rubber', centre: [76.6, 9.55],
    plot: { areaHa: 9.4, aspect: 1.2, angleDeg: 10 }, producer: 'Demo Meenachil Rubber Marketing Society', plantedYear: 2001,
    story: 'An old rubber estate mapped as planted forest (70% of the plot) on the Commission\'s 2020 forest-type map.',
    plotCover: 'rubber', trough: { doy: 40 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 110, slopeDeg: 5, aspectDeg: 240 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0.7, forestType: 'planted' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts({ planted_forest_2020: true, eu_forest_maps_read_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: WEAK, reason: 'planted_forest_2020', reasons: ['planted_forest_2020', 'eu_forest_maps_read_forest', AGREE] },
  },
  {
    name: 'vn-binh-phuoc-shade-veto',
    title: 'Rubber whose trough keeps forest-like shade, overruled by radar and the Landsat record, Binh Phuoc (Vietnam)',
    country: 'VN', commodity: 'rubber', centre: [106.9, 11.65],
    plot: { areaHa: 11.2, aspect: 1.4, angleDeg: 80 }, producer: 'Demo Dong Phu Rubber Households', plantedYear: 2007,
    story: 'A dense clone that winters only partly: shade at the trough reads forest-like, but radar confidently reads a crop (its return under that of any forest) and the Landsat record dates its clearing to 1996; its 15 m canopy is as tall as secondary forest, so height gives no answer.',
    plotCover: 'rubber', trough: { doy: 40, spectrum: { red: 0.06, nir: 0.27 } }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 150, slopeDeg: 3, aspectDeg: 90 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'phase_locked', shade: SHADE_FOREST, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts({ record_cleared_by_2015: true }) },
    truth: { verdict: EVIDENCED, reason: 'shade_veto_overruled_by_structure_and_record', reasons: ['shade_veto_overruled_by_structure_and_record'] },
  },
  {
    name: 'kh-kampong-cham-record',
    title: 'Rubber with a forest-like trough, overruled by radar and a clearing dated 2008, Kampong Cham (Cambodia)',
    country: 'KH', commodity: 'rubber', centre: [105.6, 11.93],
    plot: { areaHa: 10.8, aspect: 1.2, angleDeg: -20 }, producer: 'Demo Chup Rubber Families', plantedYear: 2009,
    story: 'Shade reads forest-like and the canopy height sits between the lines, but radar confidently reads a crop and the Landsat record dates the clearing to 2008.',
    plotCover: 'rubber', trough: { doy: 35, spectrum: { red: 0.06, nir: 0.27 } }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    plotHeight: { median: 21, sd: 1.5 },
    terrain: { elevation: 80, slopeDeg: 2, aspectDeg: 160 },
    tmf: { plot: { kind: 'deforested', year: 2008, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0.3, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_FOREST, radar: RADAR_CROP, height: HEIGHT_MID, terrain_outside: false, context: facts({ record_cleared_by_2015: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: EVIDENCED, reason: 'shade_veto_overruled_by_structure_and_record', reasons: ['shade_veto_overruled_by_structure_and_record'] },
  },
  {
    name: 'ci-bouafle-eu-maps',
    title: 'Rubber in the savanna belt with a forest-like trough that nothing can overrule, Bouaflé (Côte d\'Ivoire)',
    country: 'CI', commodity: 'rubber', centre: [-5.75, 6.95],
    plot: { areaHa: 12.5, aspect: 1.5, angleDeg: 35 }, producer: 'Demo Marahoué Hévéa Cooperative', plantedYear: 2006,
    story: 'Shade reads forest-like; radar has no forest around to compare with, and the 15 m canopy is as tall as a secondary or dry forest, so nothing independent of the record reads a crop, whatever the 2020 maps say.',
    plotCover: 'rubber', trough: { doy: 25, spectrum: { red: 0.06, nir: 0.27 } }, surround: { main: 'savanna', other: 'farmland', otherShare: 0.4 }, sky: CLEAR_SKY,
    terrain: { elevation: 230, slopeDeg: 2, aspectDeg: 10 },
    tmf: { plot: { kind: 'never' }, surround: { kind: 'never' } },
    euMaps: { forestShare: 0.05, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_FOREST, radar: RADAR_NO_FOREST, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: 'structural_reading_says_forest', reasons: ['structural_reading_says_forest'] },
  },
  {
    name: 'th-nan-deciduous-forest',
    title: 'Dry deciduous forest declared as rubber, Nan (northern Thailand)',
    country: 'TH', commodity: 'rubber', centre: [100.85, 18.85],
    plot: { areaHa: 9.9, aspect: 1.1, angleDeg: -5 }, producer: 'Demo Nan Upland Farmers', plantedYear: 2012,
    story: 'A dipterocarp forest that sheds its leaves every March: the cycle is real, but radar and height read a forest.',
    plotCover: 'deciduous_forest', trough: { doy: 75 }, surround: { main: 'deciduous_forest', other: 'farmland', otherShare: 0.2 }, sky: CLEAR_SKY,
    terrain: { elevation: 420, slopeDeg: 9, aspectDeg: 270 },
    tmf: { plot: { kind: 'never' }, surround: { kind: 'never' } },
    euMaps: { forestShare: 0.9, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_DECIDUOUS, radar: RADAR_FOREST, height: HEIGHT_FOREST, terrain_outside: false, context: facts({ eu_forest_maps_read_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: WEAK, reason: 'structural_reading_says_forest', reasons: ['structural_reading_says_forest'] },
  },
  {
    name: 'lk-kalutara-inconsistent',
    title: 'Rubber with a cycle in alternate years only, Kalutara (Sri Lanka)',
    country: 'LK', commodity: 'rubber', centre: [80.2, 6.62],
    plot: { areaHa: 8.2, aspect: 1.3, angleDeg: 50 }, producer: 'Demo Kalutara Rubber Smallholders', plantedYear: 2005,
    story: 'Wintering seen in 2016, 2018 and 2020 but not in 2017 or 2019 (an intercropped, irregularly tapped holding).',
    plotCover: 'rubber', trough: { doy: 50, dipSeasons: 'even' }, surround: SURROUND_FOREST, sky: { overcast: 0, overcastAtTrough: 0 },
    terrain: { elevation: 45, slopeDeg: 4, aspectDeg: 300 },
    tmf: { plot: ESTABLISHED_RUBBER, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'not_consistent', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: 'cycle_not_consistent', reasons: ['cycle_not_consistent'] },
  },
  {
    name: 'mm-mon-tmf-undisturbed',
    title: 'Old rubber the Landsat record reads as undisturbed forest, Mon State (Myanmar)',
    country: 'MM', commodity: 'rubber', centre: [97.75, 16.35],
    plot: { areaHa: 9.1, aspect: 1.2, angleDeg: 22 }, producer: 'Demo Mudon Rubber Growers', plantedYear: 1995,
    story: 'A tall, old rubber stand: it winters and reads as a crop, but the moist-forest record keeps 70% of it undisturbed forest.',
    plotCover: 'rubber', trough: { doy: 45 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 30, slopeDeg: 2, aspectDeg: 250 },
    tmf: { plot: { kind: 'deforested', year: 1994, to: 'plantation' }, plotShare: 0.3, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0.2, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts({ landsat_record_reads_undisturbed_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: WEAK, reason: 'landsat_record_reads_undisturbed_forest', reasons: ['landsat_record_reads_undisturbed_forest', AGREE] },
  },
  {
    name: 'cm-tiko-frontier',
    title: 'Rubber where two calibration regions overlap, Tiko (Cameroon)',
    country: 'CM', commodity: 'rubber', centre: [9.38, 4.12],
    plot: { areaHa: 10.2, aspect: 1.2, angleDeg: 0 }, producer: null, plantedYear: 1997,
    story: 'An estate block near the Nigerian border whose centroid falls in both the West and the Central Africa calibration boxes; it has no producer, so no country chooses between them.',
    plotCover: 'rubber', trough: { doy: 30 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 25, slopeDeg: 2, aspectDeg: 200 },
    tmf: { plot: { kind: 'deforested', year: 1991, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: EVIDENCED, reason: AGREE, reasons: [AGREE] },
  },
  // Four sites whose plots straddle a tile edge of one product (and, being on round degrees, often
  // of others): the engine has to read each plot from more than one file and still read it whole.
  {
    name: 'id-musi-banyuasin-s2-edge',
    title: 'Rubber across the edge of two Sentinel-2 tiles, Musi Banyuasin (South Sumatra)',
    country: 'ID', commodity: 'rubber', centre: [104.2, -2.7145],
    plot: { areaHa: 9.6, aspect: 1.3, angleDeg: 12 }, producer: 'Demo Sungai Lilin Rubber Growers', plantedYear: 2003,
    story: 'A wintering rubber garden across the northern edge of MGRS square 48MVB: every pass is published in 48MVB, whose file holds only the plot\'s southern part, and in 48MVC, whose file reaches 9.8 km south of its square and holds it whole.',
    plotCover: 'rubber', trough: { doy: 220 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 30, slopeDeg: 1, aspectDeg: 80 },
    tmf: { plot: { kind: 'deforested', year: 1998, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: EVIDENCED, reason: AGREE, reasons: [AGREE] },
  },
  {
    name: 'br-bahia-palsar-edge',
    title: 'Rubber across 14°S, the edge of two PALSAR mosaic tiles, Ituberá (Bahia)',
    country: 'BR', commodity: 'rubber', centre: [-39.3, -14.0],
    plot: { areaHa: 10.1, aspect: 1.2, angleDeg: 25 }, producer: 'Demo Baixo Sul Seringueiros', plantedYear: 1998,
    story: 'An old clonal rubber estate among Atlantic forest remnants, wintering in August; the 14th parallel runs through it, so its radar is read from the 1° mosaics on both sides.',
    plotCover: 'rubber', trough: { doy: 232 }, surround: SURROUND_FOREST, sky: CLEAR_SKY,
    terrain: { elevation: 90, slopeDeg: 3, aspectDeg: 150 },
    tmf: { plot: { kind: 'never' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'naturally_regenerating' },
    intended: { cycle: 'phase_locked', shade: SHADE_CROP, radar: RADAR_CROP, height: HEIGHT_CROP, terrain_outside: false, context: facts() },
    truth: { verdict: EVIDENCED, reason: AGREE, reasons: [AGREE] },
  },
  {
    name: 'ci-gagnoa-height-edge',
    title: 'Closed moist forest across 6°N, the edge of two canopy-height tiles, declared as cocoa, Gagnoa (Côte d\'Ivoire)',
    country: 'CI', commodity: 'cocoa', centre: [-5.9, 6.0],
    plot: { areaHa: 8.6, aspect: 1.2, angleDeg: -35 }, producer: 'Demo Gôh Cocoa Cooperative', plantedYear: null,
    story: 'Undisturbed moist forest in the cocoa belt, declared as a cocoa farm; the 6th parallel splits it between the 3° canopy-height tiles N03W006 and N06W006, and its forest canopy is read from both.',
    plotCover: 'forest', trough: { doy: 20 }, surround: { main: 'forest', other: 'farmland', otherShare: 0.2 }, sky: { overcast: 0, overcastAtTrough: 0.3 },
    terrain: { elevation: 200, slopeDeg: 4, aspectDeg: 20 },
    tmf: { plot: { kind: 'forest' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 1, forestType: 'naturally_regenerating' },
    intended: { cycle: 'no_cycle', shade: SHADE_EVERGREEN_FOREST, radar: RADAR_FOREST, height: HEIGHT_FOREST, terrain_outside: false, context: facts({ eu_forest_maps_read_forest: true, landsat_record_reads_undisturbed_forest: true, eu_maps_at_most_a_tenth_forest: false }) },
    truth: { verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle'] },
  },
  {
    name: 'th-chumphon-tmf-edge',
    title: 'Smallholder oil palm across 10°N, the edge of two moist-forest record tiles, Chumphon (Thailand)',
    country: 'TH', commodity: 'oil_palm', centre: [99.05, 10.0],
    plot: { areaHa: 9.7, aspect: 1.3, angleDeg: -10 }, producer: 'Demo Lamae Oil Palm Cooperative', plantedYear: 2006,
    story: 'A mature oil palm block on land cleared in 1993; the 10th parallel divides its Landsat moist-forest record between the 10° tiles N10_E90 and N20_E90.',
    plotCover: 'oil_palm', trough: { doy: 60 }, surround: { main: 'forest', other: 'oil_palm', otherShare: 0.35 }, sky: { overcast: 0, overcastAtTrough: 0.2 },
    terrain: { elevation: 45, slopeDeg: 2, aspectDeg: 90 },
    tmf: { plot: { kind: 'deforested', year: 1993, to: 'plantation' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    oilPalm: { class: 2, plantingYear: 2006 },
    intended: { cycle: 'no_cycle', shade: SHADE_PALM, radar: RADAR_PALM, height: HEIGHT_PALM, terrain_outside: false, context: facts() },
    truth: { verdict: WEAK, reason: 'evergreen_canopy_unsupported', reasons: ['evergreen_canopy_unsupported'] },
  },
];

/** What `npm run demo -- sites --json` prints for each site. */
export interface DemoSiteSummary {
  name: string;
  title: string;
  country: string;
  commodity: string;
  /** GeoJSON Polygon around the site's plot (the ground the demo archive covers best). */
  bounds: { type: 'Polygon'; coordinates: number[][][] };
  plot_ref: string;
  verdict: Verdict;
  reason: ReasonCode;
  reasons: ReasonCode[];
  variants: NonNullable<SiteTruth['variants']>;
  intended: IntendedReadings;
  story: string;
}

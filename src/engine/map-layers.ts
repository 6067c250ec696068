/**
 * The layers of the map tiles (spec 4.10, last paragraph): imagery drawn from the optical scenes
 * the evidence reads, and change layers drawn from the loss and alert products its context
 * blocks read. Each layer's zoom range, colours and legend live here once; the API checks requests
 * against them, the pool colours pixels with them, and the legend route serves them.
 */
import { HANSEN_VERSION, hansenProvenance } from './sources/products/hansen/codes.ts';
import { ALERT_PRODUCTS } from './sources/products/gfw-alerts/codes.ts';
import { TMF_FIRST_YEAR, TMF_LAST_YEAR, tmfProvenance } from './sources/products/tmf/codes.ts';

export const IMAGERY_LAYERS = ['true_colour', 'ndvi'] as const;
export type ImageryLayer = (typeof IMAGERY_LAYERS)[number];
export const CHANGE_LAYERS = ['tmf_loss', 'hansen_loss', 'alerts'] as const;
export type ChangeLayer = (typeof CHANGE_LAYERS)[number];

/**
 * Zoom ranges. A tile is read from the full-resolution pixels (the archives' files carry no
 * overviews the readers trust), so the shallowest zoom keeps a tile's ground within a few
 * thousand source pixels a side: zoom 12 is about 10 km at the equator, 1,000 Sentinel-2 pixels;
 * zoom 10 about 39 km, 1,300 pixels of the 30 m loss maps. Past zoom 18 a tile pixel is under
 * half a metre, twenty times finer than any source pixel.
 */
export const ZOOMS: Record<ImageryLayer | ChangeLayer, { min: number; max: number }> = {
  true_colour: { min: 12, max: 18 },
  ndvi: { min: 12, max: 18 },
  tmf_loss: { min: 10, max: 18 },
  hansen_loss: { min: 10, max: 18 },
  alerts: { min: 10, max: 18 },
};

/** RGBA, 0–255. */
export type Rgba = [number, number, number, number];

/** Reflectance up to this value spans a true-colour tile's 8 bits, on a square-root curve that lifts dark canopy (as the document's chip). */
export const TRUE_COLOUR_WHITE = 0.3;

/** NDVI colour stops, bare ground brown through sparse yellow to dense green; between stops the colour is interpolated. */
export const NDVI_STOPS: ReadonlyArray<{ at: number; rgba: Rgba }> = [
  { at: -0.2, rgba: [120, 72, 40, 255] },
  { at: 0.2, rgba: [214, 180, 96, 255] },
  { at: 0.45, rgba: [190, 214, 90, 255] },
  { at: 0.7, rgba: [76, 160, 60, 255] },
  { at: 0.9, rgba: [16, 84, 32, 255] },
];

/**
 * A change layer's classes: a pixel whose value lies in [from, to] takes the class's colour; a
 * value no class holds is transparent. Years run up to the products' last year; the cutoff
 * (2020-12-31) splits loss before it, drawn muted, from loss after it, one colour a year.
 */
export interface ChangeClass {
  label: string;
  from: number;
  to: number;
  rgba: Rgba;
}

export interface ChangeLegend {
  layer: ChangeLayer;
  title: string;
  /** What a pixel's value is before it is classed. */
  value: string;
  classes: ChangeClass[];
  source: { dataset: string; version: string };
  licence: string;
  attribution: string;
  citation: string;
}

const POST_CUTOFF: Rgba[] = [[255, 214, 0, 255], [255, 145, 0, 255], [244, 67, 54, 255], [194, 24, 91, 255], [123, 31, 162, 255]];
const BEFORE_CUTOFF: Rgba = [158, 158, 158, 200];

/** Classes of a value that is a calendar year (offset by `base`): before the cutoff, then each year from 2021 to `lastYear`. */
function yearClasses(base: number, firstYear: number, lastYear: number): ChangeClass[] {
  const out: ChangeClass[] = [{ label: `lost ${firstYear}–2020, before the cutoff`, from: firstYear - base, to: 2020 - base, rgba: BEFORE_CUTOFF }];
  for (let year = 2021; year <= lastYear; year++) {
    out.push({ label: `lost in ${year}`, from: year - base, to: year - base, rgba: POST_CUTOFF[Math.min(year - 2021, POST_CUTOFF.length - 1)] });
  }
  return out;
}

/** Alert pixels are classed by confidence; their values are the confidence codes of ALERT_CONFIDENCE_CODE. */
export const ALERT_CONFIDENCE_CODE = { nominal: 2, high: 3, highest: 4 } as const;
/** Alerts are drawn from this date: the ones after the cutoff. */
export const ALERTS_FROM = '2021-01-01';

const integrated = ALERT_PRODUCTS.integrated;
// The products' own terms, as the evidence cites them (no tile named: a legend is of the whole layer).
const tmf = tmfProvenance('DeforestationYear', '', {});
const hansen = hansenProvenance('lossyear', '', {});
const termsOf = (p: typeof tmf) => ({ source: { dataset: p.dataset, version: p.version }, licence: p.licence, attribution: p.attribution, citation: p.citation });

export const CHANGE_LEGENDS: Record<ChangeLayer, ChangeLegend> = {
  tmf_loss: {
    layer: 'tmf_loss',
    title: 'Moist-forest loss by year (deforestation)',
    value: 'the calendar year of the first deforestation event (TMF DeforestationYear); 0 is none',
    classes: yearClasses(0, TMF_FIRST_YEAR, TMF_LAST_YEAR),
    ...termsOf(tmf),
  },
  hansen_loss: {
    layer: 'hansen_loss',
    title: 'Tree-cover loss by year',
    value: 'lossyear: n for loss in 2000 + n; 0 is none',
    classes: yearClasses(2000, 2001, HANSEN_VERSION.lastYear),
    ...termsOf(hansen),
  },
  alerts: {
    layer: 'alerts',
    title: `Published deforestation alerts since ${ALERTS_FROM}, by confidence`,
    value: 'the alert\'s confidence as published',
    classes: [
      { label: 'nominal confidence', from: ALERT_CONFIDENCE_CODE.nominal, to: ALERT_CONFIDENCE_CODE.nominal, rgba: [255, 193, 7, 255] },
      { label: 'high confidence', from: ALERT_CONFIDENCE_CODE.high, to: ALERT_CONFIDENCE_CODE.high, rgba: [244, 81, 30, 255] },
      { label: 'highest confidence', from: ALERT_CONFIDENCE_CODE.highest, to: ALERT_CONFIDENCE_CODE.highest, rgba: [183, 28, 28, 255] },
    ],
    source: { dataset: integrated.dataset, version: 'the newest version the GFW Data API reports' },
    licence: integrated.licence,
    attribution: integrated.attribution,
    citation: integrated.citation,
  },
};

export const isImageryLayer = (v: string): v is ImageryLayer => (IMAGERY_LAYERS as readonly string[]).includes(v);
export const isChangeLayer = (v: string): v is ChangeLayer => (CHANGE_LAYERS as readonly string[]).includes(v);

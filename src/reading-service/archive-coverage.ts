/**
 * Which archives cover a place (spec 4.10, last paragraph, "archive coverage"): the optical
 * scenes a read and the imagery tiles draw from, the radar, canopy-height and terrain maps its
 * instruments read, the loss maps and published alerts the change tiles draw, each with the tiles
 * over the place, the years it holds, the versions read and, for scenes, the date of the latest.
 * Each is found the way a read finds it (the same adapters, mirrors and catalogues). A product
 * that cannot be asked now says so rather than failing the answer.
 */
import { notFound } from '../errors.ts';
import { plotWithBoundary } from '../store/register/plots.ts';
import type { Em } from '../store/orm.ts';
import type { Archive } from '../engine/archive.ts';
import { footprintBox } from '../engine/context/plot.ts';
import { ALERTS_FROM } from '../engine/map-layers.ts';
import { permanent, RADAR_INSTRUMENT, RADAR_YEARS } from '../engine/plan/read-plan.ts';
import { isTransient } from '../engine/sources/errors.ts';
import { CANOPY_HEIGHT_DATASET } from '../engine/sources/products/canopy-height/codes.ts';
import { DEM_DATASET } from '../engine/sources/products/copernicus-dem/codes.ts';
import { ALERT_PRODUCTS, type AlertProduct, alertsBand, alertsCover } from '../engine/sources/products/gfw-alerts/codes.ts';
import { HANSEN_VERSION } from '../engine/sources/products/hansen/codes.ts';
import { LANDSAT_CATALOGUE } from '../engine/sources/products/landsat/codes.ts';
import { PalsarUnavailableError } from '../engine/sources/products/palsar/reader.ts';
import { S2_CATALOGUES } from '../engine/sources/products/sentinel-2/codes.ts';
import { TMF_FIRST_YEAR, TMF_LAST_YEAR, TMF_VERSION } from '../engine/sources/products/tmf/codes.ts';
import { tilesRead } from '../engine/sources/raster-request.ts';
import type { Bbox } from '../engine/sources/reproject.ts';

export const COVERAGE_PRODUCTS = ['sentinel-2', 'landsat', 'palsar', 'canopy-height', 'copernicus-dem', 'hansen', 'tmf', 'integrated-alerts', 'radd-alerts'] as const;

export interface ProductCoverage {
  product: (typeof COVERAGE_PRODUCTS)[number];
  /** The collection or dataset read. */
  dataset: string;
  covered: boolean;
  /** The archive's tiles over the place: MGRS squares, WRS-2 path/rows, 1°, 3° or 10° tiles; none for alerts, which are asked of an API. */
  tiles: string[];
  /** Years it holds data for over the place, ascending (for alerts, those since the cutoff up to the version's). */
  years: number[];
  /** Processing baselines (Sentinel-2), collection (Landsat), each radar year's mirror, release or alert version read. */
  versions: string[];
  /** The latest scene over the place (optical products); null otherwise. */
  last_scene_date: string | null;
  /** Why it is not covered or could not be asked; null when covered. */
  note: string | null;
}

/** Sentinel-2A's first Level-2A products and Landsat 8's first scenes: searches start here. */
const S2_FROM = '2015-06-23';
const LANDSAT_FROM = '2013-03-18';

const sortedUnique = <T>(values: Iterable<T>): T[] => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const none = (product: ProductCoverage['product'], dataset: string, note: string): ProductCoverage =>
  ({ product, dataset, covered: false, tiles: [], years: [], versions: [], last_scene_date: null, note });
/** A product without scenes that covers the place. */
const covered = (product: ProductCoverage['product'], dataset: string, tiles: string[], years: number[], versions: string[]): ProductCoverage =>
  ({ product, dataset, covered: true, tiles, years, versions, last_scene_date: null, note: null });
const unreadable = (err: unknown) => `could not be asked just now (${(err as { code?: string }).code ?? (err as Error).message}); ask again later`;

function scenesCoverage(
  product: 'sentinel-2' | 'landsat', dataset: string, scenes: ReadonlyArray<{ datetime: string; tile: string }>, versions: string[],
): ProductCoverage {
  if (scenes.length === 0) return none(product, dataset, 'no scene of the archive lies over the place');
  const dates = scenes.map((s) => s.datetime.slice(0, 10));
  return {
    product, dataset, covered: true,
    tiles: sortedUnique(scenes.map((s) => s.tile)),
    years: sortedUnique(dates.map((d) => Number(d.slice(0, 4)))),
    versions,
    last_scene_date: dates.reduce((a, b) => (a > b ? a : b)),
    note: null,
  };
}

/** The radar years the evidence reads, each from the first mirror holding it. */
async function palsarCoverage(archive: Archive, box: Bbox, signal?: AbortSignal): Promise<ProductCoverage> {
  const tried = await Promise.allSettled(RADAR_YEARS.map((year) => archive.palsar.windows(box, year, signal)));
  const read = tried.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
  if (read.length === 0) {
    const causes = tried.flatMap((t) => (t.status === 'rejected' ? (t.reason instanceof PalsarUnavailableError ? t.reason.causes.map((c) => c.error) : [t.reason]) : []));
    const failed = tried.find((t): t is PromiseRejectedResult => t.status === 'rejected' && !(t.reason instanceof PalsarUnavailableError));
    if (failed !== undefined || causes.some(isTransient)) return none('palsar', RADAR_INSTRUMENT, unreadable(failed?.reason ?? causes.find(isTransient)));
    return none('palsar', RADAR_INSTRUMENT, `no mirror holds a mosaic of ${RADAR_YEARS.join(' or ')} over the place`);
  }
  const tiles = sortedUnique(read.flatMap((r) => tilesRead(r)));
  return covered('palsar', RADAR_INSTRUMENT, tiles, read.map((r) => r.year), read.map((r) => `${r.year} (${r.mirror} mirror)`));
}

/** A published alert product: inside its latitude band, at the newest version its catalogue reports. */
async function alertsCoverage(archive: Archive, product: AlertProduct, box: Bbox, today: string, signal?: AbortSignal): Promise<ProductCoverage> {
  const name = product === 'integrated' ? 'integrated-alerts' : 'radd-alerts';
  const { dataset } = ALERT_PRODUCTS[product];
  if (!alertsCover(product, (box[1] + box[3]) / 2)) return none(name, dataset, alertsBand(product));
  try {
    const { version } = await archive.alerts.catalogue(product, signal);
    // Versions are named by their date (`v20250909`).
    const versionYear = /^v(\d{4})\d{2,4}$/.exec(version)?.[1];
    return covered(name, dataset, [], span(Number(ALERTS_FROM.slice(0, 4)), Number(versionYear ?? today.slice(0, 4))), [version]);
  } catch (err) {
    return none(name, dataset, unreadable(err));
  }
}

export async function archiveCoverage(archive: Archive, box: Bbox, today: string, signal?: AbortSignal): Promise<{ synthetic: boolean; products: ProductCoverage[] }> {
  const s2Dataset = S2_CATALOGUES[archive.s2Catalogue].collection;
  const q = (start: string) => ({ bbox: box, start, end: today });
  const products = await Promise.all([
    archive.sentinel2.search(q(S2_FROM), signal).then(
      (scenes) => scenesCoverage('sentinel-2', s2Dataset, scenes, sortedUnique(scenes.map((s) => `baseline ${s.processingBaseline}`))),
      (err: unknown) => none('sentinel-2', s2Dataset, unreadable(err)),
    ),
    archive.landsat.search(q(LANDSAT_FROM), signal).then(
      (scenes) => scenesCoverage('landsat', LANDSAT_CATALOGUE.collection, scenes, [LANDSAT_CATALOGUE.collection]),
      (err: unknown) => none('landsat', LANDSAT_CATALOGUE.collection, unreadable(err)),
    ),
    palsarCoverage(archive, box, signal),
    archive.canopyHeight.windows(box, ['Map'], signal).then(
      (read) => covered('canopy-height', CANOPY_HEIGHT_DATASET.name, tilesRead(read), [CANOPY_HEIGHT_DATASET.year], [CANOPY_HEIGHT_DATASET.version]),
      (err: unknown) => none('canopy-height', CANOPY_HEIGHT_DATASET.name, permanent(err) ? 'the map holds no tile over the place' : unreadable(err)),
    ),
    archive.dem.windows(box, signal).then(
      (read) => read === null
        ? none('copernicus-dem', DEM_DATASET.name, 'the model holds no tile over the place (it has none over open sea)')
        // The model is one surface, not a yearly series.
        : covered('copernicus-dem', DEM_DATASET.name, tilesRead(read), [], [DEM_DATASET.version]),
      (err: unknown) => none('copernicus-dem', DEM_DATASET.name, permanent(err) ? 'the model holds no readable tile over the place' : unreadable(err)),
    ),
    archive.hansen.windows(box, ['lossyear'], signal).then(
      (read): ProductCoverage => {
        const tiles = tilesRead(read);
        if (tiles.length === 0) return none('hansen', 'Hansen/UMD Global Forest Change', 'the archive holds no tile over the place');
        return covered('hansen', 'Hansen/UMD Global Forest Change', tiles, span(2001, HANSEN_VERSION.lastYear), [HANSEN_VERSION.release]);
      },
      (err: unknown) => none('hansen', 'Hansen/UMD Global Forest Change', (err as { code?: string }).code === 'not_found' ? 'the archive holds no tile over the place' : unreadable(err)),
    ),
    archive.tmf.windows(box, ['DeforestationYear'], signal).then(
      (read): ProductCoverage => {
        if (!read.checked) return none('tmf', 'JRC Tropical Moist Forest', read.reason === 'outside_coverage' ? 'the product covers 30°S to 30°N only' : 'the archive holds no tile over the place');
        return covered('tmf', 'JRC Tropical Moist Forest', tilesRead(read), span(TMF_FIRST_YEAR, TMF_LAST_YEAR), [TMF_VERSION]);
      },
      (err: unknown) => none('tmf', 'JRC Tropical Moist Forest', unreadable(err)),
    ),
    alertsCoverage(archive, 'integrated', box, today, signal),
    alertsCoverage(archive, 'radd', box, today, signal),
  ]);
  return { synthetic: archive.synthetic, products };
}

/** A place asked about: a plot of the workspace (its boundary, or its point) or a point. */
export type Place = { plotId: string } | { lon: number; lat: number };

/** About a metre either side of a point: the box a point's coverage is asked over. */
const POINT_HALF_DEG = 0.00001;

/**
 * The coverage of a place; a plot outside the workspace, or without a boundary, is not found. The
 * archive is opened only once the place is known, so naming another workspace's plot costs no opening.
 */
export async function placeCoverage(em: Em, archive: () => Promise<Archive>, workspaceId: string, place: Place, today: string) {
  let box: Bbox;
  let plotId: string | null = null;
  if ('plotId' in place) {
    const plot = await plotWithBoundary(em, workspaceId, place.plotId);
    if (plot === null || plot.geometry === null) throw notFound(plot === null ? `no plot ${place.plotId} in this workspace` : `plot ${place.plotId} has no boundary or point to look up`);
    const g = plot.geometry;
    box = g.type === 'Point' ? pointBox(g.coordinates[0], g.coordinates[1]) : footprintBox(g);
    plotId = plot.id;
  } else box = pointBox(place.lon, place.lat);
  const [w, s, e, n] = box;
  return { plot_id: plotId, place: { lon: (w + e) / 2, lat: (s + n) / 2 }, ...(await archiveCoverage(await archive(), box, today)) };
}

const pointBox = (lon: number, lat: number): Bbox => [lon - POINT_HALF_DEG, lat - POINT_HALF_DEG, lon + POINT_HALF_DEG, lat + POINT_HALF_DEG];

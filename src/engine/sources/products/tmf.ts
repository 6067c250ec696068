// JRC Tropical Moist Forest (Vancutsem et al. 2021), 30 m, 10°×10° tiles served by a download
// script that ignores Range: tiles are fetched whole and kept on disk (data-products.md §6).
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Cog } from '../cog.ts';
import { isSourceError } from '../errors.ts';
import { archiveUrl } from './archive-url.ts';
import { CogOpener, type ProductDeps } from './cog-opener.ts';
import type { ArchiveLocation, Provenance, RasterRead } from './provenance.ts';
import { withSynthetic } from './provenance.ts';

export const TMF_VERSION = 'v1_2025';
export const TMF_FIRST_YEAR = 1990;
export const TMF_LAST_YEAR = 2025;
const DOWNLOAD = 'https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py';

export type TmfDataset = `AnnualChange_${number}` | 'DeforestationYear' | 'DegradationYear' | 'TransitionMap_Subtypes' | 'TransitionMap_MainClasses';

export const ANNUAL_CHANGE = {
  NO_DATA: 0,
  UNDISTURBED: 1,
  DEGRADED: 2,
  DEFORESTED: 3,
  REGROWTH: 4,
  WATER: 5,
  OTHER: 6,
} as const;

export const MAIN_CLASSES = {
  UNDISTURBED: 10,
  DEGRADED: 20,
  REGROWTH: 30,
  DEFORESTED_TO_PLANTATION: 41,
  DEFORESTED_TO_WATER: 42,
  DEFORESTED_TO_OTHER: 43,
  ONGOING_DISTURBANCE: 50,
  WATER: 60,
  OTHER: 70,
} as const;

/**
 * Transition sub-types 81–86 are plantations (Whisp's `TMF_plant`); what tells 81 from 86, and the
 * meaning of each other sub-type, is unconfirmed (TMF Data Users Guide), so only the range is used.
 */
export const SUBTYPE_PLANTATION_MIN = 81;
export const SUBTYPE_PLANTATION_MAX = 86;
export function isPlantationSubtype(v: number): boolean {
  return v >= SUBTYPE_PLANTATION_MIN && v <= SUBTYPE_PLANTATION_MAX;
}

/** DeforestationYear / DegradationYear: calendar year of the first event, 0 = none. */
export function eventYear(v: number): number | null {
  return v === 0 ? null : v;
}

/**
 * The product covers 30°S–30°N. Its official tile list (86 tiles, a derived count) is unconfirmed,
 * so a tile inside the band is tried and a "no file" answer means no tile there.
 */
export function tmfCovers(lat: number): boolean {
  return lat >= -30 && lat < 30;
}

/** Tile tags of the north-west corner: `N0` covers 10°S–0°, `W80` covers 80–70°W. */
export function tmfTile(lon: number, lat: number): { lat: string; lon: string; id: string } {
  const north = Math.floor(lat / 10) * 10 + 10;
  const west = Math.floor(lon / 10) * 10;
  const latTag = north > 0 ? `N${north}` : north === 0 ? 'N0' : `S${-north}`;
  const lonTag = west >= 0 ? `E${west}` : `W${-west}`;
  return { lat: latTag, lon: lonTag, id: `${latTag}_${lonTag}` };
}

export function tmfHref(dataset: TmfDataset, tile: { lat: string; lon: string }): string {
  return `${DOWNLOAD}?type=tile&dataset=${dataset}&lat=${tile.lat}&lon=${tile.lon}`;
}

export function annualChangeDataset(year: number): TmfDataset {
  if (year < TMF_FIRST_YEAR || year > TMF_LAST_YEAR) throw new RangeError(`TMF annual change runs ${TMF_FIRST_YEAR}–${TMF_LAST_YEAR}, not ${year}`);
  return `AnnualChange_${year}`;
}

export function tmfProvenance(dataset: TmfDataset, tileId: string, where: ArchiveLocation): Provenance {
  return withSynthetic({
    dataset: `JRC Tropical Moist Forest ${dataset}`,
    version: TMF_VERSION,
    tile: tileId,
    licence: 'Free of charge, no restriction of use (European Commission JRC)',
    attribution: 'Source: EC JRC',
    citation: 'Vancutsem, C. et al. (2021) Long-term (1990–2019) monitoring of forest cover changes in the humid tropics. Science Advances 7:eabe1603',
  }, where);
}

// --- Adapter -----------------------------------------------------------------------------------

export type TmfRead =
  | { checked: false; available: false; reason: 'outside_coverage' | 'no_tile'; tile: string }
  | { checked: true; available: true; tile: string; layers: Partial<Record<TmfDataset, RasterRead>> };

export interface TmfAdapter {
  /**
   * Reads datasets over a box (lon/lat). Outside 30°S–30°N nothing is asked for; a tile the
   * host says does not exist reads as "no tile"; any other failure throws and is not remembered.
   */
  read(bbox: [number, number, number, number], datasets: TmfDataset[], signal?: AbortSignal): Promise<TmfRead>;
  /** Opens one dataset's tile from the local copy (downloaded whole first when the archive is remote). */
  open(dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal): Promise<Cog>;
}

/**
 * The TMF download script answers whole files and ignores Range, so each tile is fetched once
 * into `cacheDir` and read from disk afterwards. A `file:` archive is read in place. Two plots
 * asking for one tile at once share one download.
 */
export function createTmfAdapter(opts: ProductDeps & { cacheDir: string }): TmfAdapter {
  const cogs = new CogOpener({ ...opts, where: {} });
  const fetching = new Map<string, Promise<string>>();
  const local = (dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal): Promise<string> => {
    const source = archiveUrl(tmfHref(dataset, tile), opts.where);
    if (!/^https?:/i.test(source)) return Promise.resolve(source);
    // Tiles of different archives (the real host, a mirror) never share a cache entry.
    const archive = opts.where.root === undefined ? 'public' : createHash('sha256').update(opts.where.root).digest('hex').slice(0, 12);
    const path = join(opts.cacheDir, 'tmf', TMF_VERSION, archive, `${dataset}_${tile.id}.tif`);
    let p = fetching.get(path);
    if (p === undefined) {
      p = (async () => {
        try {
          await stat(path);
        } catch {
          if (opts.http === undefined) throw new TypeError(`downloading ${source} needs an HTTP client`);
          await mkdir(dirname(path), { recursive: true });
          await opts.http.download(source, path, { signal });
        }
        return path;
      })();
      fetching.set(path, p);
      p.finally(() => fetching.delete(path)).catch(() => {});
    }
    return p;
  };
  const open = async (dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal) => cogs.open(await local(dataset, tile, signal), { signal });
  return {
    open,
    async read(bbox, datasets, signal) {
      const lon = (bbox[0] + bbox[2]) / 2;
      const lat = (bbox[1] + bbox[3]) / 2;
      const tile = tmfTile(lon, lat);
      if (!tmfCovers(lat)) return { checked: false, available: false, reason: 'outside_coverage', tile: tile.id };
      const layers: Partial<Record<TmfDataset, RasterRead>> = {};
      try {
        await Promise.all(datasets.map(async (dataset) => {
          const window = await (await open(dataset, tile, signal)).readBbox(bbox, 'EPSG:4326', signal);
          layers[dataset] = { window, encoding: { scale: 1, offset: 0, nodata: 0 }, provenance: tmfProvenance(dataset, tile.id, opts.where) };
        }));
      } catch (err) {
        if (isSourceError(err, 'not_found')) return { checked: false, available: false, reason: 'no_tile', tile: tile.id };
        throw err;
      }
      return { checked: true, available: true, tile: tile.id, layers };
    },
  };
}

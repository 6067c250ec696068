// Finds the Open Buildings tiles through their manifests and reads them (codes.ts holds the manifests' layout).
import { transformBbox } from '../../reproject.ts';
import { CogOpener, type ProductDeps, readArchiveJson } from '../cog-opener.ts';
import type { RasterRead } from '../provenance.ts';
import { type GcsListing, type ManifestJson, manifestListingUrl, manifestNamesForYear, manifestToken, objectUrl, OPEN_BUILDINGS, OPEN_BUILDINGS_ASSUMED, OPEN_BUILDINGS_BANDS, openBuildingsProvenance, parseManifest, tilesTouching } from './codes.ts';

export interface OpenBuildingsRead {
  year: number;
  /** False when no manifest lists a tile over the ground for this year. */
  coverage: boolean;
  /** Tile addresses read (real hosts' form). */
  tiles: string[];
  epsg: number | null;
  /** Three bands, pixel-interleaved, in OPEN_BUILDINGS_BANDS order. */
  bands: RasterRead | null;
}

export interface OpenBuildingsAdapter {
  read(bbox: [number, number, number, number], year: number, signal?: AbortSignal): Promise<OpenBuildingsRead>;
}

export function createOpenBuildingsAdapter(opts: ProductDeps): OpenBuildingsAdapter {
  const cogs = new CogOpener(opts);
  const listings = new Map<string, Promise<string[]>>();
  const manifestNames = (token: string, signal?: AbortSignal) => {
    let p = listings.get(token);
    if (p === undefined) {
      p = (async () => {
        const names: string[] = [];
        let page: string | undefined;
        do {
          const listing = await readArchiveJson<GcsListing>(manifestListingUrl(token, page), opts, signal);
          names.push(...(listing.items ?? []).map((i) => i.name));
          page = listing.nextPageToken;
        } while (page);
        return names;
      })();
      listings.set(token, p);
      p.catch(() => listings.delete(token));
    }
    return p;
  };
  return {
    async read(bbox, year, signal) {
      if (year < OPEN_BUILDINGS.firstYear || year > OPEN_BUILDINGS.lastYear) return { year, coverage: false, tiles: [], epsg: null, bands: null };
      const token = manifestToken((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
      const names = manifestNamesForYear({ items: (await manifestNames(token, signal)).map((name) => ({ name })) }, year);
      for (const name of names) {
        const tiles = parseManifest(await readArchiveJson<ManifestJson>(objectUrl(name), opts, signal));
        for (const t of tiles) {
          const box = transformBbox(bbox, 'EPSG:4326', t.epsg);
          if (tilesTouching([t], t.epsg, box).length === 0) continue;
          const cog = await cogs.open(t.href, { signal });
          const window = await cog.readBbox(bbox, 'EPSG:4326', signal);
          return {
            year, coverage: true, tiles: [t.href], epsg: t.epsg,
            bands: { window, encoding: { scale: 1, offset: 0, nodata: cog.nodata ?? OPEN_BUILDINGS_ASSUMED.nodata }, provenance: openBuildingsProvenance(year, t.href, opts.where) },
          };
        }
      }
      return { year, coverage: false, tiles: [], epsg: null, bands: null };
    },
  };
}

// Finds the Open Buildings tiles through their manifests and plans their reads (codes.ts holds the manifests' layout).
import { type Bbox, transformBbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, KeptPromises, layersOverTiles, type ProductDeps, readArchiveJson } from '../cog-opener.ts';
import { buildingCellsOf, readAsCells } from './cells.ts';
import { type GcsListing, type ManifestJson, manifestListingUrl, manifestNamesForYear, manifestToken, objectUrl, OPEN_BUILDINGS, type OpenBuildingsTile, openBuildingsNodata, openBuildingsProvenance, parseManifest, tilesTouching } from './codes.ts';

export type OpenBuildingsWindows =
  /** No manifest lists a tile over the ground for this year. */
  | { year: number; coverage: false }
  /**
   * Three bands, pixel-interleaved, in OPEN_BUILDINGS_BANDS order, or where `cells` is set their
   * building cells (cells.ts); `tiles` are the addresses read (real hosts' form).
   */
  | ({ year: number; coverage: true; epsg: number; cells: boolean } & ProductWindows<'bands'>);

export interface OpenBuildingsAdapter {
  /**
   * The year's rasters over a box (lon/lat): every tile the box touches in the UTM zone of the first
   * one listed. With `cellM`, read as building cells of about that side where the files allow
   * (a mosaic of files whose cells do not line up is read as pixels).
   */
  windows(box: Bbox, year: number, signal?: AbortSignal, cellM?: number): Promise<OpenBuildingsWindows>;
}

/** Manifests kept parsed (each lists one cell's tiles for one year). */
const KEPT_MANIFESTS = 64;

export function createOpenBuildingsAdapter(opts: ProductDeps): OpenBuildingsAdapter {
  const cogs = new CogOpener(opts);
  const listings = new KeptPromises<string[]>();
  const manifestNames = (token: string, signal?: AbortSignal) =>
    listings.get(token, async () => {
      const names: string[] = [];
      let page: string | undefined;
      do {
        const listing = await readArchiveJson<GcsListing>(manifestListingUrl(token, page), opts, signal);
        names.push(...(listing.items ?? []).map((i) => i.name));
        page = listing.nextPageToken;
      } while (page);
      return names;
    });
  // A manifest's tiles, parsed once: every plot of a place reads the same few manifests.
  const manifests = new KeptPromises<OpenBuildingsTile[]>(KEPT_MANIFESTS);
  const manifestTiles = (name: string, signal?: AbortSignal) =>
    manifests.get(name, () => readArchiveJson<ManifestJson>(objectUrl(name), opts, signal).then(parseManifest));
  return {
    async windows(box, year, signal, cellM) {
      if (year < OPEN_BUILDINGS.firstYear || year > OPEN_BUILDINGS.lastYear) return { year, coverage: false };
      const token = manifestToken((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
      const names = manifestNamesForYear({ items: (await manifestNames(token, signal)).map((name) => ({ name })) }, year);
      const listed = (await Promise.all(names.map((name) => manifestTiles(name, signal)))).flat();
      const touching = listed.filter((t) => tilesTouching([t], t.epsg, transformBbox(box, 'EPSG:4326', t.epsg)).length > 0);
      if (touching.length === 0) return { year, coverage: false };
      // Tiles of one zone share a grid; a box across a zone boundary is read on the first zone's.
      const epsg = touching[0].epsg;
      const tiles = touching.filter((t) => t.epsg === epsg).map((t) => t.href);
      const plan = (cellSide: number | undefined) => layersOverTiles(box, tiles, ['bands'] as const, (_, href) => ({
        open: async (name) => {
          const cog = await cogs.open(href, { name, signal });
          return cellSide === undefined ? cog : (buildingCellsOf(cog, Math.max(1, Math.round(cellSide / Math.abs(cog.geoTransform[1])))) ?? cog);
        },
        provenance: openBuildingsProvenance(year, href, opts.where),
        encoding: (cog) => ({ scale: 1, offset: 0, nodata: readAsCells(cog) ? null : openBuildingsNodata(cog.nodata) }),
      }));
      let planned: ProductWindows<'bands'>;
      try {
        planned = await plan(cellM);
      } catch (err) {
        // Files whose cells do not line up (or some read as cells, some not) cannot be one mosaic of cells.
        if (!(err instanceof RangeError) || cellM === undefined) throw err;
        planned = await plan(undefined);
      }
      const cells = readAsCells(planned.layers.bands.request.cog);
      return { year, coverage: true, epsg, cells, ...planned };
    },
  };
}

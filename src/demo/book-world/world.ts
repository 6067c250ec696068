// The book world: a cooperative's plot book of N adjacent smallholder plots on the ground of one
// Sentinel-2 tile, at the real products' layouts, so a book is read at the cost the real archive
// asks. On disk, `<DATA_DIR>/book-world/seed-<S>-plots-<N>/` holds the archive (`archive/`) and,
// beside it where no archive reader looks, the plot book (`plots.geojson`).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { area as turfArea } from '@turf/turf';
import { localFrame, toLonLat } from '../geometry.ts';
import { DEMO_WORLD_VERSION, generateDemoWorld, WORLD_MANIFEST, type WorldManifest } from '../world.ts';
import { cadastre } from './cadastre.ts';
import { BOOK_CENTRE, bookSiteName, MAX_BOOK_PLOTS } from './ground.ts';

export interface BookWorld {
  dir: string;
  root: string;
  seed: string;
  plots: number;
}

export function bookWorld(dataDir: string, seed: number, plots: number): BookWorld {
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`the book world's seed is a whole number (got ${seed})`);
  if (!Number.isInteger(plots) || plots < 1 || plots > MAX_BOOK_PLOTS) throw new Error(`the book world holds 1 to ${MAX_BOOK_PLOTS} plots (got ${plots})`);
  const dir = join(dataDir, 'book-world', `seed-${seed}-plots-${plots}`);
  return { dir, root: join(dir, 'archive'), seed: `precutoff-evidence book world ${seed}`, plots };
}

export const bookPath = (w: BookWorld) => join(w.dir, 'plots.geojson');

/** The plot book of a book world: every plot of the cadastre, in the cadastre's order (rows north to south). */
export function bookPlots(w: BookWorld) {
  const frame = localFrame(...BOOK_CENTRE);
  const land = cadastre(w.seed, w.plots);
  const at = (x: number, y: number) => toLonLat(frame, x, y).map((v) => Math.round(v * 1e7) / 1e7);
  const features = land.plots.map((p) => {
    const [west, south, east, north] = p.box;
    const geometry = { type: 'Polygon' as const, coordinates: [[at(west, south), at(east, south), at(east, north), at(west, north), at(west, south)]] };
    return {
      type: 'Feature' as const,
      properties: { ref: `COOP-${String(p.index + 1).padStart(5, '0')}`, commodity: 'cocoa', country: 'CI', area_ha: Math.round(turfArea(geometry) / 100) / 100, book_cover: p.cover },
      geometry,
    };
  });
  return {
    type: 'FeatureCollection' as const,
    name: 'book-world-plots',
    synthetic: true,
    note: 'Synthetic plot book of a cooperative over the book world of this service: every value is generated, none observed.',
    seed: w.seed,
    features,
  };
}

/** Generates the book world when it is not in place yet (or made by another generator version); answers whether it did. */
export async function ensureBookWorld(w: BookWorld): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(w.root, WORLD_MANIFEST), 'utf8')) as WorldManifest;
    if (manifest.version === DEMO_WORLD_VERSION && manifest.world === 'book' && manifest.sites[0] === bookSiteName(w.plots)) return false;
  } catch {
    // Not generated yet.
  }
  await rm(w.dir, { recursive: true, force: true });
  await mkdir(w.dir, { recursive: true });
  await generateDemoWorld(w.root, { world: 'book', seed: w.seed, sites: [bookSiteName(w.plots)] });
  await writeFile(bookPath(w), `${JSON.stringify(bookPlots(w))}\n`);
  return true;
}

/** `demo generate --world book --seed S --plots N`. */
export async function bookDemoCommand(dataDir: string, flags: { seed: number; plots: number }): Promise<string[]> {
  const w = bookWorld(dataDir, flags.seed, flags.plots);
  const generated = await ensureBookWorld(w);
  return [`${generated ? 'generated' : 'already in place:'} the synthetic book world of seed ${flags.seed}, ${w.plots} plots, under ${w.dir} (plot book: ${bookPath(w)})`];
}

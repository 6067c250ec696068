// The ground of a book world: one site whose cover at a point is the cover of the cadastre's plot
// there, so every product the demo writes for a site is written over the whole book.
import { buildSiteModel, type SiteModel, textured } from '../site-model.ts';
import type { SiteGround } from '../sites.ts';
import { cadastre } from './cadastre.ts';

/** A cocoa cooperative's ground in Côte d'Ivoire's south-west, well inside one MGRS square and one 1° cell. */
export const BOOK_CENTRE: [number, number] = [-6.45, 5.55];
/** Ground past the last plot every product holds, so an edge plot's neighbourhood reads as an inner one's. */
const MARGIN_M = 300;
/** The largest book: its ground (some 11 km across) stays within one MGRS square and one Open Buildings tile (12.5 km). */
export const MAX_BOOK_PLOTS = 4_000;

/** The one site of a book world: its name carries the book's size, so a writing thread rebuilds it from the name. */
export const bookSiteName = (plots: number) => `book-${plots}`;

function bookGround(plots: number, reachM: number): SiteGround {
  return {
    name: bookSiteName(plots),
    country: 'CI',
    centre: BOOK_CENTRE,
    // The site's own plot is not used: every plot of the book is a cell of the cadastre.
    plot: { areaHa: 1, aspect: 1, angleDeg: 0 },
    plotCover: 'farmland',
    trough: { doy: 25 },
    surround: { main: 'forest', other: 'forest', otherShare: 0 },
    sky: { overcast: 0.3, overcastAtTrough: 0.25 },
    terrain: { elevation: 180, slopeDeg: 2, aspectDeg: 120 },
    // Forest standing at the cutoff reads undisturbed; every other cover was cleared long before it (1995).
    tmf: { plot: { kind: 'never' }, surround: { kind: 'forest' } },
    euMaps: { forestShare: 0, forestType: 'primary' },
    reachM: reachM + MARGIN_M,
  };
}

/** The model of a book's ground: the cover at a point is its plot's in the cadastre. */
export function bookModel(seed: string, plots: number): SiteModel {
  const land = cadastre(seed, plots);
  const base = buildSiteModel(bookGround(plots, land.reachM), seed);
  const coverAt = (x: number, y: number) => land.coverAt(x, y);
  return {
    ...base,
    inPlot: () => false,
    surroundCover: coverAt,
    coverAt,
    spectrumAt: (x, y, day) => textured(base.baseSpectrum(land.coverAt(x, y), false, day), base.texture(x, y)),
  };
}

/** The models of a book world's site names (one name, `book-<N>`). */
export function bookModels(seed: string, names: readonly string[]): SiteModel[] {
  return names.map((n) => {
    const plots = Number(/^book-(\d+)$/.exec(n)?.[1] ?? NaN);
    if (!Number.isInteger(plots) || plots < 1 || plots > MAX_BOOK_PLOTS) throw new Error(`not a book-world site: ${n}`);
    return bookModel(seed, plots);
  });
}


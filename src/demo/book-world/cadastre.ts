// A cooperative's ground: smallholder plots of 0.5–6 ha packed side by side in rows, as a
// cadastre of cocoa farms lies along its tracks. Each plot is a rectangle of the local frame
// (metres from the book's centre) with one cover: crops, forest patches, fallow, villages. Pure
// function of the seed and the number of plots; plot `i` is the same whatever reads it.
import type { Cover } from '../landscape.ts';
import { randomFor } from '../random.ts';

export const BOOK_PLOT_HA = { min: 0.5, max: 6 } as const;
/** Rows run east–west, this deep (m): a farm's frontage on its track and its depth behind it. */
const ROW_DEPTH_M = { min: 80, max: 160 } as const;
/** Mean plot area the ground is sized for (the draws' mean, before a row's last plot is fitted). */
const MEAN_PLOT_HA = 3;

/** What the cooperative's plots hold: cocoa and food crops, forest left standing, fallow, villages. */
const COVER_SHARES: ReadonlyArray<[Cover, number]> = [
  ['acacia', 0.35], // shaded cocoa: a tree crop under a thinned canopy
  ['farmland', 0.2],
  ['young_crop', 0.1],
  ['forest', 0.15],
  ['savanna', 0.15], // fallow
  ['bare', 0.05], // villages and drying floors
];

export interface BookPlot {
  index: number;
  /** West, south, east, north edges in the local frame (m). */
  box: [number, number, number, number];
  cover: Cover;
}

export interface Cadastre {
  plots: BookPlot[];
  /** Half the side of the square around the centre the plots lie within (m). */
  reachM: number;
  /** The cover at a point: its plot's, or `outside` beyond the cadastre. */
  coverAt(x: number, y: number): Cover;
}

interface Row {
  south: number;
  north: number;
  /** Eastern edges of the row's plots, west to east. */
  east: Float64Array;
  first: number;
}

function drawCover(u: number): Cover {
  let acc = 0;
  for (const [c, share] of COVER_SHARES) if (u < (acc += share)) return c;
  return COVER_SHARES[0][0];
}

export function cadastre(seed: string, count: number, outside: Cover = 'forest'): Cadastre {
  if (!Number.isInteger(count) || count < 1) throw new Error(`a book holds a whole number of plots (got ${count})`);
  const side = Math.sqrt(count * MEAN_PLOT_HA * 10_000);
  const west = -side / 2;
  const rnd = randomFor(seed, 'book-cadastre');
  const plots: BookPlot[] = [];
  const rows: Row[] = [];
  let north = side / 2;
  while (plots.length < count) {
    const depth = rnd.between(ROW_DEPTH_M.min, ROW_DEPTH_M.max);
    const south = north - depth;
    const minWidth = (BOOK_PLOT_HA.min * 10_000) / depth;
    const edges: number[] = [];
    const first = plots.length;
    let x = west;
    while (x < west + side - 1e-6 && plots.length < count) {
      // Drawn short of the largest area, so a row's last plot can take the leftover and stay within it.
      let width = (rnd.between(BOOK_PLOT_HA.min, BOOK_PLOT_HA.max - BOOK_PLOT_HA.min) * 10_000) / depth;
      const left = west + side - x;
      if (left - width < minWidth) width = left;
      const cover = drawCover(rnd.next());
      plots.push({ index: plots.length, box: [x, south, x + width, north], cover });
      edges.push(x + width);
      x += width;
    }
    rows.push({ south, north, east: Float64Array.from(edges), first });
    north = south;
  }
  const reachM = Math.max(side / 2, -north);
  const coverAt = (x: number, y: number): Cover => {
    // Rows from north to south: the first whose south edge lies below y.
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].south > y) lo = mid + 1;
      else hi = mid;
    }
    const row = rows[lo];
    if (row === undefined || y > row.north || x < west) return outside;
    let a = 0;
    let b = row.east.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (row.east[mid] <= x) a = mid + 1;
      else b = mid;
    }
    return a < row.east.length ? plots[row.first + a].cover : outside;
  };
  return { plots, reachM, coverAt };
}

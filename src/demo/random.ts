// Seeded randomness for the demo world: every draw comes from a generator seeded by the world's
// seed and a name (site, product, scene), so the same seed gives the same bytes whatever order
// the files are written in.
import { createHash } from 'node:crypto';

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Normal with the given mean and standard deviation. */
  normal(mean?: number, sd?: number): number;
  /** Uniform in [lo, hi). */
  between(lo: number, hi: number): number;
}

/** A generator for one named stream of the world. */
export function randomFor(seed: string, ...names: Array<string | number>): Random {
  const h = createHash('sha256').update([seed, ...names].join('\u0000')).digest();
  // sfc32: small, fast, and good enough for texture and noise.
  let a = h.readUInt32LE(0), b = h.readUInt32LE(4), c = h.readUInt32LE(8), d = h.readUInt32LE(12);
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  let spare: number | null = null;
  return {
    next,
    normal(mean = 0, sd = 1) {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return mean + sd * s;
      }
      // Box–Muller, both values used.
      const u = Math.max(next(), 1e-12);
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return mean + sd * r * Math.cos(2 * Math.PI * v);
    },
    between(lo, hi) {
      return lo + (hi - lo) * next();
    },
  };
}

/** Smooth value noise in [0, 1) over the plane (metres), for patchy land cover and terrain texture. */
export function valueNoise(seed: string, name: string, cellM: number): (x: number, y: number) => number {
  const salt = createHash('sha256').update(`${seed}\u0000${name}`).digest().readUInt32LE(0);
  const lattice = (i: number, j: number) => {
    let h = (Math.imul(i, 374761393) + Math.imul(j, 668265263) + salt) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  };
  const fade = (t: number) => t * t * (3 - 2 * t);
  return (x, y) => {
    const fx = x / cellM;
    const fy = y / cellM;
    const i = Math.floor(fx);
    const j = Math.floor(fy);
    const u = fade(fx - i);
    const v = fade(fy - j);
    const top = lattice(i, j) * (1 - u) + lattice(i + 1, j) * u;
    const bottom = lattice(i, j + 1) * (1 - u) + lattice(i + 1, j + 1) * u;
    return top * (1 - v) + bottom * v;
  };
}

// One demo site made concrete: its plot polygon, the land cover at any point and date, and the
// surface reflectance an optical sensor would see there. Pure functions of the world's seed.
import { type Cover, type CoverModel, COVERS, type Spectrum, daysFromTrough, mix, seasonOf, winteringIntensity } from './landscape.ts';
import { type LocalFrame, type Ring, insideRing, localFrame, plotRing, toLonLat } from './geometry.ts';
import { randomFor, valueNoise } from './random.ts';
import type { SiteGround } from './sites.ts';

export interface SiteModel<S extends SiteGround = SiteGround> {
  spec: S;
  frame: LocalFrame;
  /** Plot outline in the local frame (m), counter-clockwise, open. */
  ring: Ring;
  /** Plot outline as a closed GeoJSON ring (lon, lat), six decimals. */
  lonLatRing: number[][];
  inPlot(x: number, y: number): boolean;
  /** Along-plot coordinate in 0..1 (west to east after the plot's turn), for shares laid out across it. */
  across(x: number, y: number): number;
  surroundCover(x: number, y: number): Cover;
  coverAt(x: number, y: number, day: number): Cover;
  /** What a cover looks like on this site: its own values where the site gives them. */
  cover(c: Cover): CoverModel;
  /** Static texture of the ground (≈1 ± a few %): crowns, gaps and soil vary from pixel to pixel. */
  texture(x: number, y: number): number;
  /** The plot's cover on a date. */
  plotCoverOn(day: number): Cover;
  /** Reflectance of a cover on a date before the ground's texture (inside: the plot's own trough). */
  baseSpectrum(cover: Cover, inside: boolean, day: number): Spectrum;
  /** Surface reflectance (no cloud, no haze) at a point and date. */
  spectrumAt(x: number, y: number, day: number): Spectrum;
}

/** The ground's texture applied to a spectrum: red and near-infrared move apart as crowns and gaps do. */
export function textured(s: Spectrum, t: number): Spectrum {
  return { red: s.red * (2 - t), nir: s.nir * t };
}

/** The half-size of a product's window over a site: the product's own, plus the ground the site reaches past it. */
export function groundHalf(m: SiteModel, halfM: number): number {
  return halfM + (m.spec.reachM ?? 0);
}

export function dayNumber(isoDate: string): number {
  return Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`) / 86_400_000;
}

export function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function buildSiteModel<S extends SiteGround>(spec: S, seed: string): SiteModel<S> {
  const frame = localFrame(spec.centre[0], spec.centre[1]);
  const rnd = randomFor(seed, spec.name, 'plot-shape');
  const jitter = [0, 1, 2, 3].map(() => [rnd.between(-0.08, 0.08), rnd.between(-0.08, 0.08)] as [number, number]);
  const ring = plotRing(spec.plot.areaHa, spec.plot.aspect, spec.plot.angleDeg, jitter);
  const lonLatRing = [...ring, ring[0]].map(([x, y]) => toLonLat(frame, x, y).map((v) => Math.round(v * 1e6) / 1e6));
  const turn = (-spec.plot.angleDeg * Math.PI) / 180;
  let minU = Infinity;
  let maxU = -Infinity;
  for (const [x, y] of ring) {
    const u = x * Math.cos(turn) - y * Math.sin(turn);
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
  }
  const patches = valueNoise(seed, `${spec.name}/patches`, 180);
  const grain = valueNoise(seed, `${spec.name}/texture`, 25);
  const changes = (spec.changes ?? []).map((c) => ({ from: dayNumber(c.from), cover: c.cover })).sort((a, b) => a.from - b.from);
  // Most points a scene samples lie off the plot's bounding box, where the ring test cannot answer yes.
  const [minX, maxX] = [Math.min(...ring.map((p) => p[0])), Math.max(...ring.map((p) => p[0]))];
  const [minY, maxY] = [Math.min(...ring.map((p) => p[1])), Math.max(...ring.map((p) => p[1]))];
  const inPlot = (x: number, y: number) => x >= minX && x <= maxX && y >= minY && y <= maxY && insideRing(x, y, ring);
  const surroundCover = (x: number, y: number): Cover =>
    patches(x, y) < spec.surround.otherShare ? spec.surround.other : spec.surround.main;
  const plotCoverOn = (day: number): Cover => {
    let cover = spec.plotCover;
    for (const c of changes) if (day >= c.from) cover = c.cover;
    return cover;
  };
  const coverAt = (x: number, y: number, day: number): Cover => (inPlot(x, y) ? plotCoverOn(day) : surroundCover(x, y));
  const cover = (c: Cover): CoverModel => spec.covers?.[c] ?? COVERS[c];
  const texture = (x: number, y: number) => 0.94 + 0.12 * grain(x, y);
  const dips = (day: number): boolean => spec.trough.dipSeasons !== 'even' || seasonOf(day, spec.trough.doy) % 2 === 0;
  const baseSpectrum = (c: Cover, inside: boolean, day: number): Spectrum => {
    const model = cover(c);
    if (model.trough) {
      const w = winteringIntensity(daysFromTrough(day, spec.trough.doy));
      const trough = inside && spec.trough.spectrum ? spec.trough.spectrum : model.trough;
      return !inside || dips(day) ? mix(model.leaf, trough, w) : model.leaf;
    }
    // Evergreen canopies still breathe a little with the seasons.
    const phase = (2 * Math.PI * daysFromTrough(day, spec.trough.doy)) / 365.25;
    return { red: model.leaf.red, nir: model.leaf.nir * (1 - 0.015 * Math.cos(phase)) };
  };
  return {
    spec,
    frame,
    ring,
    lonLatRing,
    inPlot,
    across(x, y) {
      const u = x * Math.cos(turn) - y * Math.sin(turn);
      return (u - minU) / (maxU - minU);
    },
    surroundCover,
    coverAt,
    cover,
    texture,
    plotCoverOn,
    baseSpectrum,
    spectrumAt(x, y, day) {
      const inside = inPlot(x, y);
      return textured(baseSpectrum(inside ? plotCoverOn(day) : surroundCover(x, y), inside, day), texture(x, y));
    },
  };
}

/**
 * The document's map: the footprint read, outlined over a true-colour chip of one kept scene,
 * drawn with sharp. The chip is stored beside the evidence at read time (not inside the signed
 * object); without one the footprint is drawn alone and the caption says so. The picture carries
 * no text, so it draws the same wherever fonts are missing; the caption names scene, scale and
 * north.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import sharp from 'sharp';
import { metresPerDegree } from '../engine/sources/reproject.ts';

/** A true-colour cut of one kept scene around the plot. */
export interface EvidenceChip {
  /** North-up 8-bit RGB PNG whose pixel grid spans `bbox` linearly in longitude and latitude. */
  png: Buffer;
  /** [west, south, east, north] in degrees, WGS 84. */
  bbox: [number, number, number, number];
  /** The scene it was cut from: one of the evidence's `scenes`. */
  scene: string;
}

/** What the engine stores beside each evidence object for its document. */
export interface EvidenceMap {
  /** The footprint the read used (WGS 84): the uploaded boundary, or the circle drawn around a declared point. */
  footprint: Polygon | MultiPolygon;
  chip: EvidenceChip | null;
}

export interface FootprintPicture {
  png: Buffer;
  width: number;
  height: number;
  /** Length of the scale bar drawn in the lower left, in metres. */
  scale_bar_m: number;
  /** The scene under the outline; null when the footprint is drawn alone. */
  scene: string | null;
}

/** Share of the footprint's extent added on each side when there is no chip to frame it. */
const PAD = 0.35;
const NICE_LENGTHS = [10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000];

type Box = [number, number, number, number];

function ringsOf(footprint: Polygon | MultiPolygon): Position[][] {
  return footprint.type === 'Polygon' ? footprint.coordinates : footprint.coordinates.flat();
}

function extentOf(rings: Position[][]): Box {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < w) w = x;
      if (x > e) e = x;
      if (y < s) s = y;
      if (y > n) n = y;
    }
  }
  return [w, s, e, n];
}

/** The frame with room around the footprint, square enough on the ground to read. */
function paddedFrame([w, s, e, n]: Box): Box {
  const m = metresPerDegree((s + n) / 2);
  const spanM = Math.max((e - w) * m.lon, (n - s) * m.lat) * (1 + 2 * PAD);
  const halfLon = spanM / 2 / m.lon;
  const halfLat = spanM / 2 / m.lat;
  const cx = (w + e) / 2, cy = (s + n) / 2;
  return [cx - halfLon, cy - halfLat, cx + halfLon, cy + halfLat];
}

/** Pixel size of a frame `width` wide, keeping ground proportions (a degree of longitude shrinks with latitude). */
function pictureSize([w, s, e, n]: Box, width: number): { width: number; height: number; metresPerPixel: number } {
  const m = metresPerDegree((s + n) / 2);
  const widthM = (e - w) * m.lon;
  const heightM = (n - s) * m.lat;
  const height = Math.max(1, Math.round((width * heightM) / widthM));
  return { width, height, metresPerPixel: widthM / width };
}

function scaleBarLength(metresPerPixel: number, width: number): number {
  // A hair of tolerance: a frame of exactly 1 km measures 999.999… m through degrees and back.
  const target = metresPerPixel * width * 0.25 * (1 + 1e-9);
  let best = NICE_LENGTHS[0];
  for (const length of NICE_LENGTHS) if (length <= target) best = length;
  return best;
}

function overlaySvg(rings: Position[][], frame: Box, width: number, height: number, barPx: number, alone: boolean): string {
  const [w, s, e, n] = frame;
  const px = ([x, y]: Position) => `${(((x - w) / (e - w)) * width).toFixed(1)},${(((n - y) / (n - s)) * height).toFixed(1)}`;
  const path = rings.map((ring) => `M${ring.map(px).join('L')}Z`).join('');
  const fill = alone ? 'fill="#f2c94c" fill-opacity="0.35"' : 'fill="none"';
  const x0 = 12, y0 = height - 14;
  // A dark halo under a bright line keeps the outline visible over any ground.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <path d="${path}" fill-rule="evenodd" fill="none" stroke="#000" stroke-opacity="0.7" stroke-width="5" stroke-linejoin="round"/>
  <path d="${path}" fill-rule="evenodd" ${fill} stroke="#ffd400" stroke-width="2.5" stroke-linejoin="round"/>
  <rect x="${x0 - 4}" y="${y0 - 8}" width="${barPx + 8}" height="14" fill="#fff" fill-opacity="0.8"/>
  <path d="M${x0},${y0 - 4}V${y0 + 2}H${x0 + barPx}V${y0 - 4}" fill="none" stroke="#000" stroke-width="2"/>
  <path d="M${width - 20},${34}L${width - 20},${12}M${width - 27},${20}L${width - 20},${10}L${width - 13},${20}" fill="none" stroke="#000" stroke-opacity="0.7" stroke-width="5"/>
  <path d="M${width - 20},${34}L${width - 20},${12}M${width - 27},${20}L${width - 20},${10}L${width - 13},${20}" fill="none" stroke="#fff" stroke-width="2"/>
</svg>`;
}

/** The footprint over the chip (or alone), `width` pixels wide; north up; a scale bar lower left, a north arrow upper right. */
export async function footprintPicture(map: EvidenceMap, width = 640): Promise<FootprintPicture> {
  const rings = ringsOf(map.footprint);
  const frame = map.chip ? map.chip.bbox : paddedFrame(extentOf(rings));
  const size = pictureSize(frame, width);
  const scale_bar_m = scaleBarLength(size.metresPerPixel, size.width);
  const overlay = Buffer.from(overlaySvg(rings, frame, size.width, size.height, scale_bar_m / size.metresPerPixel, map.chip === null));
  const base = map.chip
    ? sharp(map.chip.png).removeAlpha().resize(size.width, size.height, { fit: 'fill', kernel: 'nearest' })
    : sharp({ create: { width: size.width, height: size.height, channels: 3, background: '#eef0ea' } });
  const png = await base.composite([{ input: overlay, top: 0, left: 0 }]).png({ compressionLevel: 6 }).toBuffer();
  return { png, width: size.width, height: size.height, scale_bar_m, scene: map.chip?.scene ?? null };
}

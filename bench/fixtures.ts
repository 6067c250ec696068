// Plot files for the import benchmarks, generated the same way on every run (seeded), as an
// upload would carry them: six-decimal coordinates inside Ghana, every property of spec 2.2.
import { Buffer } from 'node:buffer';
import { MAX_FILE_BYTES } from '../src/intake/limits.ts';

/** mulberry32: a small seeded generator, so every run reads the same bytes. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A box well inside Ghana, so the country check runs on every plot and passes.
const WEST = -2.5;
const SOUTH = 6;
const SPAN_LON = 2.5;
const SPAN_LAT = 2;
const COMMODITIES = ['cocoa', 'coffee', 'oil palm', 'rubber'];

export const PRODUCERS = Array.from({ length: 200 }, (_, i) => ({ id: `producer-${i}`, name: `Cooperative ${i}` }));

function properties(random: () => number, i: number, areaHa: number) {
  return {
    ref: `PLOT-${String(i).padStart(6, '0')}`,
    commodity: COMMODITIES[i % COMMODITIES.length],
    area_ha: Number(areaHa.toFixed(2)),
    planted_year: 1990 + Math.floor(random() * 30),
    producer: PRODUCERS[Math.floor(random() * PRODUCERS.length)].name,
  };
}

function fitting(bytes: Buffer, what: string): Buffer {
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`${what} is ${bytes.length} bytes, over the import limit`);
  return bytes;
}

/** A GeoJSON FeatureCollection of `count` point plots of 0.5 to 4 ha. */
export function pointPlotsGeoJson(count = 100_000): Buffer {
  const random = seeded(1);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const lon = (WEST + random() * SPAN_LON).toFixed(6);
    const lat = (SOUTH + random() * SPAN_LAT).toFixed(6);
    const props = properties(random, i, 0.5 + random() * 3.5);
    parts.push(`{"type":"Feature","properties":${JSON.stringify(props)},"geometry":{"type":"Point","coordinates":[${lon},${lat}]}}`);
  }
  return fitting(Buffer.from(`{"type":"FeatureCollection","features":[\n${parts.join(',\n')}\n]}\n`), 'point GeoJSON');
}

/** The same kind of point plots as CSV with lon and lat columns. */
export function pointPlotsCsv(count = 100_000): Buffer {
  const random = seeded(2);
  const rows = ['ref,commodity,area_ha,planted_year,producer,lon,lat'];
  for (let i = 0; i < count; i++) {
    const lon = (WEST + random() * SPAN_LON).toFixed(6);
    const lat = (SOUTH + random() * SPAN_LAT).toFixed(6);
    const p = properties(random, i, 0.5 + random() * 3.5);
    rows.push(`${p.ref},${p.commodity},${p.area_ha},${p.planted_year},${p.producer},${lon},${lat}`);
  }
  return fitting(Buffer.from(rows.join('\n') + '\n'), 'point CSV');
}

/**
 * A GeoJSON FeatureCollection of `count` polygon plots of `vertices` vertices each: star-shaped
 * rings (radius varying with the angle, so never crossing) of about 1 to 10 ha, counterclockwise.
 */
export function polygonPlotsGeoJson(count = 20_000, vertices = 50): Buffer {
  const random = seeded(3);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const cx = WEST + 0.01 + random() * (SPAN_LON - 0.02);
    const cy = SOUTH + 0.01 + random() * (SPAN_LAT - 0.02);
    const radiusM = 60 + random() * 120;
    const phase = random() * Math.PI;
    const kx = 1 / (111_320 * Math.cos((cy * Math.PI) / 180));
    const ky = 1 / 110_574;
    const ring: string[] = [];
    for (let k = 0; k < vertices; k++) {
      const a = (2 * Math.PI * k) / vertices;
      const r = radiusM * (1 + 0.2 * Math.sin(3 * a + phase));
      ring.push(`[${(cx + r * Math.cos(a) * kx).toFixed(6)},${(cy + r * Math.sin(a) * ky).toFixed(6)}]`);
    }
    ring.push(ring[0]);
    const props = properties(random, i, Math.PI * radiusM * radiusM * 1.02 / 10_000);
    parts.push(`{"type":"Feature","properties":${JSON.stringify(props)},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}`);
  }
  return fitting(Buffer.from(`{"type":"FeatureCollection","features":[\n${parts.join(',\n')}\n]}\n`), 'polygon GeoJSON');
}

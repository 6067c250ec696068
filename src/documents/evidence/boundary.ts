/**
 * The boundary the evidence was read on (signed with it): its digest, centre, box and area, and a
 * small map of it on a coordinate grid, so a reader holding the PDF can tell which polygon it speaks
 * for and check it against the boundary filed (`npm run verify`).
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceBoundary, EvidenceObject } from '../../engine/evidence-object.ts';
import { facts, subheading } from '../layout.ts';

const SIZE = 130;
const PAD = 22;

/** A grid step of 1, 2 or 5 times a power of ten giving two to five lines across `span` degrees. */
function gridStep(span: number): number {
  const raw = span / 3;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

const decimalsOf = (step: number) => Math.max(0, -Math.floor(Math.log10(step)));

/** The boundary (and a point's drawn circle) as SVG on a graticule, longitude scaled by the cosine of the latitude. */
export function boundarySvg(b: EvidenceBoundary): string {
  const [w, s, e, n] = b.bbox;
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const span = Math.max((e - w) * k, n - s, 1e-6) * 1.15;
  const cx = (w + e) / 2;
  const cy = (s + n) / 2;
  const x = (lon: number) => PAD + (SIZE - PAD) / 2 + (((lon - cx) * k) / span) * (SIZE - PAD);
  const y = (lat: number) => (SIZE - PAD) / 2 - ((lat - cy) / span) * (SIZE - PAD);
  const ring = (r: number[][]) => `M${r.map(([lon, lat]) => `${x(lon).toFixed(2)},${y(lat).toFixed(2)}`).join('L')}Z`;
  const rings = (g: EvidenceBoundary['geometry'] | EvidenceBoundary['drawn']) =>
    g === null || g.type === 'Point' ? '' : (g.type === 'Polygon' ? [g.coordinates] : g.coordinates).flat().map(ring).join('');
  const step = gridStep(span);
  const digits = decimalsOf(step);
  const lines: string[] = [];
  for (let lon = Math.ceil((cx - span / k / 2) / step) * step; lon <= cx + span / k / 2; lon += step) {
    lines.push(`<line x1="${x(lon).toFixed(2)}" y1="0" x2="${x(lon).toFixed(2)}" y2="${SIZE - PAD}" stroke="#bbbbbb" stroke-width="0.5"/>`);
    lines.push(`<text x="${x(lon).toFixed(2)}" y="${SIZE - PAD + 9}" font-size="6" text-anchor="middle" fill="#444444">${lon.toFixed(digits)}°</text>`);
  }
  for (let lat = Math.ceil((cy - span / 2) / step) * step; lat <= cy + span / 2; lat += step) {
    lines.push(`<line x1="${PAD}" y1="${y(lat).toFixed(2)}" x2="${SIZE}" y2="${y(lat).toFixed(2)}" stroke="#bbbbbb" stroke-width="0.5"/>`);
    lines.push(`<text x="${PAD - 2}" y="${(y(lat) + 2).toFixed(2)}" font-size="6" text-anchor="end" fill="#444444">${lat.toFixed(digits)}°</text>`);
  }
  const point = b.geometry.type === 'Point' ? `<circle cx="${x(b.geometry.coordinates[0]).toFixed(2)}" cy="${y(b.geometry.coordinates[1]).toFixed(2)}" r="2" fill="#b71c1c"/>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`
    + `<rect x="${PAD}" y="0" width="${SIZE - PAD}" height="${SIZE - PAD}" fill="#ffffff" stroke="#888888" stroke-width="0.5"/>${lines.join('')}`
    + `<path d="${rings(b.drawn)}" fill="none" stroke="#1b3a2f" stroke-width="1" stroke-dasharray="3,2"/>`
    + `<path d="${rings(b.geometry)}" fill="#fbc02d" fill-opacity="0.35" fill-rule="evenodd" stroke="#1b3a2f" stroke-width="1.2"/>${point}</svg>`;
}

const deg = (v: number) => v.toFixed(6);

export function boundarySection(e: EvidenceObject): Content[] {
  const b = e.boundary;
  if (b === undefined) return [];
  const [w, s, east, n] = b.bbox;
  return [
    subheading('The boundary read', 'boundary'),
    {
      columns: [
        {
          width: '*',
          stack: [facts([
            ['Boundary digest (SHA-256)', { text: b.digest, style: 'code', fontSize: 6 }],
            ['Centroid (lon, lat)', `${deg(b.centroid[0])}, ${deg(b.centroid[1])}`],
            ['Bounding box (W, S, E, N)', `${deg(w)}, ${deg(s)}, ${deg(east)}, ${deg(n)}`],
            ['Area', `${b.area_ha.toFixed(2)} ha`],
            ['Read as', b.drawn === null ? `the ${b.geometry.type} stored in the register` : 'a circle drawn around the declared point (dashed)'],
          ], 110),
          { text: 'The digest is the SHA-256 of the boundary\'s GeoJSON geometry in RFC 8785 form, signed with this evidence. To check that a boundary file is the one read: npm run --silent verify -- evidence.json plot.geojson --key public-key.json.', style: 'small', margin: [0, 3, 0, 0] }],
        },
        { width: SIZE, svg: boundarySvg(b) },
      ],
      columnGap: 12,
    },
  ];
}

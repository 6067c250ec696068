import type { Position } from './types.ts';

/**
 * Areas and distances on the WGS84 ellipsoid for plot-sized shapes.
 *
 * Area: latitudes are mapped to authalic latitudes, which carry the ellipsoid onto a sphere of equal
 * area (radius R_q), and the ring integral of sin(beta) d(lambda) is summed edge by edge there. That is
 * exact for the ellipsoid's area element; the only approximation is the shape of an edge between two
 * vertices, which for edges under a few kilometres changes the area by far less than a square metre.
 */

const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const RAD = Math.PI / 180;

/** Authalic function q(phi) of the ellipsoid. */
function q(sinPhi: number): number {
  const es = E * sinPhi;
  return (1 - E2) * (sinPhi / (1 - es * es) - (1 / (2 * E)) * Math.log((1 - es) / (1 + es)));
}

const Q_POLE = q(1);
/** Radius of the sphere with the ellipsoid's area. */
const R_AUTHALIC = A * Math.sqrt(Q_POLE / 2);

/** Sine of the authalic latitude for a geodetic latitude in degrees. */
const sinAuthalic = (latDeg: number) => q(Math.sin(latDeg * RAD)) / Q_POLE;

/** Signed area in square metres of one closed ring (first position repeated last); counterclockwise is positive. */
export function ringAreaM2(ring: readonly Position[]): number {
  const n = ring.length;
  if (n < 4) return 0;
  // sin(beta) is taken relative to the first vertex: the sum of a closed ring's longitude steps is zero,
  // so the offset changes nothing but keeps small plots clear of cancellation.
  const s0 = sinAuthalic(ring[0][1]);
  let sum = 0;
  let prevS = 0;
  let prevLon = ring[0][0];
  for (let i = 1; i < n; i++) {
    const s = sinAuthalic(ring[i][1]) - s0;
    let dLon = ring[i][0] - prevLon;
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    sum += dLon * RAD * (prevS + s);
    prevS = s;
    prevLon = ring[i][0];
  }
  return (-sum / 2) * R_AUTHALIC * R_AUTHALIC;
}

/** Area in hectares of polygons given as rings (outer ring first, holes after), whatever their orientation. */
export function polygonsAreaHa(polygons: readonly (readonly Position[][])[]): number {
  let m2 = 0;
  for (const rings of polygons) {
    rings.forEach((ring, i) => {
      const a = Math.abs(ringAreaM2(ring));
      m2 += i === 0 ? a : -a;
    });
  }
  return m2 / 10_000;
}

/**
 * A local east/north frame in metres around a reference position: the ellipsoid's radii of curvature
 * at the reference latitude. Over a plot, its scale error is about the plot's size over the Earth's
 * radius (1e-4 for a kilometre), so distances of centimetres come out to micrometres.
 */
export function localFrame(origin: Position): (p: Position) => [number, number] {
  const sinPhi = Math.sin(origin[1] * RAD);
  const w = 1 - E2 * sinPhi * sinPhi;
  const n = A / Math.sqrt(w);
  const m = (A * (1 - E2)) / (w * Math.sqrt(w));
  const kx = n * Math.cos(origin[1] * RAD) * RAD;
  const ky = m * RAD;
  return (p) => {
    let dLon = p[0] - origin[0];
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    return [dLon * kx, (p[1] - origin[1]) * ky];
  };
}

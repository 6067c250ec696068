import proj4 from 'proj4';
import { unsupportedCrs } from './errors.ts';

export type Reprojection = (xy: [number, number]) => [number, number];

interface ProjDefinition {
  projName?: string;
  datumCode?: string;
  from_greenwich?: number;
  units?: string;
  name?: string;
}

/**
 * The conversion from a coordinate reference system (WKT of a .prj, or a name proj4 knows such as
 * EPSG:3857) to WGS84 longitude/latitude; null when it is WGS84 longitude/latitude already, so those
 * coordinates are kept bit for bit. `where` names the source for the message.
 */
export function toWgs84(definition: string, where: string): { convert: Reprojection | null; name: string } {
  let proj: ProjDefinition;
  let convert: Reprojection;
  try {
    proj = new proj4.Proj(definition) as unknown as ProjDefinition;
    const converter = proj4(definition, 'EPSG:4326');
    convert = (xy) => converter.forward(xy) as [number, number];
  } catch {
    throw unsupportedCrs(`${where} names a coordinate reference system that cannot be read.`);
  }
  // Geocentric X, Y, Z is neither longitude/latitude nor a map: proj4 would turn each X, Y into a place it is not.
  if (proj.projName === 'geocent') {
    throw unsupportedCrs(`${where} names a geocentric coordinate reference system (X, Y, Z from the Earth's centre), neither geographic nor projected.`);
  }
  const name = proj.name ?? definition.slice(0, 60);
  const isWgs84 = proj.projName === 'longlat' && proj.datumCode === 'wgs84' && !proj.from_greenwich;
  return { convert: isWgs84 ? null : convert, name };
}

/** A geometry as found (possibly malformed) with every position converted; anything else is left as it is. */
export function reprojectGeometry(geometry: unknown, convert: Reprojection): unknown {
  if (geometry === null || typeof geometry !== 'object' || Array.isArray(geometry)) return geometry;
  const g = geometry as { coordinates?: unknown };
  const walk = (a: unknown): unknown => {
    if (!Array.isArray(a)) return a;
    if (typeof a[0] === 'number' && typeof a[1] === 'number') {
      const [x, y] = convert([a[0], a[1]]);
      return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : [Number.NaN, Number.NaN];
    }
    return a.map(walk);
  };
  return { ...g, coordinates: walk(g.coordinates) };
}

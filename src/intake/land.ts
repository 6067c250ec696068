/**
 * Land and sea, from Natural Earth's 1:50m land polygons (the world-atlas package's TopoJSON, public
 * domain): whether a position lies on land, for the axis-order check of a plot without a country.
 * The coastline is drawn to about a kilometre, so the sea here is the sea beyond the coast's detail.
 */
import land from 'world-atlas/land-50m.json' with { type: 'json' };
import type { Position } from './types.ts';

interface Topology {
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { land: { geometries: { type: string; arcs: number[][][] }[] } };
}

/** Height of the latitude bands the edges are filed in: a position is tested against its band's edges alone. */
const BAND_DEGREES = 0.25;
const BANDS = Math.ceil(180 / BAND_DEGREES);
const bandOf = (y: number) => Math.min(BANDS - 1, Math.max(0, Math.floor((y + 90) / BAND_DEGREES)));

/** The land's edges by latitude band, four numbers (x1, y1, x2, y2) an edge; built on first use. */
let bands: Float64Array[] | null = null;

/** The arcs of a TopoJSON topology as positions: delta-encoded and quantized, as the format stores them. */
function decodeArcs(topology: Topology): Position[][] {
  const [sx, sy] = topology.transform.scale;
  const [tx, ty] = topology.transform.translate;
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]): Position => {
      x += dx;
      y += dy;
      return [x * sx + tx, y * sy + ty];
    });
  });
}

function buildBands(): Float64Array[] {
  const topology = land as unknown as Topology;
  const arcs = decodeArcs(topology);
  const filed: number[][] = Array.from({ length: BANDS }, () => []);
  for (const geometry of topology.objects.land.geometries) {
    for (const polygon of geometry.arcs) {
      for (const ring of polygon) {
        for (const index of ring) {
          // A negative index (~i) is arc i run backwards; the direction does not matter to a crossing count.
          const arc = arcs[index < 0 ? ~index : index];
          for (let i = 1; i < arc.length; i++) {
            const [x1, y1] = arc[i - 1];
            const [x2, y2] = arc[i];
            if (y1 === y2) continue;
            for (let b = bandOf(Math.min(y1, y2)); b <= bandOf(Math.max(y1, y2)); b++) filed[b].push(x1, y1, x2, y2);
          }
        }
      }
    }
  }
  return filed.map((edges) => Float64Array.from(edges));
}

/** Whether a WGS84 position lies on land: an odd number of land edges cross the ray east of it. */
export function onLand([x, y]: Position): boolean {
  bands ??= buildBands();
  const edges = bands[bandOf(y)];
  let inside = false;
  for (let i = 0; i < edges.length; i += 4) {
    const y1 = edges[i + 1];
    const y2 = edges[i + 3];
    if (y1 > y === y2 > y) continue;
    const x1 = edges[i];
    if (x < x1 + ((y - y1) * (edges[i + 2] - x1)) / (y2 - y1)) inside = !inside;
  }
  return inside;
}

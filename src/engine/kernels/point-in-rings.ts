/** Whether a point lies inside a polygon given as its rings (outer and holes), by the even–odd rule. */
export function pointInRings(x: number, y: number, rings: ReadonlyArray<ReadonlyArray<ArrayLike<number>>>): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const xi = ring[i][0];
      const yi = ring[i][1];
      const xj = ring[j][0];
      const yj = ring[j][1];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Ground metres per degree of latitude and of longitude at a latitude on the WGS84 ellipsoid (series exact to centimetres per degree). */
export function metresPerDegree(latDeg: number): { lat: number; lon: number } {
  const phi = (latDeg * Math.PI) / 180;
  return {
    lat: 111_132.954 - 559.822 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi),
    lon: 111_412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi) + 0.118 * Math.cos(5 * phi),
  };
}

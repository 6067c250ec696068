// S2 geometry cell tokens (the cube-face Hilbert curve of the S2 library), which name the
// Open Buildings Temporal manifests by their level-2 cell. Only point → cell is needed.

const MAX_LEVEL = 30;
const SWAP = 1;
const INVERT = 2;
// Position along the curve of the child at (i, j), by orientation; and the orientation a child takes.
const IJ_TO_POS = [
  [0, 1, 3, 2],
  [0, 3, 1, 2],
  [2, 3, 1, 0],
  [2, 1, 3, 0],
];
const POS_TO_ORIENTATION = [SWAP, 0, 0, INVERT | SWAP];

function faceUv(x: number, y: number, z: number): [number, number, number] {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const v = [x, y, z][face];
  if (v < 0) face += 3;
  switch (face) {
    case 0: return [0, y / x, z / x];
    case 1: return [1, -x / y, z / y];
    case 2: return [2, -x / z, -y / z];
    case 3: return [3, z / x, y / x];
    case 4: return [4, z / y, -x / y];
    default: return [5, -y / z, -x / z];
  }
}

// The S2 library's quadratic projection from the face plane to cell space.
function uvToSt(u: number): number {
  return u >= 0 ? 0.5 * Math.sqrt(1 + 3 * u) : 1 - 0.5 * Math.sqrt(1 - 3 * u);
}

function stToIj(s: number): number {
  return Math.max(0, Math.min(2 ** MAX_LEVEL - 1, Math.floor(s * 2 ** MAX_LEVEL)));
}

/** The 64-bit id of the cell of `level` holding a point. */
export function s2CellId(lon: number, lat: number, level: number): bigint {
  if (!Number.isInteger(level) || level < 0 || level > MAX_LEVEL) throw new RangeError(`S2 levels run 0–30, not ${level}`);
  const phi = (lat * Math.PI) / 180;
  const theta = (lon * Math.PI) / 180;
  const [face, u, v] = faceUv(Math.cos(phi) * Math.cos(theta), Math.cos(phi) * Math.sin(theta), Math.sin(phi));
  const i = stToIj(uvToSt(u));
  const j = stToIj(uvToSt(v));
  let orientation = face & SWAP;
  let id = BigInt(face);
  for (let k = MAX_LEVEL - 1; k >= MAX_LEVEL - level; k--) {
    const pos = IJ_TO_POS[orientation][(((i >> k) & 1) << 1) | ((j >> k) & 1)];
    id = (id << 2n) | BigInt(pos);
    orientation ^= POS_TO_ORIENTATION[pos];
  }
  // Face (3 bits), 2 bits per level, then the trailing 1 that marks the level.
  const used = 3 + 2 * level;
  return ((id << 1n) | 1n) << BigInt(64 - used - 1);
}

/** Hex of the id without trailing zeros, as the S2 library's `ToToken`. */
export function s2CellToken(lon: number, lat: number, level: number): string {
  return s2CellId(lon, lat, level).toString(16).padStart(16, '0').replace(/0+$/, '');
}

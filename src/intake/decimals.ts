/** Decimal places of coordinates, as written or as JavaScript prints the number back. */

/** Decimal places in the shortest text that reads back as this number (1.5e-7 has 8). */
export function decimalsOf(x: number): number {
  const s = String(Math.abs(x));
  const e = s.indexOf('e');
  const mantissa = e < 0 ? s : s.slice(0, e);
  const dot = mantissa.indexOf('.');
  const places = dot < 0 ? 0 : mantissa.length - dot - 1;
  return e < 0 ? places : Math.max(0, places - Number(s.slice(e + 1)));
}

/**
 * Whether a number needs more than five decimals to be written: one of up to five decimals survives
 * the round trip through 1e5 exactly (both sides are the double nearest the same decimal), so this
 * decides without printing the number.
 */
export const needsSixDecimals = (x: number) => Math.round(x * 1e5) / 1e5 !== x;

/** Decimal places written in a number's text, with a point or a comma as separator. */
export function writtenDecimals(text: string): number {
  const t = text.trim();
  const sep = Math.max(t.lastIndexOf('.'), t.lastIndexOf(','));
  if (sep < 0) return 0;
  const digits = /^\d*/.exec(t.slice(sep + 1))![0];
  return digits.length;
}

/** The coordinate on the EU information system's grid: it rounds to 6 decimals. */
export const onSixDecimalGrid = (x: number) => Math.round(x * 1e6);

/** Decimal places written in a JSON number token (the exponent counted: 15e-7 has 7). */
function tokenDecimals(text: string, start: number, end: number): number {
  let dot = -1;
  let exp = end;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) dot = i;
    else if (c === 0x65 || c === 0x45) exp = i;
  }
  const fraction = dot < 0 ? 0 : exp - dot - 1;
  return Math.max(0, fraction - (exp < end ? Number(text.slice(exp + 1, end)) : 0));
}

/** Digits, the point, the exponent's e and its sign. */
const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

interface Frame {
  array: boolean;
  /** Objects: the key whose value is being read. */
  key: string | null;
  /** Arrays: the position of the value being read. */
  index: number;
}

/**
 * The most decimals written in each geometry's coordinates, read from the text of a JSON document
 * that JSON.parse has accepted (so it is well formed): `features/<i>` for the i-th feature of a
 * FeatureCollection, `geometry` for a Feature's, `root` for a bare geometry's. Only a position's
 * longitude and latitude count, not its altitude. One pass over the text building no value (it costs
 * no more than the parse itself): `7.203200` has six decimals, which the parsed 7.2032 has lost.
 */
export function writtenCoordinateDecimals(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const stack: Frame[] = [];
  let target: string | null = null;
  let targetDepth = 0;
  let expectKey = false;
  const valueStart = () => {
    const top = stack[stack.length - 1];
    if (top?.array) top.index++;
  };
  const coordinatesOf = (): string | null => {
    const at = (i: number) => stack[i];
    const n = stack.length;
    if (n === 0 || at(n - 1).array || at(n - 1).key !== 'coordinates') return null;
    if (n === 1) return 'root';
    if (n === 2 && at(0).key === 'geometry') return 'geometry';
    if (n === 4 && at(0).key === 'features' && at(1).array && at(2).key === 'geometry') return `features/${at(1).index}`;
    return null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (expectKey) {
        // As written: a key spelled with escapes is no key looked for here, and its geometry is judged on its numbers.
        stack[stack.length - 1].key = text.slice(i + 1, j);
        expectKey = false;
      } else valueStart();
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      valueStart();
      const name: string | null = c === 0x5b && target === null ? coordinatesOf() : null;
      stack.push({ array: c === 0x5b, key: null, index: -1 });
      expectKey = c === 0x7b;
      if (name !== null) {
        target = name;
        targetDepth = stack.length;
        found.set(name, 0);
      }
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      if (target !== null && stack.length < targetDepth) target = null;
    } else if (c === 0x2c) {
      expectKey = !stack[stack.length - 1].array;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      valueStart();
      const top = stack[stack.length - 1];
      if (target !== null && top.array && top.index <= 1) found.set(target, Math.max(found.get(target)!, tokenDecimals(text, i, j)));
      i = j - 1;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      valueStart();
      while (i + 1 < text.length && text.charCodeAt(i + 1) >= 0x61 && text.charCodeAt(i + 1) <= 0x7a) i++;
    }
  }
  return found;
}

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

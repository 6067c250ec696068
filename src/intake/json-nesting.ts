/**
 * Where a JSON text first nests deeper than `max` arrays and objects, as a 1-based line, or null: one
 * pass over the characters, strings skipped, building nothing, so a document can be refused before
 * JSON.parse and the walks after it meet a depth they can recurse through.
 */
export function jsonNestingPast(text: string, max: number): { line: number } | null {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    else if (c === 0x22) {
      // A string ends at the next quote not escaped; a raw newline in it is invalid JSON, which JSON.parse names.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return { line };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
}

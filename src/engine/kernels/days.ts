/** Dates in the kernels are whole UTC days since 1970-01-01, so series arithmetic stays on numbers. */

const MS_PER_DAY = 86_400_000;

/** 'YYYY-MM-DD' → day number. */
export function utcDay(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${date}`);
  return Math.floor(ms / MS_PER_DAY);
}

/** Day number → 'YYYY-MM-DD'. */
export function isoDate(day: number): string {
  return new Date(Math.floor(day) * MS_PER_DAY).toISOString().slice(0, 10);
}

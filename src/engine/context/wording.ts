// How the context blocks write numbers into sentences: one rule for every block, so a share reads
// the same in the history, settlement and concession text.

/** A share of the plot in words: whole percent, with "under 1%" for a share that is not zero. */
export function percent(share: number): string {
  if (share > 0 && share < 0.005) return 'under 1%';
  if (share < 1 && share > 0.995) return 'over 99%';
  return `${Math.round(share * 100)}%`;
}

/** Years as a list in words: "2016", "2016 and 2020", "2016, 2020 and 2023". */
export function yearList(years: readonly number[]): string {
  if (years.length <= 1) return years.join('');
  return `${years.slice(0, -1).join(', ')} and ${years[years.length - 1]}`;
}

/** A span of years: "in 2008" or "between 2003 and 2006". */
export function yearSpan(min: number, max: number): string {
  return min === max ? `in ${min}` : `between ${min} and ${max}`;
}

/** Rounds a figure for serving (areas, distances), so stored objects carry no float noise. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

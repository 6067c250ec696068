// The plots picked in the register, by id with the reference shown for each: kept while the person
// goes on to make a shipment, attach a producer or start a monitor from them.
export const selection = new Map();

/** "3 plots (CI-1, CI-2, CI-3)", naming at most `named` of them. */
export function selectionText(named = 5) {
  const refs = [...selection.values()];
  const more = refs.length > named ? `, and ${refs.length - named} more` : '';
  return `${refs.length} plot${refs.length === 1 ? '' : 's'} (${refs.slice(0, named).join(', ')}${more})`;
}

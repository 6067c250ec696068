/**
 * Species of a wood batch (spec 4.10): the caller's declaration, read from `{scientific_name,
 * common_name}` objects or plain strings (the scientific name), and the rule that makes a batch wood.
 */
import { badSpecies, speciesNameRequired } from './errors.ts';

export const SPECIES_MAX = 500;
export const SPECIES_NAME_MAX = 100;

export interface Species {
  scientific_name: string;
  common_name: string | null;
}

export type SpeciesEntry = string | { scientific_name?: string | null; common_name?: string | null };

const named = (value: string | null | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The species list as stored; an entry without a scientific name is refused with species_scientific_name_required. */
export function parseSpecies(entries: SpeciesEntry[]): Species[] {
  if (entries.length > SPECIES_MAX) throw badSpecies(`species holds ${entries.length} entries; at most ${SPECIES_MAX} are taken`);
  return entries.map((entry, i) => {
    const scientific = named(typeof entry === 'string' ? entry : entry.scientific_name);
    if (scientific === null) throw speciesNameRequired(i);
    const common = typeof entry === 'string' ? null : named(entry.common_name);
    for (const name of [scientific, common]) {
      if (name !== null && name.length > SPECIES_NAME_MAX) throw badSpecies(`species[${i}] has a name of ${name.length} characters; a name is 1 to ${SPECIES_NAME_MAX}`);
    }
    return { scientific_name: scientific, common_name: common };
  });
}

export const WOOD_COMMODITIES = ['wood', 'timber'] as const;
export const WOOD_HS_PREFIXES = ['44', '47', '48', '49', '9401', '9403', '9406'] as const;

/** Wood by its commodity; with no commodity given, by its HS heading. */
export function isWood(commodity: string | null, hsCode: string | null): boolean {
  if (commodity !== null && commodity.trim() !== '') return (WOOD_COMMODITIES as readonly string[]).includes(commodity.trim().toLowerCase());
  return hsCode !== null && WOOD_HS_PREFIXES.some((prefix) => hsCode.startsWith(prefix));
}

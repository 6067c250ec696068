/** Refusals of shipments and statements (spec 7.7); codes in src/errors.ts, statuses in src/api/errors.ts. */
import { DomainError, invalid } from '../errors.ts';

export const duplicateReference = (what: 'shipment' | 'statement', reference: string) =>
  new DomainError('duplicate_reference', `A ${what} with the reference ${JSON.stringify(reference)} exists in this workspace; choose another reference.`);

/** The statement cannot be built yet: the message lists every problem in the way. */
export const notReady = (problems: { message: string }[]) =>
  new DomainError('not_ready', `The statement cannot be built yet: ${problems.map((p) => p.message).join(' ')}`);

export const referenceRequired = (field: string, max: number) => invalid('reference_required', `${field} is required: 1 to ${max} characters, unique in the workspace`);

export const badHsCode = (value: string) =>
  invalid('bad_hs_code', `hs_code ${JSON.stringify(value)} is not an HS code: give 2 to 8 digits (dots and spaces are dropped), for example 1801 or 4407.10`);

export const badDestination = (value: string) =>
  invalid('bad_destination', `destination_country ${JSON.stringify(value)} is not an EU member state: give the member state where the goods are placed on the market (alpha-2, alpha-3 or its name)`);

export const badBorderCrossCountry = (value: string) =>
  invalid('bad_border_cross_country', `border_cross_country ${JSON.stringify(value)} is not an EU member state: give the member state where the goods enter (IMPORT) or leave (EXPORT) the customs territory`);

export const badUnit = (message: string) => invalid('bad_unit', message);

export const badDate = (message: string) => invalid('bad_date', message);

export const speciesNameRequired = (index: number) =>
  invalid('species_scientific_name_required', `species[${index}] has no scientific name: give {scientific_name, common_name} or the scientific name as a string`);

export const badSpecies = (message: string) => invalid('bad_species', message);

export const noPlots = (message: string) => invalid('no_plots', message);

/** Spec 4.9: at most `max` plots in one add or remove call. */
export const tooManyPlotsInCall = (max: number) => new DomainError('too_many_plots', `At most ${max} plots are added or removed in one call; split the list.`);

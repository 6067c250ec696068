/**
 * The rules of a shipment's fields (spec 4.9) that a statement would refuse, applied when the
 * caller gives them: the reference, the HS code as digits, the destination as an EU member state
 * and the order of the dates. What the body's schema checks (types, enums) is in src/api/bodies.ts.
 */
import { lookupCountry } from '../intake/countries.ts';
import { badDate, badDestination, badHsCode, referenceRequired } from './errors.ts';

export const REFERENCE_MAX = 50;

/**
 * The member states the V3 schema's EuropeanCountryType lists (xsd2-eudr-common-v3.xsd), with XI,
 * Northern Ireland, where the regulation applies to goods placed on its market.
 */
export const EU_MEMBER_STATES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI',
] as const;

/** A shipment's or statement's reference, trimmed; blank is refused as missing. */
export function shipmentReference(value: string, field = 'reference'): string {
  const reference = value.trim();
  if (reference === '') throw referenceRequired(field, REFERENCE_MAX);
  return reference;
}

/** The HS code as digits: dots and spaces dropped, 2 to 8 digits left. */
export function hsCode(value: string): string {
  const digits = value.replace(/[.\s]/g, '');
  if (!/^\d{2,8}$/.test(digits)) throw badHsCode(value);
  return digits;
}

/** The destination as an EU member state's alpha-2 code; Greece's EL is read as the GR the schema takes. */
export function destinationCountry(value: string): string {
  const text = value.trim();
  const code = text.toUpperCase() === 'EL' ? 'GR' : text.toUpperCase() === 'XI' ? 'XI' : lookupCountry(text);
  if (code === null || !(EU_MEMBER_STATES as readonly string[]).includes(code)) throw badDestination(value);
  return code;
}

/** Arrival cannot come before shipping. */
export function checkDates(shippedOn: string | null, arrivesOn: string | null): void {
  if (shippedOn !== null && arrivesOn !== null && arrivesOn < shippedOn) {
    throw badDate(`arrives_on (${arrivesOn}) is before shipped_on (${shippedOn}); give the dates the goods ship and arrive`);
  }
}

/**
 * The rules of a shipment's fields (spec 4.9) that a statement would refuse, applied when the
 * caller gives them: the reference, the HS code as digits, the destination as an EU member state
 * and the order of the dates. What the body's schema checks (types, enums) is in src/api/bodies.ts.
 */
import { lookupCountry } from '../intake/countries.ts';
import { badBorderCrossCountry, badDate, badDestination, badHsCode, badUnit, referenceRequired } from './errors.ts';

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

/** An EU member state's alpha-2 code, or null; Greece's EL is read as the GR the schema takes. */
function memberState(value: string): string | null {
  const text = value.trim();
  const code = text.toUpperCase() === 'EL' ? 'GR' : text.toUpperCase() === 'XI' ? 'XI' : lookupCountry(text);
  return code !== null && (EU_MEMBER_STATES as readonly string[]).includes(code) ? code : null;
}

/** The destination as an EU member state. */
export function destinationCountry(value: string): string {
  const code = memberState(value);
  if (code === null) throw badDestination(value);
  return code;
}

/** The member state of entry (IMPORT) or exit (EXPORT) at the customs border, V3's `borderCrossCountry`. */
export function borderCrossCountry(value: string): string {
  const code = memberState(value);
  if (code === null) throw badBorderCrossCountry(value);
  return code;
}

/** A supplementary unit's type as V3's SupplementaryUnitQualifierType takes it: 3 or 4 characters (MTQ, NAR, KSD…), upper case. */
export function supplementaryUnitType(value: string): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z0-9]{3,4}$/.test(code)) throw badUnit(`supplementary_unit_type ${JSON.stringify(value)} is not a unit code: give the 3 or 4 letters of the heading's supplementary unit, for example MTQ (m3), NAR (items) or KSD (kg of dry substance)`);
  return code;
}

/** Arrival cannot come before shipping. */
export function checkDates(shippedOn: string | null, arrivesOn: string | null): void {
  if (shippedOn !== null && arrivesOn !== null && arrivesOn < shippedOn) {
    throw badDate(`arrives_on (${arrivesOn}) is before shipped_on (${shippedOn}); give the dates the goods ship and arrive`);
  }
}

/**
 * How a stored statement is filed (V3 SubmitDdsRequest): by the operator itself, or by an authorised
 * representative for the operator it names (`operatorRole` REPRESENTATIVE_OPERATOR with the
 * statement's `representedOperator`), and whether its geolocation is kept from operators and traders
 * further down the supply chain (`geoLocationConfidential`). The limits are the V3 common schema's.
 */

/** EconomicOperatorReferenceNumberType's `identifierType` values. */
export const OPERATOR_IDENTIFIER_TYPES = ['eori', 'vat', 'gln', 'tin', 'cbr', 'cin', 'duns', 'comp_num', 'comp_reg', 'oni'] as const;
export type OperatorIdentifierType = (typeof OPERATOR_IDENTIFIER_TYPES)[number];

export const OPERATOR_LIMITS = {
  name: 200,
  identifiers: 12,
  identifierValue: 80,
  street: 300,
  postalCode: 80,
  city: 200,
  fullAddress: 250,
  email: 200,
  phone: 50,
} as const;

/** EmailType's pattern, as the information system checks it. */
export const OPERATOR_EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

/** The operator an authorised representative files for, as the caller gives it. */
export interface RepresentedOperator {
  name: string;
  identifiers?: { type: OperatorIdentifierType; value: string }[];
  address?: { country: string; street: string; postal_code: string; city: string; full_address?: string };
  email?: string;
  phone?: string;
}

export interface FilingOptions {
  /** Set: the statement is filed by an authorised representative for this operator. */
  representedOperator: RepresentedOperator | null;
  geolocationConfidential: boolean;
}

/** A statement filed by the operator itself, its geolocation open down the chain: V3's plain filing. */
export const OWN_FILING: FilingOptions = { representedOperator: null, geolocationConfidential: false };

/** V3 EconomicOperatorIdentificationType, in its element order. */
export interface V3Operator {
  operatorReferenceNumber?: { identifierType: OperatorIdentifierType; identifierValue: string }[];
  operatorAddress?: { country: string; street: string; postalCode: string; city: string; fullAddress?: string };
  operatorEmail?: string;
  operatorPhone?: string;
  operatorName: string;
}

export function v3Operator(o: RepresentedOperator): V3Operator {
  const a = o.address;
  return {
    ...(o.identifiers !== undefined && o.identifiers.length > 0 && { operatorReferenceNumber: o.identifiers.map((i) => ({ identifierType: i.type, identifierValue: i.value })) }),
    ...(a !== undefined && {
      operatorAddress: { country: a.country.toUpperCase(), street: a.street, postalCode: a.postal_code, city: a.city, ...(a.full_address !== undefined && { fullAddress: a.full_address }) },
    }),
    ...(o.email !== undefined && { operatorEmail: o.email }),
    ...(o.phone !== undefined && { operatorPhone: o.phone }),
    operatorName: o.name,
  };
}

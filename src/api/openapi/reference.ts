import { json, nullable, ref, type Schema } from './common.ts';

export const referenceSchemas: Record<string, Schema> = {
  PublicKey: {
    type: 'object',
    required: ['algorithm', 'key_id', 'public_key_pem'],
    additionalProperties: false,
    description:
      'Verify an evidence wrapper: compute the lower-case hex SHA-256 of the RFC 8785 canonical JSON of `evidence`, compare it with `integrity.digest`, then verify the base64 Ed25519 `integrity.signature` over the digest decoded to its 32 bytes.',
    properties: { algorithm: { const: 'Ed25519' }, key_id: { type: 'string' }, public_key_pem: { type: 'string' } },
  },
  CountryClassification: {
    type: 'object',
    required: ['instrument', 'eli', 'celex', 'version_date', 'checked_on', 'amended_by', 'countries'],
    properties: {
      instrument: { type: 'string' },
      eli: { type: 'string' },
      celex: { type: 'string' },
      version_date: { type: 'string', format: 'date' },
      checked_on: { type: 'string', format: 'date' },
      amended_by: nullable({ type: 'string' }),
      countries: {
        type: 'array',
        description: 'One row per country the Commission names. Any other country, and any territory or dependency, is standard under the residual rule (`enumerated: false`).',
        items: {
          type: 'object',
          required: ['country', 'country_name', 'classification', 'enumerated'],
          properties: { country: { type: 'string', pattern: '^[A-Z]{2}$' }, country_name: { type: 'string' }, classification: { enum: ['low', 'standard', 'high'] }, enumerated: { const: true } },
        },
      },
    },
  },
};

export const referencePaths = {
  '/evidence/public-key': {
    get: { operationId: 'getPublicKey', summary: 'The public key that verifies evidence signatures', security: [], responses: { '200': json(ref('PublicKey')) } },
  },
  '/reference/country-classification': {
    get: {
      operationId: 'getCountryClassification',
      summary: 'Country classification of Commission Implementing Regulation (EU) 2025/1093, as held by the service',
      security: [],
      responses: { '200': json(ref('CountryClassification')) },
    },
  },
};

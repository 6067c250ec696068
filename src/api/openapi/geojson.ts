/**
 * GeoJSON (RFC 7946) as the service serves it: the geometries a plot, a studio boundary or an alert
 * case is stored as, each typed to its positions, and the statement's geolocation file.
 */
import { ref, type Schema } from './common.ts';

const geometry = (type: string, coordinates: Schema, description: string): Schema => ({
  type: 'object',
  required: ['type', 'coordinates'],
  additionalProperties: false,
  description,
  properties: { type: { const: type }, coordinates },
});

const positions = (items: Schema, minItems: number, description: string): Schema => ({ type: 'array', items, minItems, description });
const ring = positions(ref('GeoJsonPosition'), 4, 'A closed ring: its last position repeats its first.');
const polygon = positions(ring, 1, 'The outer ring, then any holes.');

/**
 * A geometry of one of the named types, told apart by its `type` constant. No discriminator object:
 * generators (openapi-typescript 6) turn a nullable $ref to a discriminated schema into a subtype of
 * the referring one, and the constants already narrow a union.
 */
export const geometryOf = (...types: ('Point' | 'Polygon' | 'MultiPolygon')[]): Schema => ({ oneOf: types.map((t) => ref(`GeoJson${t}`)) });

export const geoJsonSchemas: Record<string, Schema> = {
  GeoJsonPosition: {
    type: 'array',
    items: { type: 'number' },
    minItems: 2,
    maxItems: 2,
    description: '[longitude, latitude] in WGS 84 degrees.',
  },
  GeoJsonPoint: geometry('Point', ref('GeoJsonPosition'), 'A GeoJSON Point.'),
  GeoJsonPolygon: geometry('Polygon', polygon, 'A GeoJSON Polygon.'),
  GeoJsonMultiPolygon: geometry('MultiPolygon', positions(polygon, 1, 'Its polygons, each as a Polygon\'s coordinates.'), 'A GeoJSON MultiPolygon.'),
  GeoJsonGeometry: { ...geometryOf('Point', 'Polygon', 'MultiPolygon'), description: 'A GeoJSON Point, Polygon or MultiPolygon.' },
  StatementGeolocation: {
    type: 'object',
    required: ['type', 'features'],
    additionalProperties: false,
    description: 'The statement\'s `geojson` file: every plot as the EU GeoJSON file description (v1.3) has it, producer by producer, coordinates with six decimals.',
    properties: {
      type: { const: 'FeatureCollection' },
      features: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'properties', 'geometry'],
          additionalProperties: false,
          properties: {
            type: { const: 'Feature' },
            properties: {
              type: 'object',
              required: ['ProducerName', 'ProducerCountry', 'ProductionPlace', 'Area'],
              additionalProperties: false,
              properties: {
                ProducerName: { type: ['string', 'null'] },
                ProducerCountry: { type: ['string', 'null'], description: 'ISO 3166-1 alpha-2: the country of production.' },
                ProductionPlace: { type: 'string', description: 'The plot\'s reference (its id when it has none).' },
                Area: { type: ['number', 'null'], description: 'Hectares, four decimals; a point\'s declared area (4 ha when none is declared).' },
              },
            },
            geometry: ref('GeoJsonGeometry'),
          },
        },
      },
    },
  },
};

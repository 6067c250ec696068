/**
 * The JSON request bodies as run-time schemas. A route reads its body through its schema here, and
 * the OpenAPI document's request schemas are generated from the same ones (src/api/openapi), so
 * what is checked and what is documented cannot drift. A field that fails answers the refusal
 * named beside it; rules across fields (one of two fields, ids that name nothing) stay with the
 * route's own parsing.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import { ALERT_LIMITS } from '../alerts/limits.ts';
import { ARCHIVE_OBSERVATIONS } from '../engine/archive-reading.ts';
import { alertRefusal, badRequest, DomainError, invalid, type AlertCode, type InputCode } from '../errors.ts';
import { MAX_REF_CHARS } from '../intake/limits.ts';
import { JSON_TYPES } from './middleware.ts';
import { ACTIVITY_TYPES, SHIPMENT_UNITS } from '../store/entities/index.ts';
import { SPECIES_MAX, SPECIES_NAME_MAX } from '../statements/species.ts';
import { REFERENCE_MAX } from '../statements/shipment-fields.ts';
import { MAX_PLOTS_PER_ADD } from '../statements/shipments.ts';
import { V3_LIMITS } from '../statements/payload.ts';
import { OPERATOR_EMAIL, OPERATOR_IDENTIFIER_TYPES, OPERATOR_LIMITS as L } from '../statements/filing-options.ts';

/**
 * A route that reads a JSON object takes no body at all as `{}`; a body of another media type is
 * refused rather than read as empty, and JSON that is no object (`null`, an array, a string) is
 * refused with `bad_body`.
 */
function objectBody(ctx: Context): Record<string, unknown> {
  const body = jsonValue(ctx);
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('bad_body', `the request body must be a JSON object, not ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}`);
  }
  return body as Record<string, unknown>;
}

/** The JSON a route was sent; undefined when no body came. A body of another media type is refused. */
function jsonValue(ctx: Context): unknown {
  const sent = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!sent) return undefined;
  if (!ctx.is(JSON_TYPES)) {
    throw badRequest('unsupported_media_type', `this route reads a JSON body sent with Content-Type: application/json; this one came as ${ctx.get('Content-Type') || 'no Content-Type'}`);
  }
  const body = (ctx.request as unknown as { body?: unknown }).body;
  return body === '' ? undefined : body;
}

interface Refusal {
  code: InputCode | AlertCode;
  message: string;
}

interface FieldRefusals {
  /** A field present but not of its schema. */
  wrong: Refusal;
  /** A required field left out, where it has its own refusal. */
  missing?: Refusal;
}

export interface RequestBody<S extends z.ZodRawShape> {
  schema: z.ZodObject<S>;
  refusals: { [K in keyof S]: FieldRefusals };
}

function requestBody<S extends z.ZodRawShape>(shape: S, refusals: RequestBody<S>['refusals'], description: string): RequestBody<S> {
  return { schema: z.object(shape).describe(description), refusals };
}

/** The body of a JSON route, checked by its schema: no body is `{}`; a field that fails is refused with its own code. */
export function readBody<S extends z.ZodRawShape>(ctx: Context, body: RequestBody<S>): z.infer<z.ZodObject<S>> {
  return checkBody(body, objectBody(ctx));
}

/** An object checked by a body's schema, refused as the route refuses it (the operator commands send their flags through it too). */
export function checkBody<S extends z.ZodRawShape>(body: RequestBody<S>, value: Record<string, unknown>): z.infer<z.ZodObject<S>> {
  const result = body.schema.safeParse(value);
  if (result.success) return result.data;
  const field = result.error.issues[0].path[0] as keyof S;
  const refusals = body.refusals[field];
  const refusal = value[field as string] === undefined && refusals.missing ? refusals.missing : refusals.wrong;
  throw new DomainError(refusal.code, refusal.message);
}

const nonBlank = z.string().regex(/\S/);

/** POST /portal/plots/evidence (spec 4.2). */
export const runEvidenceBody = requestBody(
  {
    all: z.boolean().optional().describe('true: every valid or repaired plot with a geometry and no evidence yet, failed reads included.'),
    plot_ids: z.array(z.string().describe('A plot id of the workspace.')).optional().describe('The plots to read; not with `all`.'),
    rerun: z.boolean().optional().describe('With `plot_ids`: read again a plot whose evidence exists or is in flight. Default false.'),
  },
  {
    all: { wrong: { code: 'bad_all', message: 'all must be true or false' } },
    plot_ids: { wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' } },
    rerun: { wrong: { code: 'bad_rerun', message: 'rerun must be true or false' } },
  },
  'Either `all: true` or `plot_ids` (with `rerun: true` to read again a plot whose evidence exists or is in flight).',
);

/** POST /auth/sign-in. */
export const signInBody = requestBody(
  {
    email: nonBlank,
    password: nonBlank,
  },
  {
    email: { wrong: { code: 'email_required', message: 'email is required' } },
    password: { wrong: { code: 'password_required', message: 'password is required' } },
  },
  'The account\'s email and password.',
);

export const KEY_LABEL_MAX = 200;

/** POST /api-keys and POST /portal/api-keys. */
export const keyBody = requestBody(
  {
    label: z.string().max(KEY_LABEL_MAX).nullable().optional().describe('A name for the key, shown in the key list.'),
  },
  {
    label: { wrong: { code: 'bad_label', message: `label must be a string of at most ${KEY_LABEL_MAX} characters` } },
  },
  'An optional label for the key.',
);

export const WEBHOOK_LABEL_MAX = 200;
const webhookUrl = z.string().describe('The receiver: https, no credentials, a host that resolves only to public addresses. Checked when saved and before every attempt.');
const webhookEvents = z.array(z.string()).describe('Event types to send (spec 6.2 names); all of them when left out.');
const webhookLabel = z.string().max(WEBHOOK_LABEL_MAX).nullable().optional().describe('A name for the endpoint, shown in lists.');
const webhookRefusals = {
  url: { wrong: { code: 'bad_url', message: 'url must be a string: an https URL' }, missing: { code: 'bad_url', message: 'url is required: the https URL of the receiver' } },
  events: { wrong: { code: 'bad_events', message: 'events must be an array of event type names' } },
  label: { wrong: { code: 'bad_label', message: `label must be a string of at most ${WEBHOOK_LABEL_MAX} characters` } },
} as const;

/** POST /portal/webhooks (spec 4.8). */
export const webhookBody = requestBody(
  { url: webhookUrl, events: webhookEvents.optional(), label: webhookLabel },
  webhookRefusals,
  'A webhook endpoint: where to send, which events, and a label.',
);

/** PATCH /portal/webhooks/{id} (spec 4.8): only the fields given change. */
export const webhookChangeBody = requestBody(
  {
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    label: webhookLabel,
    active: z.boolean().optional().describe('false pauses deliveries to the endpoint: no new ones are made and pending ones wait.'),
  },
  { ...webhookRefusals, url: { wrong: webhookRefusals.url.wrong }, active: { wrong: { code: 'bad_active', message: 'active must be true or false' } } },
  'The fields of the endpoint to change.',
);

/** POST /portal/plots/producers (spec 4.1). */
export const producerBody = requestBody(
  {
    name: z.string().describe('Uploaded `producer` names are matched to it ignoring case and spacing.'),
    reference: z.string().nullable().optional().describe('Your reference; unique in the workspace.'),
    country: z.string().nullable().optional().describe('Any accepted form (see /portal/plots/countries); stored as alpha-2.'),
  },
  {
    name: { wrong: { code: 'name_required', message: 'name is required: the producer\'s name as uploads give it' } },
    reference: { wrong: { code: 'bad_body', message: 'reference must be a string' } },
    country: { wrong: { code: 'bad_country', message: 'country must be a string: an alpha-2 or alpha-3 code or an English or French name' } },
  },
  'A producer of the workspace.',
);

/** POST /portal/plots/{id}/producer. */
export const attachProducerBody = requestBody(
  {
    producer_id: z.string().nullable().describe('A producer of this workspace, or null to detach.'),
  },
  {
    producer_id: {
      wrong: { code: 'bad_producer_id', message: 'producer_id must be a producer id or null' },
      missing: { code: 'producer_id_required', message: 'producer_id is required: a producer of this workspace, or null to detach' },
    },
  },
  'The producer to attach.',
);

export const READING_TEXT_MAX = { scene_id: 200, provider: 100, reviewer: 200, statement: 2000, reason: 500 } as const;
const textOf = (max: number) => nonBlank.max(max);

/** POST /portal/plots/{id}/archive-readings (spec 2.7 `archive_review`). */
export const fileReadingBody = requestBody(
  {
    scene_id: textOf(READING_TEXT_MAX.scene_id).describe('The archive scene\'s identifier at its provider.'),
    provider: textOf(READING_TEXT_MAX.provider).describe('Who holds the scene.'),
    acquired_on: z.iso.date().describe('The scene\'s acquisition date, YYYY-MM-DD; not after today.'),
    observed: z.enum(ARCHIVE_OBSERVATIONS).describe('What the scene shows on the plot.'),
    plot_share: z.number().gt(0).max(1).describe('Share of the plot the scene covers, above 0 and at most 1 (the whole plot).'),
    reviewer: textOf(READING_TEXT_MAX.reviewer).describe('The person who read the scene, as they sign.'),
    statement: textOf(READING_TEXT_MAX.statement).describe('A short statement of what the scene shows.'),
  },
  {
    scene_id: { wrong: { code: 'bad_scene_id', message: `scene_id is required: the scene's identifier, 1 to ${READING_TEXT_MAX.scene_id} characters` } },
    provider: { wrong: { code: 'bad_provider', message: `provider is required: who holds the scene, 1 to ${READING_TEXT_MAX.provider} characters` } },
    acquired_on: { wrong: { code: 'bad_acquired_on', message: 'acquired_on is required: the scene\'s acquisition date as YYYY-MM-DD' } },
    observed: { wrong: { code: 'bad_observed', message: `observed is required: one of ${ARCHIVE_OBSERVATIONS.join(', ')}` } },
    plot_share: { wrong: { code: 'bad_plot_share', message: 'plot_share is required: the share of the plot the scene covers, a number above 0 and at most 1' } },
    reviewer: { wrong: { code: 'bad_reviewer', message: `reviewer is required: the name of the person who read the scene, 1 to ${READING_TEXT_MAX.reviewer} characters` } },
    statement: { wrong: { code: 'bad_statement', message: `statement is required: what the scene shows, 1 to ${READING_TEXT_MAX.statement} characters` } },
  },
  'A dated reading of a sub-metre archive scene of the plot; never the imagery itself.',
);

/** POST /portal/plots/{id}/archive-readings/{reading_id}/withdraw. */
export const withdrawReadingBody = requestBody(
  {
    reason: textOf(READING_TEXT_MAX.reason).nullable().optional().describe('Why the reading is withdrawn; kept on the record.'),
  },
  {
    reason: { wrong: { code: 'bad_reason', message: `reason must be a string of 1 to ${READING_TEXT_MAX.reason} characters, or left out` } },
  },
  'Why the reading is withdrawn (optional).',
);

const speciesName = z.string().max(SPECIES_NAME_MAX);
const speciesEntry = z.union([
  speciesName.describe('A scientific name.'),
  z.object({
    scientific_name: speciesName.nullable().optional().describe(`Required: 1 to ${SPECIES_NAME_MAX} characters.`),
    common_name: speciesName.nullable().optional().describe(`1 to ${SPECIES_NAME_MAX} characters.`),
  }),
]);
const speciesList = z.array(speciesEntry).max(SPECIES_MAX).nullable().optional()
  .describe(`Spec 4.10: \`{scientific_name, common_name}\` objects or plain strings (the scientific name); at most ${SPECIES_MAX} entries, names of 1 to ${SPECIES_NAME_MAX} characters.`);
const speciesRefusal = {
  wrong: { code: 'bad_species', message: `species must be a list of at most ${SPECIES_MAX} {scientific_name, common_name} objects or scientific names, each name 1 to ${SPECIES_NAME_MAX} characters` },
} as const;

/** Plots to put on a shipment (spec 4.9), in any combination. */
const plotSelection = {
  plot_ids: z.array(z.string()).optional().describe('Plot ids of the workspace.'),
  refs: z.array(z.string()).optional().describe('Your plot references (`ref` at upload).'),
  producer_id: z.string().optional().describe('Every plot of this producer.'),
};
const plotSelectionRefusals = {
  plot_ids: { wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' } },
  refs: { wrong: { code: 'bad_refs', message: 'refs must be an array of your plot references' } },
  producer_id: { wrong: { code: 'bad_producer_id', message: 'producer_id must be a producer id' } },
} as const;

const text = (what: string) => ({ wrong: { code: 'bad_text', message: `${what} must be a string` } }) as const;

/** The fields of a shipment (spec 4.9); null clears a field on a change. */
const shipmentFields = {
  commodity: z.string().nullable().optional().describe('`wood` or `timber` make the batch wood (spec 4.10).'),
  description_of_goods: z.string().nullable().optional(),
  hs_code: z.string().nullable().optional().describe('2 to 8 digits; dots and spaces are dropped. V3 takes at most 6 digits: a longer code is reported among the statement\'s problems.'),
  quantity: z.number().positive().nullable().optional(),
  unit: z.enum(SHIPMENT_UNITS).nullable().optional(),
  net_mass_kg: z.number().positive().nullable().optional().describe('V3\'s `netWeight`: net mass in kg, mandatory for IMPORT and EXPORT. When left out, a `quantity` in kg or t gives it.'),
  supplementary_unit: z.number().positive().nullable().optional().describe('V3\'s `supplementaryUnit`, in `supplementary_unit_type`: what an Appendix I heading takes beside the net mass (m3 of roundwood, items of tyres or cattle, kg of dry pulp). When left out, a `quantity` in m3 gives it in MTQ.'),
  supplementary_unit_type: z.string().nullable().optional().describe('V3\'s `supplementaryUnitQualifier`: 3 or 4 characters, for example MTQ, NAR or KSD.'),
  destination_country: z.string().nullable().optional().describe('The EU member state where the goods are placed on the market: alpha-2, alpha-3 or its name.'),
  border_cross_country: z.string().nullable().optional().describe('V3\'s `borderCrossCountry`: the EU member state where the goods enter (IMPORT) or leave (EXPORT) the customs territory.'),
  activity_type: z.enum(ACTIVITY_TYPES).optional().describe('Default IMPORT. V3 has no TRADE: a TRADE batch is reported among the statement\'s problems.'),
  shipped_on: z.iso.date().nullable().optional(),
  arrives_on: z.iso.date().nullable().optional(),
  producer_ids: z.array(z.string()).nullable().optional().describe('Producers named on the batch beside those of its plots.'),
  species: speciesList,
  note: z.string().nullable().optional(),
};
const shipmentFieldRefusals = {
  commodity: text('commodity'),
  description_of_goods: text('description_of_goods'),
  hs_code: { wrong: { code: 'bad_hs_code', message: 'hs_code must be a string of 2 to 8 digits (dots and spaces are dropped)' } },
  quantity: { wrong: { code: 'bad_quantity', message: 'quantity must be a number above zero' } },
  unit: { wrong: { code: 'bad_unit', message: `unit must be one of ${SHIPMENT_UNITS.join(', ')}` } },
  net_mass_kg: { wrong: { code: 'bad_quantity', message: 'net_mass_kg must be a number of kilograms above zero' } },
  supplementary_unit: { wrong: { code: 'bad_quantity', message: 'supplementary_unit must be a number above zero' } },
  supplementary_unit_type: { wrong: { code: 'bad_unit', message: 'supplementary_unit_type must be a unit code such as MTQ, NAR or KSD' } },
  destination_country: { wrong: { code: 'bad_destination', message: 'destination_country must be an EU member state: alpha-2, alpha-3 or its name' } },
  border_cross_country: { wrong: { code: 'bad_border_cross_country', message: 'border_cross_country must be an EU member state: alpha-2, alpha-3 or its name' } },
  activity_type: { wrong: { code: 'bad_activity', message: `activity_type must be one of ${ACTIVITY_TYPES.join(', ')}` } },
  shipped_on: { wrong: { code: 'bad_date', message: 'shipped_on must be a date, YYYY-MM-DD' } },
  arrives_on: { wrong: { code: 'bad_date', message: 'arrives_on must be a date, YYYY-MM-DD' } },
  producer_ids: { wrong: { code: 'bad_producer_id', message: 'producer_ids must be an array of producer ids' } },
  species: speciesRefusal,
  note: text('note'),
} as const;

const referenceField = z.string().max(REFERENCE_MAX).describe(`1 to ${REFERENCE_MAX} characters; unique in the workspace.`);
const referenceRefusal = { wrong: { code: 'reference_too_long', message: `reference must be a string of 1 to ${REFERENCE_MAX} characters` } } as const;

/** POST /portal/statements/shipments (spec 4.9). */
export const shipmentBody = requestBody(
  { reference: referenceField, ...shipmentFields, ...plotSelection },
  { reference: { ...referenceRefusal, missing: { code: 'reference_required', message: `reference is required: 1 to ${REFERENCE_MAX} characters, unique in the workspace` } }, ...shipmentFieldRefusals, ...plotSelectionRefusals },
  'A shipment: nothing left out is defaulted except `activity_type`; plots in the shapes of the add route.',
);

/** PATCH /portal/statements/shipments/{id}. */
export const shipmentChangeBody = requestBody(
  { reference: referenceField.optional(), ...shipmentFields },
  { reference: referenceRefusal, ...shipmentFieldRefusals },
  'The fields to change; a field left out stays, null clears it.',
);

/** POST /portal/statements/shipments/{id}/plots. */
export const addPlotsBody = requestBody(plotSelection, plotSelectionRefusals, `Plots by id, by your reference and by producer, together if wished; at most ${MAX_PLOTS_PER_ADD} a call.`);

/** POST /portal/statements/shipments/{id}/plots/remove. */
export const removePlotsBody = requestBody(
  { plot_ids: z.array(z.string()).describe('Plots to take off the batch.') },
  { plot_ids: { wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' }, missing: { code: 'no_plots', message: 'plot_ids is required: the plots to take off the batch' } } },
  'The plots to take off the batch; they stay in the register.',
);

const internalReference = z.string().max(REFERENCE_MAX).nullable().optional()
  .describe(`1 to ${REFERENCE_MAX} characters, unique in the workspace; the information system takes at most ${V3_LIMITS.internalReference}, a longer one is reported among the problems.`);
const internalReferenceRefusal = { wrong: { code: 'reference_too_long', message: `internal_reference must be a string of 1 to ${REFERENCE_MAX} characters` } } as const;

const bounded = (max: number) => z.string().min(1).max(max);

/** V3 EconomicOperatorIdentificationType as the caller writes it; an unknown member is refused, not ignored, since it would be filed without it. */
export const representedOperatorSchema = z.strictObject({
  name: bounded(L.name).describe('`operatorName`: the operator\'s name.'),
  identifiers: z.array(z.strictObject({
    type: z.enum(OPERATOR_IDENTIFIER_TYPES).describe('`identifierType`: EORI for an operator that imports or exports, otherwise the identifier its country uses (VAT, TIN…).'),
    value: bounded(L.identifierValue).describe('`identifierValue`.'),
  })).max(L.identifiers).optional().describe(`\`operatorReferenceNumber\`: up to ${L.identifiers}.`),
  address: z.strictObject({
    country: z.string().regex(/^[A-Za-z]{2}$/).describe('ISO 3166-1 alpha-2.'),
    street: bounded(L.street),
    postal_code: bounded(L.postalCode),
    city: bounded(L.city),
    full_address: bounded(L.fullAddress).optional(),
  }).optional().describe('`operatorAddress`.'),
  email: z.string().max(L.email).regex(OPERATOR_EMAIL).optional().describe('`operatorEmail`.'),
  phone: bounded(L.phone).optional().describe('`operatorPhone`.'),
}).describe('The operator an authorised representative files for: V3 `representedOperator` (EconomicOperatorIdentificationType), with its limits.');
const representedOperator = representedOperatorSchema.nullable().optional().describe('Set when you file as an authorised representative: the statement goes as `operatorRole` REPRESENTATIVE_OPERATOR with this operator as `representedOperator`. null or left out: the operator files itself (OPERATOR).');
const representedOperatorRefusal = {
  wrong: {
    code: 'bad_represented_operator',
    message: `represented_operator must be null or an object with name (1 to ${L.name} characters) and, as wished, identifiers (up to ${L.identifiers} of {type: ${OPERATOR_IDENTIFIER_TYPES.join(', ')}; value: 1 to ${L.identifierValue} characters}), address ({country: alpha-2, street, postal_code, city, full_address}), email (an address the information system accepts) and phone (at most ${L.phone} characters), and nothing else`,
  },
} as const;
const geolocationConfidential = z.boolean().optional().describe('V3 `geoLocationConfidential`: true keeps the plots\' geolocation from operators and traders further down the supply chain. Default false.');
const geolocationConfidentialRefusal = { wrong: { code: 'bad_geolocation_confidential', message: 'geolocation_confidential must be true or false' } } as const;

/** POST /portal/statements/from-shipment and POST /portal/statements. */
export const statementBody = requestBody(
  {
    shipment_id: z.string().describe('The shipment the statement is built from.'),
    internal_reference: internalReference.describe('Defaults to the shipment\'s reference.'),
    species: speciesList.describe('The statement\'s own species; left out, the shipment\'s.'),
    represented_operator: representedOperator,
    geolocation_confidential: geolocationConfidential,
  },
  {
    shipment_id: { wrong: { code: 'bad_shipment_id', message: 'shipment_id must be a shipment id' }, missing: { code: 'bad_shipment_id', message: 'shipment_id is required: the shipment the statement is built from' } },
    internal_reference: internalReferenceRefusal,
    species: speciesRefusal,
    represented_operator: representedOperatorRefusal,
    geolocation_confidential: geolocationConfidentialRefusal,
  },
  'A statement linked to a shipment.',
);

/** PATCH /portal/statements/{id}. */
export const statementChangeBody = requestBody(
  {
    internal_reference: internalReference,
    species: speciesList.describe('null: the shipment\'s species.'),
    represented_operator: representedOperator.describe('An operator: filed as its authorised representative from now on; null: the operator files itself.'),
    geolocation_confidential: geolocationConfidential,
  },
  { internal_reference: internalReferenceRefusal, species: speciesRefusal, represented_operator: representedOperatorRefusal, geolocation_confidential: geolocationConfidentialRefusal },
  'The fields to change; a field left out stays.',
);

/** The longest studio boundary name, and the most vertices one boundary may have (a bound on what it costs the API to measure). */
export const BOUNDARY_NAME_MAX = 200;
export const BOUNDARY_MAX_VERTICES = 10_000;

const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]).describe('[longitude, latitude] in WGS 84 degrees.');
const ring = z.array(position).min(4).describe('A closed ring: its last position repeats its first.');
const polygon = z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) });
const multiPolygon = z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) });

/** POST /studio/boundaries: a boundary saved in the studio. */
export const boundaryBody = requestBody(
  {
    name: z.string().regex(/\S/).max(BOUNDARY_NAME_MAX).describe('Your name for the boundary; the evidence carries it as `aoi_name`.'),
    geometry: z.union([polygon, multiPolygon]).describe(`A GeoJSON Polygon or MultiPolygon (longitude, latitude), at most ${BOUNDARY_MAX_VERTICES.toLocaleString('en')} positions.`),
    country: z.string().nullable().optional().describe('Country of production in any accepted form (see /portal/plots/countries), stored as alpha-2: it names the calibration campaign and the country classification.'),
  },
  {
    name: { wrong: { code: 'name_required', message: `name is required: a name for the boundary of 1 to ${BOUNDARY_NAME_MAX} characters` } },
    geometry: {
      wrong: { code: 'bad_geometry', message: 'geometry must be a GeoJSON Polygon or MultiPolygon of [longitude, latitude] positions in WGS 84, each ring closed with at least four positions' },
    },
    country: { wrong: { code: 'bad_country', message: 'country must be a string: an alpha-2 or alpha-3 code or an English or French name' } },
  },
  'A studio boundary to save; its optical half is read at once.',
);

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((d) => new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'not a calendar date');

/** One alert of POST /eudr/alerts/adjudicate (spec 2.11). */
export const alertInput = z.object({
  ref: nonBlank.max(MAX_REF_CHARS).describe('Your reference for the alert; unique in the batch and the register. It becomes the plot\'s `external_ref`.'),
  // Read as sent and judged by the alert checks, which name what is wrong; documented as the geometry it must be.
  geometry: z.unknown().meta({ $ref: '#/components/schemas/GeoJsonGeometry' }).describe('The alert\'s footprint: a GeoJSON Point, Polygon or MultiPolygon in WGS84, longitude first, at most 5 km2.'),
  alert_date: isoDate.describe('The alert\'s date, YYYY-MM-DD, not before 2021-01-01.'),
  producer_id: z.string().nullable().optional().describe('A producer of the workspace to attach; its country decides the axis-order check when `country` is absent.'),
  commodity: z.string().nullable().optional(),
  country: z.string().nullable().optional().describe('Alpha-2, alpha-3 or an English or French name; makes the axis-order check decidable.'),
}).describe('An alert to adjudicate (spec 2.11).');

const ALERT_FIELD_REFUSALS: Record<keyof z.infer<typeof alertInput>, { code: AlertCode | InputCode; what: string }> = {
  ref: { code: 'bad_alert', what: `ref must be a non-blank string of at most ${MAX_REF_CHARS} characters` },
  geometry: { code: 'bad_geometry', what: 'geometry must be a GeoJSON Point, Polygon or MultiPolygon' },
  alert_date: { code: 'bad_alert', what: 'alert_date must be a date written YYYY-MM-DD' },
  producer_id: { code: 'bad_alert', what: 'producer_id must be a producer id of the workspace' },
  commodity: { code: 'bad_alert', what: 'commodity must be a string' },
  country: { code: 'bad_alert', what: 'country must be a string: an alpha-2 or alpha-3 code or an English or French name' },
};

/** The body of POST /eudr/alerts/adjudicate: an array of 1 to 500 alerts, each checked by alertInput. */
export const alertBatch = z.array(alertInput).min(1).max(ALERT_LIMITS.maxAlerts).describe(`1 to ${ALERT_LIMITS.maxAlerts} alerts, adjudicated as one batch.`);

export function readAlertBatch(ctx: Context): z.infer<typeof alertBatch> {
  const body = jsonValue(ctx);
  if (!Array.isArray(body)) throw invalid('bad_body', `the request body must be a JSON array of 1 to ${ALERT_LIMITS.maxAlerts} alerts`);
  if (body.length === 0) throw alertRefusal('no_alerts', 'the list of alerts is empty; send 1 to 500 alerts');
  if (body.length > ALERT_LIMITS.maxAlerts) {
    throw alertRefusal('too_many_alerts', `${body.length} alerts were sent; one call adjudicates at most ${ALERT_LIMITS.maxAlerts}, so split the batch`);
  }
  return body.map((value, i) => {
    const result = alertInput.safeParse(value);
    if (result.success) return result.data;
    const field = result.error.issues[0].path[0] as keyof typeof ALERT_FIELD_REFUSALS | undefined;
    if (field === undefined) throw alertRefusal('bad_alert', `alert ${i} must be a JSON object with ref, geometry and alert_date`);
    const refusal = ALERT_FIELD_REFUSALS[field];
    const ref = (value as { ref?: unknown }).ref;
    throw alertRefusal(refusal.code, `alert ${i}${typeof ref === 'string' ? ` (${JSON.stringify(ref)})` : ''}: ${refusal.what}`);
  });
}

/** POST /eudr/alerts/scan-and-adjudicate (spec 4.5): the scan's parameters as a JSON body. */
export const scanAndAdjudicateBody = requestBody(
  {
    plot_ids: z.array(z.string().describe('A plot id of the workspace.')).describe('1 to 50 plots to scan.'),
    start: z.string().nullable().optional().describe('YYYY-MM-DD, not before 2021-01-01 (the default).'),
    end: z.string().nullable().optional().describe('YYYY-MM-DD; default today.'),
    product: z.string().nullable().optional().describe('`integrated` (default) or `radd`.'),
    min_area_ha: z.number().nullable().optional().describe('Alerts smaller than this are neither reported nor adjudicated; default 0.'),
  },
  {
    plot_ids: {
      wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' },
      missing: { code: 'no_plots', message: 'name 1 to 50 plots to scan in plot_ids' },
    },
    start: { wrong: { code: 'bad_body', message: 'start must be a date written YYYY-MM-DD' } },
    end: { wrong: { code: 'bad_body', message: 'end must be a date written YYYY-MM-DD' } },
    product: { wrong: { code: 'bad_body', message: 'product must be integrated or radd' } },
    min_area_ha: { wrong: { code: 'bad_body', message: 'min_area_ha must be a number of hectares' } },
  },
  'The plots to scan and the scan\'s window, product and smallest alert.',
);

/** POST /eudr/alerts/monitors: what to watch (one of `all`, `plot_ids`, `shipment_id`) and for which alerts. */
export const monitorBody = requestBody(
  {
    all: z.boolean().nullable().optional().describe('true: every plot of the register with a boundary (plots made from alerts aside), as it grows.'),
    plot_ids: z.array(z.string()).nullable().optional().describe('Up to 5,000 plots of the workspace.'),
    shipment_id: z.string().nullable().optional().describe('The plots of one shipment of the workspace, as they stand at each run.'),
    product: z.string().nullable().optional().describe('`integrated` (default) or `radd`.'),
    min_area_ha: z.number().nullable().optional().describe('Alerts smaller than this open no case; default 0.'),
    since: z.string().nullable().optional().describe('Watch alerts detected from this date on (YYYY-MM-DD, not before 2021-01-01); default today.'),
    label: z.string().max(KEY_LABEL_MAX).nullable().optional(),
  },
  {
    all: { wrong: { code: 'bad_all', message: 'all must be true or false' } },
    plot_ids: { wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' } },
    shipment_id: { wrong: { code: 'bad_shipment_id', message: 'shipment_id must be a shipment id' } },
    product: { wrong: { code: 'bad_body', message: 'product must be integrated or radd' } },
    min_area_ha: { wrong: { code: 'bad_body', message: 'min_area_ha must be a number of hectares' } },
    since: { wrong: { code: 'bad_body', message: 'since must be a date written YYYY-MM-DD' } },
    label: { wrong: { code: 'bad_label', message: `label must be a string of at most ${KEY_LABEL_MAX} characters` } },
  },
  'A monitor: what it watches and which alerts open a case.',
);

/** POST /eudr/alerts/cases/{alert_id}/close. */
export const closeCaseBody = requestBody(
  {
    note: z.string().describe('What was found; kept with the case.'),
  },
  {
    note: { wrong: { code: 'bad_body', message: 'note must be a string' }, missing: { code: 'note_required', message: 'note is required: say what was found' } },
  },
  'The note a case is closed with.',
);

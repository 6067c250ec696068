import { ACTIVITY_TYPES, SHIPMENT_UNITS } from '../../store/entities/index.ts';
import { OPERATOR_IDENTIFIER_TYPES } from '../../statements/filing-options.ts';
import { EU_MEMBER_STATES } from '../../statements/shipment-fields.ts';
import { EVIDENCE_WARNING_CODES } from '../../statements/evidence-warnings.ts';
import { PROBLEM_CODES } from '../../statements/problems.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema, withIdempotencyKey } from './common.ts';
import { workspaceQuery } from './documents.ts';

const count: Schema = { type: 'integer', minimum: 0 };
const date: Schema = { type: 'string', format: 'date' };

const shipmentId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The shipment id.' };
const statementId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The statement id.' };
const shipmentNotFound = refusal('No such shipment in the workspace', ['not_found']);

const FIELD_CODES = ['reference_required', 'reference_too_long', 'bad_hs_code', 'bad_quantity', 'bad_unit', 'bad_destination', 'bad_border_cross_country', 'bad_activity', 'bad_date', 'bad_species', 'species_scientific_name_required', 'bad_text', 'bad_producer_id', 'bad_body'];
const PLOT_CODES = ['no_plots', 'too_many_plots', 'bad_plot_ids', 'bad_refs', 'bad_producer_id', 'bad_body'];

const formatParameter = {
  name: 'format',
  in: 'query',
  required: false,
  schema: { enum: ['json', 'soap', 'xml', 'geojson'], default: 'json' },
  description:
    '`json`: the check `{ready, schema_checked, problems, evidence_warnings, evidence_summary, payload}`; nothing is stored. `soap`: the submitDds request of the information system\'s EUDRDueDiligenceStatementServiceV3, with WS-Security placeholders (`{{wsse_username}}`, `{{wsse_passwordDigest}}`, `{{wsse_nonce}}`, `{{wsse_created}}`, `{{wsse_expires}}`, `{{web_service_client_id}}`) you fill from your own account. `xml`: the SubmitDdsRequest element alone. `geojson`: every plot as the EU GeoJSON file description has it. A file format answers 409 `not_ready` with the problems until the statement can be built.',
};

const fileContent = {
  'text/xml': { schema: { type: 'string', description: '`soap`: a SOAP 1.1 envelope, served as SOAP 1.1 has it (application/soap+xml is SOAP 1.2\'s).' } },
  'application/xml': { schema: { type: 'string' } },
  'application/geo+json': { schema: ref('StatementGeolocation') },
};

export const statementSchemas: Record<string, Schema> = {
  Species: {
    type: 'object',
    required: ['scientific_name', 'common_name'],
    additionalProperties: false,
    description: 'The caller\'s declaration of a wood species (spec 4.10).',
    properties: { scientific_name: { type: 'string', minLength: 1, maxLength: 100 }, common_name: nullable({ type: 'string', minLength: 1, maxLength: 100 }) },
  },
  BatchCounts: {
    type: 'object',
    required: ['plots', 'read', 'with_finding', 'withheld', 'not_read', 'failed'],
    additionalProperties: false,
    description: 'How the batch\'s plots stand: `read` are done (`with_finding` plus `withheld`, those read without a positive finding), `not_read` are not read yet, queued or reading, `failed` could not be read.',
    properties: { plots: count, read: count, with_finding: count, withheld: count, not_read: count, failed: count },
  },
  Shipment: {
    type: 'object',
    required: [
      'id', 'reference', 'commodity', 'description_of_goods', 'hs_code', 'quantity', 'unit', 'net_mass_kg', 'supplementary_unit', 'supplementary_unit_type',
      'destination_country', 'border_cross_country', 'activity_type', 'shipped_on', 'arrives_on',
      'producer_ids', 'species', 'note', 'wood', 'counts', 'created_at', 'updated_at',
    ],
    description: 'A batch of goods a due diligence statement is built from. A field the caller has not given is null, and the statement names it as waiting on the caller.',
    properties: {
      id: uuid,
      reference: { type: 'string', minLength: 1, maxLength: 50 },
      commodity: nullable({ type: 'string' }),
      description_of_goods: nullable({ type: 'string' }),
      hs_code: nullable({ type: 'string', pattern: '^[0-9]{2,8}$', description: 'Digits only.' }),
      quantity: nullable({ type: 'number' }),
      unit: nullable({ enum: [...SHIPMENT_UNITS] }),
      net_mass_kg: nullable({ type: 'number', description: 'V3\'s `netWeight`, as given; the statement takes a `quantity` in kg or t when this is null.' }),
      supplementary_unit: nullable({ type: 'number', description: 'V3\'s `supplementaryUnit`, in `supplementary_unit_type`; the statement takes a `quantity` in m3 (MTQ) when this is null.' }),
      supplementary_unit_type: nullable({ type: 'string', pattern: '^[A-Z0-9]{3,4}$', description: 'V3\'s `supplementaryUnitQualifier` (MTQ, NAR, KSD…). An Appendix I heading\'s own type is named among the statement\'s problems when the batch lacks it.' }),
      destination_country: nullable({ enum: [...EU_MEMBER_STATES] }),
      border_cross_country: nullable({ enum: [...EU_MEMBER_STATES], description: 'V3\'s `borderCrossCountry`: the member state of entry (IMPORT) or exit (EXPORT) at the customs border; sent on IMPORT and EXPORT statements only.' }),
      activity_type: { enum: [...ACTIVITY_TYPES] },
      shipped_on: nullable(date),
      arrives_on: nullable(date),
      producer_ids: { type: 'array', items: uuid },
      species: nullable({ type: 'array', items: ref('Species') }),
      note: nullable({ type: 'string' }),
      wood: { type: 'boolean', description: 'Wood by commodity (`wood`, `timber`) or, with no commodity, by HS heading (44, 47, 48, 49, 9401, 9403, 9406): the statement carries species.' },
      counts: ref('BatchCounts'),
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  ShipmentList: {
    type: 'object',
    required: ['shipments', 'archive_review_price'],
    additionalProperties: false,
    properties: { shipments: { type: 'array', items: ref('Shipment') }, archive_review_price: ref('ArchiveReviewPrice') },
  },
  BatchProducer: {
    type: 'object',
    required: ['id', 'name', 'reference', 'country', 'plots'],
    additionalProperties: false,
    properties: { id: uuid, name: { type: 'string' }, reference: nullable({ type: 'string' }), country: nullable({ type: 'string' }), plots: { ...count, description: 'The batch\'s plots attached to the producer.' } },
  },
  ShipmentDetail: {
    allOf: [
      ref('Shipment'),
      {
        type: 'object',
        required: ['plots', 'producers', 'archive_review_price'],
        properties: {
          plots: { type: 'array', items: ref('PlotRow'), description: 'The batch\'s plots as register rows, each with its `state`.' },
          producers: { type: 'array', items: ref('BatchProducer'), description: 'The producers of its plots and those the batch names.' },
          archive_review_price: ref('ArchiveReviewPrice'),
          plots_added: nullable(ref('AddPlotsAnswer')),
        },
      },
    ],
  },
  AddPlotsAnswer: {
    type: 'object',
    required: ['added', 'already_in', 'not_found', 'n_not_found', 'n_plots'],
    additionalProperties: false,
    properties: {
      added: { ...count, description: 'Plots put on the batch by this call.' },
      already_in: { ...count, description: 'Plots named that were on the batch already.' },
      not_found: { type: 'array', items: { type: 'string' }, description: 'The ids and references that name no plot of the workspace; nothing is guessed.' },
      n_not_found: count,
      n_plots: { ...count, description: 'Plots on the batch now.' },
    },
  },
  RemovePlotsAnswer: {
    type: 'object',
    required: ['removed', 'n_plots'],
    additionalProperties: false,
    properties: { removed: count, n_plots: count },
  },
  StatementProblem: {
    type: 'object',
    required: ['code', 'eudr_code', 'field', 'message'],
    additionalProperties: false,
    description: 'What the information system would refuse, in its terms. `eudr_code` is the system\'s own error code where its documents give one.',
    properties: {
      code: { enum: [...PROBLEM_CODES] },
      eudr_code: nullable({ type: 'string' }),
      field: { type: 'string', description: 'The V3 element concerned, as a path under SubmitDdsRequest.' },
      message: { type: 'string' },
      plot_ids: { type: 'array', items: uuid },
    },
  },
  StatementPayload: {
    type: 'object',
    required: ['operatorRole', 'statement'],
    additionalProperties: false,
    description: 'The V3 SubmitDdsRequest (xsd4-due-diligence-statement-v3.xsd) in its element order, element names as V3 has them. A value not given is null or left out, and named among the problems.',
    properties: {
      operatorRole: { enum: ['OPERATOR', 'REPRESENTATIVE_OPERATOR'], description: '`REPRESENTATIVE_OPERATOR` when the stored statement names a `represented_operator`.' },
      statement: ref('DdsStatement'),
    },
  },
  DdsStatement: {
    type: 'object',
    required: ['internalReferenceNumber', 'activityType', 'countryOfActivity', 'commodities', 'geoLocationConfidential'],
    additionalProperties: false,
    description: 'V3 DueDiligenceStatementBaseType.',
    properties: {
      internalReferenceNumber: { type: 'string' },
      activityType: { enum: [...ACTIVITY_TYPES], description: 'TRADE is no V3 activity: it is named among the problems.' },
      representedOperator: { ...ref('DdsOperator'), description: 'Present when filed by an authorised representative: the operator it acts for.' },
      countryOfActivity: nullable({ type: 'string', description: 'The batch\'s `destination_country`.' }),
      borderCrossCountry: { type: 'string', description: 'IMPORT and EXPORT, when the batch gives it.' },
      commodities: { type: 'array', items: ref('DdsCommodity'), minItems: 1, maxItems: 1, description: 'One commodity: the batch.' },
      geoLocationConfidential: { type: 'boolean', description: 'The stored statement\'s `geolocation_confidential`; false for a shipment\'s own statement.' },
    },
  },
  DdsOperator: {
    type: 'object',
    required: ['operatorName'],
    additionalProperties: false,
    description: 'V3 EconomicOperatorIdentificationType, from `represented_operator`.',
    properties: {
      operatorReferenceNumber: {
        type: 'array',
        items: {
          type: 'object',
          required: ['identifierType', 'identifierValue'],
          additionalProperties: false,
          properties: { identifierType: { enum: [...OPERATOR_IDENTIFIER_TYPES] }, identifierValue: { type: 'string' } },
        },
      },
      operatorAddress: {
        type: 'object',
        required: ['country', 'street', 'postalCode', 'city'],
        additionalProperties: false,
        properties: { country: { type: 'string', pattern: '^[A-Z]{2}$' }, street: { type: 'string' }, postalCode: { type: 'string' }, city: { type: 'string' }, fullAddress: { type: 'string' } },
      },
      operatorEmail: { type: 'string' },
      operatorPhone: { type: 'string' },
      operatorName: { type: 'string' },
    },
  },
  DdsCommodity: {
    type: 'object',
    required: ['position', 'descriptors', 'hsHeading', 'producers'],
    additionalProperties: false,
    description: 'V3 DdsCommodityType: the batch\'s goods and their producers.',
    properties: {
      position: { type: 'integer', minimum: 1 },
      descriptors: {
        type: 'object',
        required: ['descriptionOfGoods', 'goodsMeasure'],
        additionalProperties: false,
        properties: {
          descriptionOfGoods: nullable({ type: 'string' }),
          goodsMeasure: {
            type: 'object',
            additionalProperties: false,
            description: 'Net mass in kg (IMPORT and EXPORT), and a supplementary unit where the heading asks for one; each left out when not given.',
            properties: { netWeight: { type: 'number' }, supplementaryUnit: { type: 'number' }, supplementaryUnitQualifier: { type: 'string' } },
          },
        },
      },
      hsHeading: nullable({ type: 'string', pattern: '^[0-9]{2,8}$' }),
      speciesInfo: {
        type: 'array',
        description: 'Wood only.',
        items: { type: 'object', required: ['scientificName'], additionalProperties: false, properties: { scientificName: { type: 'string' }, commonName: { type: 'string' } } },
      },
      producers: { type: 'array', items: ref('DdsProducer') },
    },
  },
  DdsProducer: {
    type: 'object',
    required: ['position', 'country', 'geometryGeojson'],
    additionalProperties: false,
    description: 'V3 DdsProducerType: one per producer name and country, carrying its plots.',
    properties: {
      position: { type: 'integer', minimum: 1 },
      country: nullable({ type: 'string', description: 'ISO 3166-1 alpha-2: the producer\'s country, else its plots\'.' }),
      name: { type: 'string' },
      geometryGeojson: { type: 'string', contentEncoding: 'base64', description: 'Base64 of the producer\'s plots as one FeatureCollection (as in `StatementGeolocation`).' },
    },
  },
  EvidenceWarning: {
    type: 'object',
    required: ['code', 'plot_id', 'external_ref', 'message'],
    additionalProperties: false,
    description: 'What a plot\'s evidence says that the formal check does not look at. It blocks no file and changes no verdict.',
    properties: {
      code: {
        enum: [...EVIDENCE_WARNING_CODES],
        description: '`post_cutoff_loss`: the Landsat record dates a loss of moist forest after the cutoff on the plot; `open_alert_case`: alert cases are open on it; `no_positive_finding`: read without a positive finding; `not_read`: no evidence (not run, in progress or failed); `synthetic_evidence`: read from the synthetic demo archive.',
      },
      plot_id: uuid,
      external_ref: nullable({ type: 'string' }),
      message: { type: 'string' },
    },
  },
  StatementCheck: {
    type: 'object',
    required: ['ready', 'schema_checked', 'problems', 'evidence_warnings', 'evidence_summary', 'payload'],
    additionalProperties: false,
    properties: {
      ready: { type: 'boolean', description: 'True when the statement passed the V3 schemas and has no problem: its files can be exported. It looks at the information system\'s formalities only; read `evidence_warnings` beside it.' },
      schema_checked: { type: 'boolean', description: 'True only when the XML was validated against the V3 schemas and passed.' },
      problems: { type: 'array', items: ref('StatementProblem') },
      evidence_warnings: {
        type: 'array',
        items: ref('EvidenceWarning'),
        description: 'An addition to spec 2.13: per plot of the batch in its order, each warning its evidence gives (post-cutoff loss, an open alert case, no positive finding, not read, synthetic evidence). Empty when none.',
      },
      evidence_summary: nullable({
        type: 'string',
        description: 'The warnings counted by plots in one line, said instead of a plain "ready": "Formally complete; 2 of 3 plots show forest loss after the cutoff; …" (or "Not ready; …"). Null when there is no warning.',
      }),
      payload: ref('StatementPayload'),
    },
  },
  Statement: {
    type: 'object',
    required: ['id', 'shipment_id', 'internal_reference', 'species', 'represented_operator', 'geolocation_confidential', 'created_at', 'updated_at'],
    description: 'A stored statement: an internal reference linked to the batch it is built from. Its files are built from the batch as it stands when asked for; a deleted shipment leaves `shipment_id` null, and the statement is served from then on, check and files, from the batch as it stood at the deletion (spec 4.9: statements stay), under its own reference and species.',
    properties: {
      id: uuid,
      shipment_id: nullable(uuid),
      internal_reference: { type: 'string', minLength: 1, maxLength: 50 },
      species: nullable({ type: 'array', items: ref('Species'), description: 'The statement\'s own species; null: the shipment\'s.' }),
      represented_operator: nullable({ ...ref('RepresentedOperator'), description: 'Set: filed as an authorised representative of this operator (`operatorRole` REPRESENTATIVE_OPERATOR, `representedOperator`); null: the operator files itself.' }),
      geolocation_confidential: { type: 'boolean', description: 'V3 `geoLocationConfidential`.' },
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  StatementDetail: {
    allOf: [ref('Statement'), { type: 'object', required: ['check'], properties: { check: ref('StatementCheck') } }],
  },
  StatementList: {
    type: 'object',
    required: ['statements'],
    additionalProperties: false,
    properties: { statements: { type: 'array', items: ref('Statement') } },
  },
};

const jsonBody = (schema: string) => ({ required: true, content: { 'application/json': { schema: ref(schema) } } });

/** Storing a statement, by either route: the body, the answer and the refusals. */
const storeStatementOperation = {
  requestBody: jsonBody('StatementRequest'),
  responses: {
    '201': json(ref('Statement')),
    ...authRefusals,
    '404': shipmentNotFound,
    '409': refusal('A statement with that internal reference exists', ['duplicate_reference']),
    '422': refusal('A field is refused', ['bad_shipment_id', 'reference_required', 'reference_too_long', 'bad_species', 'species_scientific_name_required', 'bad_represented_operator', 'bad_geolocation_confidential', 'bad_body']),
  },
};

export const statementPaths = {
  '/portal/statements/shipments': {
    get: {
      operationId: 'listShipments',
      summary: 'The workspace\'s shipments in creation order, with counts per batch',
      responses: { '200': json(ref('ShipmentList')), ...authRefusals },
    },
    post: withIdempotencyKey({
      operationId: 'createShipment',
      summary: 'Create a shipment, with plots in the shapes the add route takes',
      requestBody: jsonBody('ShipmentRequest'),
      responses: {
        '201': json(ref('ShipmentDetail'), 'The shipment; `plots_added` answers the plots named, as the add route does'),
        ...authRefusals,
        '404': refusal('A producer named is not in the workspace', ['not_found']),
        '409': refusal('A shipment with that reference exists', ['duplicate_reference']),
        '422': refusal('A field a statement would refuse, refused first', [...new Set([...FIELD_CODES, ...PLOT_CODES])]),
      },
    }),
  },
  '/portal/statements/shipments/{id}': {
    get: {
      operationId: 'getShipment',
      summary: 'The batch, its plots as register rows and its producers',
      parameters: [shipmentId],
      responses: { '200': json(ref('ShipmentDetail')), ...authRefusals, '404': shipmentNotFound },
    },
    patch: {
      operationId: 'changeShipment',
      summary: 'Change any field of the shipment',
      parameters: [shipmentId],
      requestBody: jsonBody('ShipmentChangeRequest'),
      responses: {
        '200': json(ref('ShipmentDetail')),
        ...authRefusals,
        '404': refusal('No such shipment, or a producer named is not in the workspace', ['not_found']),
        '409': refusal('A shipment with that reference exists', ['duplicate_reference']),
        '422': refusal('A field a statement would refuse, refused first', FIELD_CODES),
      },
    },
    delete: {
      operationId: 'deleteShipment',
      summary: 'Remove the batch; its plots and statements stay',
      parameters: [shipmentId],
      responses: { '204': { description: 'Removed' }, ...authRefusals, '404': shipmentNotFound },
    },
  },
  '/portal/statements/shipments/{id}/plots': {
    post: {
      operationId: 'addShipmentPlots',
      summary: 'Put plots on the batch by id, by your reference and by producer, together if wished',
      description: 'At most 5,000 plots a call. Ids and references that name no plot are listed in `not_found`; nothing is guessed. A plot may be on several shipments. A plot that cannot be filed (rejected, no geometry) stays on the batch and the statement names it among its problems.',
      parameters: [shipmentId],
      requestBody: jsonBody('AddPlotsRequest'),
      responses: {
        '200': json(ref('AddPlotsAnswer')),
        ...authRefusals,
        '404': refusal('No such shipment, or the producer is not in the workspace', ['not_found']),
        '422': refusal('Nothing named, or more than 5,000 plots', PLOT_CODES),
      },
    },
  },
  '/portal/statements/shipments/{id}/plots/remove': {
    post: {
      operationId: 'removeShipmentPlots',
      summary: 'Take plots off the batch; they stay in the register',
      parameters: [shipmentId],
      requestBody: jsonBody('RemovePlotsRequest'),
      responses: {
        '200': json(ref('RemovePlotsAnswer')),
        ...authRefusals,
        '404': shipmentNotFound,
        '422': refusal('No plots named, or more than 5,000', ['no_plots', 'too_many_plots', 'bad_plot_ids', 'bad_body']),
      },
    },
  },
  '/portal/statements/shipments/{id}/plots/{plot_id}': {
    delete: {
      operationId: 'removeShipmentPlot',
      summary: 'Take one plot off the batch',
      parameters: [shipmentId, { name: 'plot_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': json(ref('RemovePlotsAnswer')), ...authRefusals, '404': refusal('No such shipment, or the plot is not on it', ['not_found']) },
    },
  },
  '/portal/statements/shipments/{id}/report.pdf': {
    get: {
      operationId: 'getShipmentReportPdf',
      summary: 'The shipment report (PDF)',
      description:
        'Every plot with its state, its finding or what withheld it, and its next step; the counts and shares of the batch with a finding, withheld (and why), not yet read and failed; open alert cases; sources; limitations; and a last page laying out the statement\'s fields in the order the information system asks for them, filled from the batch and the register, naming what is still missing. Rendered off the API\'s event loop a part at a time and sent as it is written (chunked, no Content-Length): the first bytes come before the last page is made, and a refusal (404, 503) comes before any. Pages are numbered without a total, which is known only at the end.',
      parameters: [shipmentId, workspaceQuery],
      responses: {
        '200': { description: 'The document', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } },
        ...authRefusals,
        '404': shipmentNotFound,
        '503': refusal('The documents threads are full; ask again shortly (Retry-After)', ['busy']),
      },
    },
  },
  '/portal/statements/shipments/{id}/statement': {
    get: {
      operationId: 'getShipmentStatement',
      summary: 'The shipment\'s due diligence statement for the information system\'s V3 API, under the shipment\'s reference',
      parameters: [shipmentId, formatParameter, workspaceQuery],
      responses: {
        '200': { description: 'The check, or the file', content: { 'application/json': { schema: ref('StatementCheck') }, ...fileContent } },
        ...authRefusals,
        '404': shipmentNotFound,
        '409': refusal('A file format asked for while the statement cannot be built; the message lists the problems', ['not_ready']),
        '422': refusal('An unknown format', ['bad_format']),
        '503': refusal('The documents threads are full; ask again shortly (Retry-After)', ['busy']),
      },
    },
  },
  '/portal/statements/from-shipment': {
    post: withIdempotencyKey({
      operationId: 'createStatementFromShipment',
      summary: 'Store a statement linked to a shipment; the internal reference defaults to the shipment\'s',
      ...storeStatementOperation,
    }),
  },
  '/portal/statements': {
    get: {
      operationId: 'listStatements',
      summary: 'The workspace\'s stored statements in creation order',
      responses: { '200': json(ref('StatementList')), ...authRefusals },
    },
    post: withIdempotencyKey({
      operationId: 'createStatement',
      summary: 'Store a statement linked to a shipment (as from-shipment)',
      ...storeStatementOperation,
    }),
  },
  '/portal/statements/{id}': {
    get: {
      operationId: 'getStatement',
      summary: 'A stored statement with its check, or one of its files, built from its batch as it stands',
      parameters: [statementId, formatParameter, workspaceQuery],
      responses: {
        '200': { description: 'The statement with its check, or the file', content: { 'application/json': { schema: ref('StatementDetail') }, ...fileContent } },
        ...authRefusals,
        '404': refusal('No such statement, or its shipment is gone', ['not_found']),
        '409': refusal('A file format asked for while the statement cannot be built (or its shipment was deleted before statements kept the batch\'s facts); the message lists the problems', ['not_ready']),
        '422': refusal('An unknown format', ['bad_format']),
        '503': refusal('The documents threads are full; ask again shortly (Retry-After)', ['busy']),
      },
    },
    patch: {
      operationId: 'changeStatement',
      summary: 'Change a stored statement\'s internal reference, species or filing options',
      parameters: [statementId],
      requestBody: jsonBody('StatementChangeRequest'),
      responses: {
        '200': json(ref('Statement')),
        ...authRefusals,
        '404': refusal('No such statement in the workspace', ['not_found']),
        '409': refusal('A statement with that internal reference exists', ['duplicate_reference']),
        '422': refusal('A field is refused', ['reference_required', 'reference_too_long', 'bad_species', 'species_scientific_name_required', 'bad_represented_operator', 'bad_geolocation_confidential', 'bad_body']),
      },
    },
  },
};

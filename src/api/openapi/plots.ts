import { FINDING_RULES } from '../../intake/findings.ts';
import { COUNT_WINDOW } from '../../store/register/plots.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema, withIdempotencyKey } from './common.ts';

const integer: Schema = { type: 'integer', minimum: 0 };
const alpha2: Schema = { type: 'string', pattern: '^[A-Z]{2}$' };

const findingList: Schema = { type: 'array', items: ref('Finding') };

export const plotSchemas: Record<string, Schema> = {
  Finding: {
    type: 'object',
    required: ['code', 'message'],
    additionalProperties: false,
    properties: { code: { enum: Object.keys(FINDING_RULES), description: 'Stable finding code; branch on it.' }, message: { type: 'string' } },
  },
  PlotState: {
    type: 'object',
    required: ['tone', 'label', 'summary'],
    additionalProperties: false,
    description: 'What the record shows on the plot. Branch on `tone`; `label` and `summary` are display text. It issues and withholds nothing.',
    properties: {
      tone: { enum: ['finding', 'record', 'forest_mapped'] },
      label: {
        enum: [
          'Established before the cutoff',
          'Cultivated on the archive scene date',
          'Record only, under the evidence floor',
          'Forest on the 2020 maps',
          'Forest in the Landsat record',
          'Record only',
          'Not read yet',
          'Queued',
          'Reading',
          'Could not be read',
        ],
      },
      summary: { type: 'string' },
    },
  },
  ArchiveReviewPrice: {
    type: 'object',
    required: ['priced', 'price_usd', 'volume_price_usd', 'volume_from_plots', 'delivery_days', 'line'],
    additionalProperties: false,
    description: 'The archive imagery review of a withheld plot. Until the deployment sets a price, `priced` is false and `line` says the review is quoted on request.',
    properties: {
      priced: { type: 'boolean' },
      price_usd: nullable({ type: 'number' }),
      volume_price_usd: nullable({ type: 'number' }),
      volume_from_plots: nullable({ type: 'integer' }),
      delivery_days: nullable({ type: 'integer' }),
      line: { type: 'string' },
    },
  },
  PlotRow: {
    type: 'object',
    required: [
      'id', 'external_ref', 'commodity', 'country', 'area_ha', 'declared_area_ha', 'geometry_source', 'validation_state', 'planted_year',
      'producer_id', 'producer_name', 'evidence_state', 'verdict', 'reason', 'evidence_at', 'state', 'post_cutoff_loss_share', 'created_at', 'updated_at',
    ],
    properties: {
      id: uuid,
      external_ref: nullable({ type: 'string', description: 'The caller\'s reference (`ref` at upload); a re-upload matches on it.' }),
      commodity: nullable({ type: 'string' }),
      country: nullable({ ...alpha2, description: 'ISO 3166-1 alpha-2.' }),
      area_ha: nullable({ type: 'number', description: 'Measured (ellipsoidal) on a boundary; a point stands for its declared area, or 4 ha when none is declared.' }),
      declared_area_ha: nullable({ type: 'number' }),
      geometry_source: { type: 'string', description: '`alert` for plots made from alerts.' },
      validation_state: { enum: ['valid', 'repaired', 'rejected', 'pending'] },
      planted_year: nullable({ type: 'integer', minimum: 1900 }),
      producer_id: nullable(uuid),
      producer_name: nullable({ type: 'string' }),
      evidence_state: { enum: ['none', 'queued', 'running', 'done', 'failed'] },
      verdict: nullable({ type: 'string' }),
      reason: nullable({ type: 'string' }),
      evidence_at: nullable(timestamp),
      state: ref('PlotState'),
      post_cutoff_loss_share: nullable({
        type: 'number',
        description: 'Share of the plot (0..1) on which the Landsat moist-forest record dates a loss of forest to 2021 or later (spec 2.8.4 rule 4: at least 5% of the plot and three 30 m pixels); null when none is dated or the plot is not read. It changes no verdict; the portal, the evidence PDF, the book summary, the shipment report and `evidence_warnings` show it.',
      }),
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  ListedPlotRow: {
    allOf: [
      ref('PlotRow'),
      {
        type: 'object',
        required: ['open_alert_cases'],
        properties: { open_alert_cases: { ...integer, description: 'Open cases of the alert queue on this plot, whichever monitor opened them.' } },
      },
    ],
  },
  PlotDetail: {
    allOf: [
      ref('ListedPlotRow'),
      {
        type: 'object',
        required: ['geometry', 'validation_report', 'archive_review'],
        properties: {
          archive_review: nullable({ ...ref('ArchiveReview'), description: 'The archive reading served with the plot\'s live evidence, as the evidence route carries it; null when none is.' }),
          geometry: nullable({ ...ref('GeoJsonGeometry'), description: 'WGS84 GeoJSON Point, Polygon or MultiPolygon as stored (after repair); null when no boundary could be read.' }),
          validation_report: {
            type: 'object',
            required: ['findings', 'repairs', 'rejections'],
            properties: {
              findings: findingList,
              repairs: findingList,
              rejections: findingList,
              repeat_of: { type: 'string', description: 'On a plot stored as a repeat of a ref an earlier plot of its file held: that ref (the plot itself has none).' },
            },
          },
        },
      },
    ],
  },
  PlotPage: {
    type: 'object',
    required: ['total', 'total_exact', 'limit', 'offset', 'plots', 'archive_review_price'],
    additionalProperties: false,
    properties: {
      total: {
        ...integer,
        description: `Plots matching the filters. Without a filter it is the register's size, kept as plots are added and removed, and always exact. With \`q\`, an evidence \`state\`, \`shipment_id\` or \`post_cutoff_loss\` the matches are counted up to ${COUNT_WINDOW.toLocaleString('en')} past \`offset\`: when more match, \`total\` is \`offset\` + ${COUNT_WINDOW.toLocaleString('en')} and \`total_exact\` false. A tone \`state\` is counted exactly.`,
      },
      total_exact: { type: 'boolean', description: 'false: more plots than `total` match (a filtered list stopped counting); page on while a page comes back full.' },
      limit: { type: 'integer', minimum: 1, maximum: 500 },
      offset: integer,
      plots: { type: 'array', items: ref('ListedPlotRow') },
      archive_review_price: ref('ArchiveReviewPrice'),
    },
  },
  PlotReportEntry: {
    type: 'object',
    required: ['index', 'ref', 'validation_state', 'area_ha', 'country', 'producer_id', 'findings', 'repairs', 'rejections'],
    additionalProperties: false,
    properties: {
      index: { ...integer, description: '0-based position of the feature, shapefile record, KML Placemark or CSV data row in the file.' },
      ref: nullable({ type: 'string' }),
      validation_state: { enum: ['valid', 'repaired', 'rejected'] },
      area_ha: nullable({ type: 'number' }),
      country: nullable(alpha2),
      producer_id: nullable(uuid),
      findings: { ...findingList, description: 'What a filing accepts but the caller should know.' },
      repairs: { ...findingList, description: 'What a filing would refuse and was repaired; the repaired boundary is stored.' },
      rejections: { ...findingList, description: 'Why the plot cannot be filed; it is stored with validation_state `rejected`.' },
      plot_id: nullable({ ...uuid, description: 'Import only: the register\'s plot. A repeated ref\'s plot is stored too, rejected and without the ref (its `validation_report.repeat_of` names it).' }),
      outcome: { enum: ['created', 'updated', 'unchanged', 'duplicate_ref'], description: 'Import only.' },
      evidence: {
        enum: ['stale', 'in_flight'],
        description: 'Import only, on a stored plot whose boundary moved by more than about 1 cm: `stale` when its finished evidence was withdrawn (state `none`), `in_flight` when a read is queued or running (run it again with `rerun: true` once it finishes).',
      },
    },
  },
  RowError: {
    type: 'object',
    required: ['index', 'code', 'message'],
    additionalProperties: false,
    properties: { index: integer, line: { type: 'integer' }, code: { enum: ['ragged_row', 'not_a_feature'] }, message: { type: 'string' } },
  },
  ValidationReport: {
    type: 'object',
    required: ['notes', 'notes_omitted', 'row_errors', 'row_errors_omitted', 'plots'],
    additionalProperties: false,
    properties: {
      country: { ...alpha2, description: 'The query\'s `country`, as alpha-2; absent when the query named none (each plot\'s own `country` then says what it carries). Never null.' },
      notes: { type: 'array', items: { type: 'string' }, description: 'What to know about the file as a whole: the first 100.' },
      notes_omitted: { ...integer, description: 'Notes beyond the 100 listed in `notes`, counted only.' },
      row_errors: { type: 'array', items: ref('RowError'), description: 'Records that could not become a plot: the first 100 in file order.' },
      row_errors_omitted: { ...integer, description: 'Row errors beyond the 100 listed in `row_errors`, counted only.' },
      plots: { type: 'array', items: ref('PlotReportEntry') },
    },
  },
  ImportReport: {
    type: 'object',
    required: ['imported', 'notes', 'notes_omitted', 'row_errors', 'row_errors_omitted', 'plots'],
    additionalProperties: false,
    properties: {
      imported: {
        type: 'object',
        additionalProperties: false,
        required: [
          'created', 'updated', 'skipped', 'duplicate_refs', 'unreferenced_inserted', 'registered',
          'producers_matched', 'producers_unmatched', 'evidence_stale', 'evidence_in_flight',
        ],
        properties: {
          created: { ...integer, description: 'New plots, with or without a ref.' },
          updated: { ...integer, description: 'Stored plots (matched on ref) the file changed.' },
          skipped: { ...integer, description: 'Stored plots the file repeats unchanged.' },
          duplicate_refs: { ...integer, description: 'Plots whose ref an earlier plot of the file holds: each is stored rejected (`duplicate_ref`) without the ref, its `validation_report.repeat_of` naming it; a re-upload updates those stored repeats of the ref in file order rather than adding more.' },
          unreferenced_inserted: { ...integer, description: 'New plots without a ref (counted in `created` too); a later upload cannot match them.' },
          registered: { ...integer, description: 'Plots of the file now in the register: created + updated + skipped + duplicate_refs.' },
          producers_matched: { ...integer, description: 'Plots whose producer name matched exactly one producer of the workspace.' },
          producers_unmatched: { ...integer, description: 'Plots naming a producer that matched none or several.' },
          evidence_stale: { ...integer, description: 'Plots whose finished evidence was withdrawn because the boundary moved.' },
          evidence_in_flight: { ...integer, description: 'Plots whose boundary moved while a read was queued or running.' },
        },
      },
      country: { ...alpha2, description: 'The query\'s `country`, as alpha-2; absent when the query named none (each plot\'s own `country` then says what it carries). Never null.' },
      notes: { type: 'array', items: { type: 'string' }, description: 'What to know about the file as a whole: the first 100.' },
      notes_omitted: { ...integer, description: 'Notes beyond the 100 listed in `notes`, counted only.' },
      row_errors: { type: 'array', items: ref('RowError'), description: 'Records that could not become a plot: the first 100 in file order.' },
      row_errors_omitted: { ...integer, description: 'Row errors beyond the 100 listed in `row_errors`, counted only.' },
      plots: { type: 'array', items: ref('PlotReportEntry') },
    },
  },
  CountryList: {
    type: 'object',
    required: ['countries', 'accepted_forms'],
    additionalProperties: false,
    properties: {
      countries: {
        type: 'array',
        description: 'Countries whose boundary the service holds, so membership and the axis-order check can be decided.',
        items: {
          type: 'object',
          required: ['code', 'alpha3', 'name_en', 'name_fr'],
          additionalProperties: false,
          properties: { code: alpha2, alpha3: { type: 'string', pattern: '^[A-Z]{3}$' }, name_en: { type: 'string' }, name_fr: { type: 'string' } },
        },
      },
      accepted_forms: { type: 'string' },
    },
  },
  Producer: {
    type: 'object',
    required: ['id', 'name', 'reference', 'country', 'created_at', 'plots'],
    additionalProperties: false,
    properties: {
      id: uuid,
      name: { type: 'string' },
      reference: nullable({ type: 'string' }),
      country: nullable({ ...alpha2, description: 'Decides the calibration campaign and the country classification of its plots\' evidence.' }),
      created_at: timestamp,
      plots: { ...integer, description: 'Plots attached to the producer.' },
    },
  },
};

const uploadBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            // OpenAPI 3.1 says a file part with contentMediaType; generators written for 3.0 read format: binary.
            format: 'binary',
            contentMediaType: 'application/octet-stream',
            description: 'GeoJSON (Polygon, MultiPolygon or Point features), a zipped shapefile (.shp, .shx, .dbf, .prj), KML (.kml) or KMZ (.kmz: a zip holding doc.kml) with Polygon, MultiGeometry or Point Placemarks, or a CSV of points with lon and lat columns. At most 25 MB and 100,000 plots.',
          },
        },
      },
    },
  },
};

const countryParameter = {
  name: 'country',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description:
    'Alpha-2 or alpha-3 code or English or French name (as ISO, the Regulation or common use writes it), case, accents and punctuation ignored; stored as alpha-2 on every plot the file does not give its own `country`. Drives the axis-order check. A file naming no country leaves a stored country untouched.',
};

const uploadRefusals = {
  ...authRefusals,
  '413': refusal('The file is over 25 MB (refused while it streams in)', ['file_too_large']),
  '422': refusal('The file cannot be taken as a whole, or judging it took longer than FILE_TIME_BUDGET_MS (judging_over_budget: it was stopped); nothing is stored', [
    'empty_file', 'file_required', 'unknown_country', 'unsupported_format', 'bad_encoding', 'bad_json', 'bad_geojson',
    'bad_zip', 'zip_too_large', 'bad_shapefile', 'unsupported_crs', 'bad_csv', 'bad_kml', 'too_many_plots', 'too_many_vertices',
    'geometry_too_complex', 'judging_over_budget', 'nesting_too_deep', 'table_too_large', 'too_many_row_errors',
  ]),
  '408': refusal('The body did not arrive within UPLOAD_TIMEOUT_S; the connection is closed', ['upload_timeout']),
  '429': refusal('The workspace already has UPLOADS_PER_WORKSPACE uploads being read or judged', ['too_many_uploads']),
  '503': refusal('The intake threads are busy and INTAKE_QUEUE uploads already wait for a turn; Retry-After says when to send again', ['intake_busy']),
};

const plotId = { name: 'id', in: 'path', required: true, schema: uuid };
const plotNotFound = refusal('No such plot in the workspace', ['not_found']);

/** Static routes come before `/portal/plots/{id}` so a path is matched to its own template first. */
export const plotPaths = {
  '/portal/plots/validate': {
    post: {
      operationId: 'validatePlotFile',
      summary: 'Validate a plot file: the report an import would give; nothing is stored',
      parameters: [countryParameter],
      requestBody: uploadBody,
      responses: { '200': json(ref('ValidationReport')), ...uploadRefusals },
    },
  },
  '/portal/plots/import': {
    post: withIdempotencyKey({
      operationId: 'importPlotFile',
      summary: 'Import a plot file into the register, in one transaction: all of it or nothing',
      description:
        'Every plot is stored, rejected ones with their findings. A `ref` already in the register updates that plot; a boundary moved by more than about 1 cm withdraws finished evidence (`evidence: stale`) or is marked `evidence: in_flight` while a read is queued or running; an unchanged boundary changes nothing. Producer names are matched ignoring case and spacing; an import never creates producers, and a name that matches none leaves an attached producer in place.',
      parameters: [countryParameter],
      requestBody: uploadBody,
      responses: { '200': json(ref('ImportReport')), ...uploadRefusals },
    }),
  },
  '/portal/plots/countries': {
    get: { operationId: 'listCountries', summary: 'The recognised countries and the accepted forms of `country`', responses: { '200': json(ref('CountryList')), ...authRefusals } },
  },
  '/portal/plots/producers': {
    get: {
      operationId: 'listProducers',
      summary: 'The workspace\'s producers, in name order',
      responses: { '200': json({ type: 'object', required: ['producers'], additionalProperties: false, properties: { producers: { type: 'array', items: ref('Producer') } } }), ...authRefusals },
    },
    post: {
      operationId: 'createProducer',
      summary: 'Create a producer',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('ProducerRequest'),
          },
        },
      },
      responses: {
        '201': json(ref('Producer'), 'The producer'),
        ...authRefusals,
        '409': refusal('The reference is already held by a producer of the workspace', ['duplicate_ref']),
        '422': refusal('A field is missing or not recognised', ['name_required', 'unknown_country', 'bad_body']),
      },
    },
  },
  '/portal/plots': {
    get: {
      operationId: 'listPlots',
      summary: 'The plot register, a page at a time, in upload order',
      parameters: [
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
        { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
        {
          name: 'state',
          in: 'query',
          required: false,
          schema: { enum: ['none', 'queued', 'running', 'done', 'failed', 'finding', 'record', 'forest_mapped'] },
          description: 'An evidence state, or a tone of the plot\'s `state`.',
        },
        { name: 'q', in: 'query', required: false, schema: { type: 'string' }, description: 'A fragment of the reference, case ignored.' },
        {
          name: 'shipment_id',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'Narrows the list to one shipment\'s plots; a shipment not in the workspace answers 404 `not_found`.',
        },
        {
          name: 'post_cutoff_loss',
          in: 'query',
          required: false,
          schema: { enum: ['true', 'false'] },
          description: '`true`: only plots whose Landsat record dates a loss of moist forest after the cutoff (`post_cutoff_loss_share` not null); `false`: the others. Counted as `q` is.',
        },
      ],
      responses: {
        '200': json(ref('PlotPage')),
        ...authRefusals,
        '404': refusal('No such shipment in the workspace', ['not_found']),
        '422': refusal('A query parameter is out of range', ['bad_limit', 'bad_offset', 'bad_state', 'bad_q', 'bad_shipment_id', 'bad_post_cutoff_loss']),
      },
    },
  },
  '/portal/plots/{id}': {
    get: {
      operationId: 'getPlot',
      summary: 'One plot with its boundary and its validation report',
      parameters: [plotId],
      responses: { '200': json(ref('PlotDetail')), ...authRefusals, '404': plotNotFound },
    },
  },
  '/portal/plots/{id}/producer': {
    post: {
      operationId: 'attachProducer',
      summary: 'Attach a producer of the workspace to the plot (`producer_id: null` detaches)',
      parameters: [plotId],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('AttachProducerRequest'),
          },
        },
      },
      responses: {
        '200': json(ref('PlotRow'), 'The plot as the register now holds it'),
        ...authRefusals,
        '404': refusal('No such plot, or no such producer, in the workspace', ['not_found']),
        '422': refusal('producer_id missing or not an id', ['producer_id_required', 'bad_producer_id', 'bad_body']),
      },
    },
  },
};

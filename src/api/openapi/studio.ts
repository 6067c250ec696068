import { z } from 'zod';
import { SEASON_CSV_COLUMNS } from '../../documents/season-csv.ts';
import { evidenceObjectSchema } from '../../engine/evidence-schema.ts';
import { LANDSAT_STATES, LAYERS } from '../../reading-service/exoneration.ts';
import { ANALYSIS_STATES } from '../../store/entities/index.ts';
import { BOUNDARY_MAX_VERTICES } from '../bodies.ts';
import { COVER_FIELD_MAX, EXPORT_FORMATS } from '../routes/studio.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';
import { geometryOf } from './geojson.ts';

/**
 * The object `GET /eudr/exoneration` serves: the evidence object of spec 2.7 with the two keys spec
 * 2.6 adds. The evidence schema is a zod object under its declared type, so it extends as one.
 */
export const exonerationObjectSchema = (evidenceObjectSchema as unknown as z.ZodObject<z.ZodRawShape>).extend({
  sensors: z.array(z.string()).describe('The optical sensors behind this answer (as `read.sensors`): Sentinel-2 alone until the Landsat half is merged.'),
  landsat: z.object({
    state: z.enum(LANDSAT_STATES).describe('`queued`: the Landsat half waits for a worker and the answer is the optical half\'s; `reading`: it is being read, the answer still the optical half\'s; `merged`: the answer is read from Sentinel-2 and Landsat together; `failed`: its read failed or was interrupted (`error` says why; POST /studio/boundaries/{id}/read reads it again) and the answer stays the optical half\'s.'),
    queued_at: z.string().describe('When the first exoneration call over the boundary queued it (ISO 8601).'),
    error: z.string().nullable().describe('Why the Landsat half failed, in words; null unless `state` is `failed`.'),
  }).describe('The state of the Landsat half of the read (spec 2.6).'),
});

const analysisState = (what: string): Schema => nullable({ enum: [...ANALYSIS_STATES], description: what });

const boundaryProperties = {
  id: uuid,
  name: { type: 'string', description: 'The caller\'s name; the evidence\'s `aoi_name`.' },
  area_ha: { type: 'number', description: 'Measured on the ellipsoid.' },
  country: nullable({ type: 'string', description: 'ISO 3166-1 alpha-2.' }),
  created_at: timestamp,
  analyses: {
    type: 'object',
    required: ['optical', 'merged'],
    additionalProperties: false,
    description: 'The published analyses of the boundary: the state of each half of its read.',
    properties: {
      optical: analysisState('The Sentinel-2 read, queued when the boundary is saved.'),
      merged: analysisState('The read with the Landsat half; null until the first `GET /eudr/exoneration` queues it.'),
    },
  },
};

export const studioSchemas: Record<string, Schema> = {
  StudioBoundary: { type: 'object', required: Object.keys(boundaryProperties), additionalProperties: false, properties: boundaryProperties },
  StudioBoundaryDetail: {
    type: 'object',
    required: [...Object.keys(boundaryProperties), 'geometry'],
    additionalProperties: false,
    properties: { ...boundaryProperties, geometry: { ...geometryOf('Polygon', 'MultiPolygon'), description: 'The GeoJSON Polygon or MultiPolygon as saved.' } },
  },
  StudioBoundaryList: {
    type: 'object',
    required: ['boundaries'],
    additionalProperties: false,
    properties: { boundaries: { type: 'array', items: ref('StudioBoundary'), description: 'Newest first.' } },
  },
};

const boundaryId = { name: 'id', in: 'path', required: true, schema: uuid };
const aoiId = { name: 'aoi_id', in: 'query', required: true, schema: uuid, description: 'A studio boundary of the workspace.' };
const notFound = refusal('No such studio boundary in the workspace', ['not_found']);
const noEvidence = refusal('The boundary has no published analysis yet: its optical read is queued, under way or failed; the message says which', ['no_evidence']);
const queueDown = refusal('The queue could not take the read; nothing was written, repeat the same call shortly', ['queue_unavailable']);
const studioAuth = {
  ...authRefusals,
  '403': refusal('A portal-role seat: portal members use the portal endpoints (`/portal/plots`), and are refused on every studio route family, whether or not a route exists there; or no seat in the workspace, or a cross-site state change; or a plan without studio boundaries (Standard, Trial: the message names the plan that has them)', ['forbidden', 'cross_site', 'plan_tier_required']),
};

export const studioPaths = {
  '/studio/boundaries': {
    post: {
      operationId: 'saveStudioBoundary',
      summary: 'Save an analysis boundary; its optical half is queued at once',
      description: 'The boundary is read by the same engine as a register plot, in two halves: the optical half (Sentinel-2) is queued now; the Landsat half is queued by the first `GET /eudr/exoneration`. A boundary is not a register plot: it is not listed under /portal/plots and its reads use none of the evidence allowance.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('StudioBoundaryRequest') } } },
      responses: {
        '201': json(ref('StudioBoundaryDetail'), 'Saved, its optical half queued'),
        ...studioAuth,
        '422': refusal(`A name missing or over 200 characters; a geometry that is not a closed GeoJSON Polygon or MultiPolygon, encloses no area, has over ${BOUNDARY_MAX_VERTICES.toLocaleString('en')} positions or covers more than a read may; a country not recognised`, ['name_required', 'bad_geometry', 'bad_country', 'unknown_country', 'bad_body']),
        '503': queueDown,
      },
    },
    get: {
      operationId: 'listStudioBoundaries',
      summary: 'The workspace\'s studio boundaries, newest first, with the state of each half of their read',
      responses: { '200': json(ref('StudioBoundaryList')), ...studioAuth },
    },
  },
  '/studio/boundaries/{id}/read': {
    post: {
      operationId: 'readStudioBoundaryAgain',
      summary: 'Read again the halves of a boundary whose read failed or was interrupted',
      description: 'A half published, queued or under way is left as it is; a Landsat half never queued still waits for the first `GET /eudr/exoneration`. Answers the boundary with the state of each half.',
      parameters: [boundaryId],
      responses: { '200': json(ref('StudioBoundary')), ...studioAuth, '404': notFound, '503': queueDown },
    },
  },
  '/studio/boundaries/{id}': {
    get: {
      operationId: 'getStudioBoundary',
      summary: 'One studio boundary with its geometry',
      parameters: [boundaryId],
      responses: { '200': json(ref('StudioBoundaryDetail')), ...studioAuth, '404': notFound },
    },
    delete: {
      operationId: 'deleteStudioBoundary',
      summary: 'Delete a studio boundary with its analyses; a read in flight writes nothing',
      parameters: [boundaryId],
      responses: { '204': { description: 'Deleted' }, ...studioAuth, '404': notFound },
    },
  },
  '/eudr/exoneration': {
    get: {
      operationId: 'getExoneration',
      summary: 'The evidence object of a studio boundary, directly, with `sensors` and `landsat`',
      description: 'Answered from the boundary\'s published analyses. The first call queues the Landsat half, once however many calls arrive; until it lands the answer is the optical half\'s (Sentinel-2 alone) and `landsat.state` says `queued` or `reading`; once merged, the answer is the read of both. The object is signed without `sensors` and `landsat`: remove those two keys before checking its digest against the documents.',
      parameters: [aoiId],
      responses: {
        '200': json(ref('ExonerationObject')),
        ...studioAuth,
        '404': notFound,
        '409': noEvidence,
        '422': refusal('No `aoi_id` given', ['aoi_id_required']),
        '503': queueDown,
      },
    },
  },
  '/eudr/exoneration/export': {
    get: {
      operationId: 'exportExoneration',
      summary: 'The boundary\'s evidence as the analyst report, the compliance document, the per-season CSV or the JSON object',
      description: `Built by calling what the JSON route calls (so it too queues the Landsat half on a first call). PDFs are rendered on the documents threads. \`csv\`: RFC 4180, one header row (${SEASON_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}); the \`record\` column says what a row holds: \`season\` rows carry the fields of a season entry, \`caveat\` rows and \`scene\` rows their text in \`text\`. A text starting with =, +, -, @, a tab or a carriage return is written with a leading apostrophe, so a spreadsheet runs no line as a formula.`,
      parameters: [
        aoiId,
        { name: 'format', in: 'query', required: true, schema: { enum: [...EXPORT_FORMATS] }, description: '`pdf`: the analyst report (the evidence document); `compliance`: for an authority or auditor, a cover with `operator`, `plot_ref` and `commodity`, then the evidence document; `csv`: the per-season record with caveats and scene identifiers; `json`: the object as the JSON route serves it.' },
        { name: 'layer', in: 'query', required: false, schema: { enum: [...LAYERS] }, description: 'The trajectory exported: `optical` (Sentinel-2) or `merged` (with the Landsat half). Default: the one the JSON route serves.' },
        ...['operator', 'plot_ref', 'commodity'].map((name) => ({ name, in: 'query', required: false, schema: { type: 'string', maxLength: COVER_FIELD_MAX }, description: `With \`format=compliance\`: printed on the cover (\`not given\` when left out).` })),
      ],
      responses: {
        '200': {
          description: 'The export',
          content: {
            'application/json': { schema: ref('ExonerationObject') },
            'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
            'text/csv': { schema: { type: 'string' } },
          },
        },
        ...studioAuth,
        '404': notFound,
        '409': noEvidence,
        '422': refusal('An unknown `format`; a `layer` that is unknown or has no trajectory yet (its half is not published); no `aoi_id`; a cover field over 200 characters', ['bad_format', 'bad_layer', 'aoi_id_required', 'bad_cover_field']),
        '503': {
          ...refusal('The queue could not take the Landsat half (repeat shortly; nothing was written), or as many documents as the service renders at once are waiting (`Retry-After` says when to ask again)', ['queue_unavailable', 'busy']),
          headers: { 'Retry-After': { description: 'Seconds to wait, on `busy`', schema: { type: 'integer' } } },
        },
      },
    },
  },
};

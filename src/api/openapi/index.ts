import { accountPaths, accountSchemas } from './accounts.ts';
import { alertPaths, alertSchemas } from './alerts.ts';
import { archiveReadingPaths, archiveReadingSchemas } from './archive-readings.ts';
import { archiveReadingSchema, archiveReviewSchema } from '../../engine/archive-reading.ts';
import { evidenceObjectSchema, integritySchema, nextStepSchema } from '../../engine/evidence-schema.ts';
import {
  addPlotsBody, alertBatch, representedOperatorSchema, attachProducerBody, boundaryBody, closeCaseBody, fileReadingBody, keyBody, monitorBody, producerBody, removePlotsBody, runEvidenceBody, scanAndAdjudicateBody,
  shipmentBody, shipmentChangeBody, signInBody, statementBody, statementChangeBody, webhookBody, webhookChangeBody, withdrawReadingBody,
} from '../bodies.ts';
import { componentsFrom, ErrorSchema, withRequestRefusals } from './common.ts';
import { documentPaths, documentSchemas } from './documents.ts';
import { evidencePaths, evidenceSchemas } from './evidence.ts';
import { geoJsonSchemas } from './geojson.ts';
import { mapPaths, mapSchemas } from './map.ts';
import { plotPaths, plotSchemas } from './plots.ts';
import { referencePaths, referenceSchemas } from './reference.ts';
import { statementPaths, statementSchemas } from './statements.ts';
import { exonerationObjectSchema, studioPaths, studioSchemas } from './studio.ts';
import { webhookEvents, webhookPaths, webhookSchemas } from './webhooks.ts';

/** The OpenAPI 3.1 document served at GET /api/v1/openapi.json; each route family contributes its paths and schemas. */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pre-cutoff land-use evidence service',
      version: '1.0.0',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Evidence of land use before the EUDR cutoff (31 December 2020), one signed evidence object per plot. Every refusal is `{error:{code,message}}`; branch on `code`. Every answer carries `X-Content-Type-Options: nosniff`, `Content-Security-Policy: frame-ancestors \'none\'` and `Cache-Control: no-store`. A call that changes state with the session cookie must come from the service\'s own origin (it is refused with 403 `cross_site` otherwise) and name its workspace with X-Workspace-Id.',
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key minted from a signed-in session.' },
        session: { type: 'apiKey', in: 'cookie', name: 'pce_session', description: 'Browser session; name the workspace with X-Workspace-Id, or with ?workspace= on a GET (a download link).' },
      },
      schemas: {
        Error: ErrorSchema,
        ...geoJsonSchemas,
        ...accountSchemas,
        ...referenceSchemas,
        ...plotSchemas,
        ...documentSchemas,
        ...evidenceSchemas,
        ...archiveReadingSchemas,
        ...statementSchemas,
        ...studioSchemas,
        ...mapSchemas,
        ...alertSchemas,
        ...webhookSchemas,
        // Generated from the schemas that check request bodies and stored objects.
        ...componentsFrom({
          EvidenceRunRequest: runEvidenceBody.schema,
          SignInRequest: signInBody.schema,
          ApiKeyRequest: keyBody.schema,
          ProducerRequest: producerBody.schema,
          AttachProducerRequest: attachProducerBody.schema,
          FileArchiveReadingRequest: fileReadingBody.schema,
          WithdrawArchiveReadingRequest: withdrawReadingBody.schema,
          ShipmentRequest: shipmentBody.schema,
          ShipmentChangeRequest: shipmentChangeBody.schema,
          AddPlotsRequest: addPlotsBody.schema,
          RemovePlotsRequest: removePlotsBody.schema,
          StatementRequest: statementBody.schema,
          StatementChangeRequest: statementChangeBody.schema,
          RepresentedOperator: representedOperatorSchema,
          StudioBoundaryRequest: boundaryBody.schema,
          AlertBatch: alertBatch,
          ScanAndAdjudicateRequest: scanAndAdjudicateBody.schema,
          AlertMonitorRequest: monitorBody.schema,
          CloseAlertCaseRequest: closeCaseBody.schema,
          WebhookRequest: webhookBody.schema,
          WebhookChangeRequest: webhookChangeBody.schema,
        }, 'input'),
        ...componentsFrom({
          EvidenceObject: evidenceObjectSchema,
          NextStep: nextStepSchema,
          Integrity: integritySchema,
          ArchiveReading: archiveReadingSchema,
          ArchiveReview: archiveReviewSchema,
          ExonerationObject: exonerationObjectSchema,
        }, 'output'),
      },
    },
    webhooks: webhookEvents,
    paths: withRequestRefusals({
      ...accountPaths,
      ...referencePaths,
      ...evidencePaths,
      ...archiveReadingPaths,
      ...documentPaths,
      ...plotPaths,
      ...statementPaths,
      ...studioPaths,
      ...mapPaths,
      ...alertPaths,
      ...webhookPaths,
      '/openapi.json': { get: { operationId: 'getOpenApiDocument', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1 document' } } } },
    }),
  };
}

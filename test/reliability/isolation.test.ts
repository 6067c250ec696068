/**
 * Workspace isolation (spec 5, 7) on both backends: two workspaces, each with plots, producers, a
 * shipment, a statement, a webhook and its delivery, an alert plot, a monitor and its case, a studio
 * boundary, an archive reading and keys. Then every operation of the OpenAPI document the service
 * serves is called with workspace A's credentials (its member key, its portal key, its owner's
 * session; and that session naming B's workspace) and B's ids in every path parameter and id
 * field. No answer carries B's ids or references; an operation given B's ids answers 404 or 403,
 * and 404 for at least one of A's credentials (the call reached the lookup); B's data is unchanged
 * afterwards. The calls are built from the document, so a new operation without an entry in the
 * tables below fails here until it is given one.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { runMonitors } from '../../src/alerts/monitor-run.ts';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import { nextStep } from '../../src/engine/next-step.ts';
import { ALERT_PRODUCTS } from '../../src/engine/sources/products/gfw-alerts/codes.ts';
import { createLogger } from '../../src/log.ts';
import { insertSitePlot } from '../engine/evidence-helpers.ts';
import { fixtureEvidence, fixtureFootprint, storeFixtureRead } from '../fixtures/evidence-wrapper.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/db.ts';
import { assertDocumented } from '../support/openapi.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const API = '/api/v1';
const PASSWORD = 'correct horse battery';

/** One workspace's credentials and the ids of everything it holds. */
interface Holdings {
  workspaceId: string;
  email: string;
  portalKey: string;
  memberKey: string;
  reviewerKey: string;
  cookie: string;
  plotId: string;
  plotRef: string;
  producerId: string;
  producerName: string;
  shipmentId: string;
  shipmentRef: string;
  statementId: string;
  statementRef: string;
  webhookId: string;
  deliveryId: string;
  alertPlotId: string;
  alertRef: string;
  monitorId: string;
  caseId: string;
  boundaryId: string;
  readingId: string;
  keyId: string;
}

interface Credential {
  name: string;
  headers: Record<string, string>;
}

/** A request to build for one operation, from the other workspace's holdings. */
interface Call {
  query?: Record<string, string>;
  body?: unknown;
  /** Sent as a multipart upload under `file`. */
  file?: string;
}

/** Withheld by a structural reading, so a reviewer may file an archive reading on it. */
const withheld = (): EvidenceObject =>
  fixtureEvidence({
    edit: (e) => {
      e.verdict = 'prior_management_weak';
      e.reason = 'structural_reading_says_forest';
      e.reasons = ['structural_reading_says_forest'];
      e.next_step = nextStep({ evidence_state: 'done', verdict: e.verdict, reasons: e.reasons, area_ha: e.plot_area_km2 * 100 });
    },
  });

const geojsonFile = JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: { ref: 'UP-1' }, geometry: { type: 'Polygon', coordinates: [[[112.05, 0.85], [112.051, 0.85], [112.051, 0.851], [112.05, 0.851], [112.05, 0.85]]] } }],
});

/**
 * The id a path parameter takes, by the path segment before it. A parameter after a segment not
 * named here fails the test: a new route family must say which of B's ids it is given.
 */
const PATH_IDS: Record<string, (b: Holdings) => string> = {
  'api-keys': (b) => b.keyId,
  plots: (b) => b.plotId,
  'archive-readings': (b) => b.readingId,
  shipments: (b) => b.shipmentId,
  statements: (b) => b.statementId,
  boundaries: (b) => b.boundaryId,
  cases: (b) => b.caseId,
  alerts: (b) => b.alertPlotId,
  webhooks: (b) => b.webhookId,
  deliveries: (b) => b.deliveryId,
};

/**
 * Path parameters that name no workspace's data: a tile's address. A tile is drawn from the archive
 * alone, for any workspace; a zoom outside every layer's range keeps the archive shut, while the
 * credentials and the workspace are still checked first.
 */
const PLAIN_PARAMS: Record<string, string> = { layer: 'tmf_loss', z: '1', x: '0', y: '0' };

/**
 * Per operation: the query and body it is sent, naming B's ids where it takes any. Every operation of
 * the document has an entry; `null` sends nothing beyond the path.
 */
const CALLS: Record<string, (b: Holdings) => Call | null> = {
  getHealth: () => null,
  getWorkspace: (b) => ({ query: { workspace: b.workspaceId } }),
  signIn: (b) => ({ body: { email: b.email, password: 'not the password' } }),
  signOut: () => null,
  mintWorkspaceKey: () => ({ body: { label: 'isolation' } }),
  listApiKeys: () => null,
  mintPortalKey: () => ({ body: { label: 'isolation' } }),
  revokeApiKey: () => null,
  getPublicKey: () => null,
  getCountryClassification: () => null,
  runEvidence: (b) => ({ body: { plot_ids: [b.plotId] } }),
  getEvidenceSummary: () => null,
  getPlotEvidence: () => null,
  fileArchiveReading: () => ({ body: { scene_id: 'S-1', provider: 'Maxar archive', acquired_on: '2019-02-14', observed: 'cultivated', plot_share: 1, reviewer: 'A. Reviewer', statement: 'Rows of rubber trees.' } }),
  listArchiveReadings: () => null,
  withdrawArchiveReading: () => ({ body: { reason: 'Filed on the wrong plot.' } }),
  getBookSummary: (b) => ({ query: { workspace: b.workspaceId } }),
  getDashboard: () => null,
  getPlotEvidencePdf: (b) => ({ query: { workspace: b.workspaceId } }),
  validatePlotFile: () => ({ query: { country: 'ID' }, file: geojsonFile }),
  importPlotFile: () => ({ query: { country: 'ID' }, file: geojsonFile }),
  listCountries: () => null,
  listProducers: () => null,
  createProducer: () => ({ body: { name: 'Isolation producer', country: 'ID' } }),
  listPlots: (b) => ({ query: { shipment_id: b.shipmentId } }),
  getPlot: () => null,
  attachProducer: (b) => ({ body: { producer_id: b.producerId } }),
  listShipments: () => null,
  createShipment: (b) => ({ body: { reference: `ISO-${randomUUID().slice(0, 8)}`, plot_ids: [b.plotId] } }),
  getShipment: () => null,
  changeShipment: () => ({ body: { note: 'changed' } }),
  deleteShipment: () => null,
  addShipmentPlots: () => ({ body: { plot_ids: [randomUUID()] } }),
  removeShipmentPlots: (b) => ({ body: { plot_ids: [b.plotId] } }),
  removeShipmentPlot: () => null,
  getShipmentReportPdf: (b) => ({ query: { workspace: b.workspaceId } }),
  getShipmentStatement: (b) => ({ query: { format: 'json', workspace: b.workspaceId } }),
  createStatementFromShipment: (b) => ({ body: { shipment_id: b.shipmentId } }),
  listStatements: () => null,
  createStatement: (b) => ({ body: { shipment_id: b.shipmentId, internal_reference: `ISO-${randomUUID().slice(0, 8)}` } }),
  getStatement: (b) => ({ query: { format: 'json', workspace: b.workspaceId } }),
  changeStatement: () => ({ body: { note: 'changed' } }),
  saveStudioBoundary: () => ({ body: { name: 'Isolation block', geometry: fixtureFootprint(), country: 'TH' } }),
  listStudioBoundaries: () => null,
  readStudioBoundaryAgain: () => null,
  getStudioBoundary: () => null,
  deleteStudioBoundary: () => null,
  getExoneration: (b) => ({ query: { aoi_id: b.boundaryId } }),
  exportExoneration: (b) => ({ query: { aoi_id: b.boundaryId, format: 'json' } }),
  getImageryTile: (b) => ({ query: { workspace: b.workspaceId } }),
  getChangeTile: (b) => ({ query: { workspace: b.workspaceId } }),
  getChangeLegend: () => null,
  getPlotImageryTimeline: () => null,
  getArchiveCoverage: (b) => ({ query: { plot_id: b.plotId } }),
  createAlertMonitor: (b) => ({ body: { plot_ids: [b.plotId] } }),
  listAlertMonitors: () => null,
  listAlertCases: (b) => ({ query: { monitor_id: b.monitorId } }),
  getAlertCase: () => null,
  closeAlertCase: () => ({ body: { outcome: 'false_positive', note: 'not ours' } }),
  scanAlerts: (b) => ({ query: { plot_id: b.plotId } }),
  scanAndAdjudicateAlerts: (b) => ({ body: { plot_ids: [b.plotId] } }),
  adjudicateAlerts: () => ({ body: [{ ref: `ISO-${randomUUID().slice(0, 8)}`, geometry: { type: 'Point', coordinates: [112.05, 0.85] }, alert_date: '2023-05-02', country: 'ID', commodity: 'rubber' }] }),
  getAlert: () => null,
  listWebhooks: () => null,
  createWebhook: () => null,
  updateWebhook: () => ({ body: { label: 'changed' } }),
  deleteWebhook: () => null,
  rotateWebhookSecret: () => null,
  testWebhook: () => null,
  listWebhookDeliveries: (b) => ({ query: { endpoint_id: b.webhookId } }),
  getWebhookDelivery: () => null,
  retryWebhookDelivery: () => null,
  getOpenApiDocument: () => null,
};

for (const backend of BACKENDS) {
  describe(`workspace isolation over every documented operation (${backend})`, () => {
    let app: TestApp;
    let receiver: Receiver;
    let a: Holdings;
    let b: Holdings;

    const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const h: Record<string, string> = { ...headers };
      if (body !== undefined) h['content-type'] = 'application/json';
      const res = await fetch(app.url + API + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      const parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
      return { status: res.status, body: parsed, text };
    };
    const ok = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const r = await send(method, path, headers, body);
      assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
      return r.body;
    };

    /** A workspace holding one of everything, made through the routes where a route makes it. */
    async function holdings(name: string): Promise<Holdings> {
      const store = app.services.store;
      const email = `owner-${name}-${randomUUID().slice(0, 6)}@isolation.test`;
      const created = await runAdminCommand(store, ['workspace', 'create'], { name, plan: 'professional', email, password: PASSWORD });
      const workspaceId = created.workspace_id as string;
      const portalKey = created.api_key as string;
      const mint = async (role: string) => (await runAdminCommand(store, ['key', 'mint'], { workspace: workspaceId, role })).api_key as string;
      const memberKey = await mint('member');
      const reviewerKey = await mint('reviewer');
      const signIn = await fetch(`${app.url}${API}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
      assert.equal(signIn.status, 200);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const portal = { authorization: `Bearer ${portalKey}` };
      const member = { authorization: `Bearer ${memberKey}` };

      const plotRef = `${name}-PLOT-${randomUUID().slice(0, 6)}`;
      const em = store.em();
      const plotId = await insertSitePlot(em, workspaceId, 'th-surat-thani-rubber', { ref: plotRef });
      await storeFixtureRead(em, app.services.signingKey, { workspaceId, plotId, evidence: withheld(), facts: { eu_maps_forest_share: 0.02, landsat_2020: 'cleared_before_2021', seasons_measured: 4 } });
      const reading = await ok('POST', `/portal/plots/${plotId}/archive-readings`, { authorization: `Bearer ${reviewerKey}` }, CALLS.fileArchiveReading(null as never)!.body);

      const producerName = `${name} producer ${randomUUID().slice(0, 6)}`;
      const producer = await ok('POST', '/portal/plots/producers', portal, { name: producerName, country: 'TH' });
      const shipmentRef = `${name}-SHIP-${randomUUID().slice(0, 6)}`;
      const shipment = await ok('POST', '/portal/statements/shipments', portal, { reference: shipmentRef, plot_ids: [plotId] });
      const statementRef = `${name}-DDS-${randomUUID().slice(0, 6)}`;
      const statement = await ok('POST', '/portal/statements/from-shipment', portal, { shipment_id: shipment.id, internal_reference: statementRef });
      const webhook = await ok('POST', '/portal/webhooks', portal, { url: `${receiver.origin}/${name}`, label: `${name} ERP` });
      await ok('POST', `/portal/webhooks/${webhook.id}/test`, portal);
      const [delivery] = (await ok('GET', '/portal/webhooks/deliveries', portal)).deliveries;
      const alertRef = `${name}-ALERT-${randomUUID().slice(0, 6)}`;
      const [alertPlot] = await ok('POST', '/eudr/alerts/adjudicate', portal, [{ ref: alertRef, geometry: { type: 'Point', coordinates: [112.05, 0.85] }, alert_date: '2023-05-02', country: 'ID', commodity: 'rubber' }]);
      const monitor = await ok('POST', '/eudr/alerts/monitors', portal, { plot_ids: [plotId], since: '2022-01-01' });
      const boundary = await ok('POST', '/studio/boundaries', member, { name: `${name} block`, geometry: fixtureFootprint(), country: 'TH' });
      const keys = await ok('GET', '/portal/api-keys', { cookie, 'x-workspace-id': workspaceId });
      return {
        workspaceId, email, portalKey, memberKey, reviewerKey, cookie, plotId, plotRef, producerId: producer.id, producerName, shipmentId: shipment.id, shipmentRef,
        statementId: statement.id, statementRef, webhookId: webhook.id, deliveryId: delivery.id, alertPlotId: alertPlot.plot_id, alertRef, monitorId: monitor.id,
        caseId: '', boundaryId: boundary.id, readingId: reading.reading.id, keyId: keys.keys[0].id,
      };
    }

    /** What B's own credentials read of B's holdings: compared before and after A's calls. */
    async function ownView(h: Holdings) {
      const portal = { authorization: `Bearer ${h.portalKey}` };
      const member = { authorization: `Bearer ${h.memberKey}` };
      return {
        plot: await ok('GET', `/portal/plots/${h.plotId}`, portal),
        readings: await ok('GET', `/portal/plots/${h.plotId}/archive-readings`, portal),
        producers: await ok('GET', '/portal/plots/producers', portal),
        shipment: await ok('GET', `/portal/statements/shipments/${h.shipmentId}`, portal),
        statements: await ok('GET', '/portal/statements', portal),
        webhooks: await ok('GET', '/portal/webhooks', portal),
        delivery: await ok('GET', `/portal/webhooks/deliveries/${h.deliveryId}`, portal),
        alert: await ok('GET', `/eudr/alerts/${h.alertPlotId}`, portal),
        monitors: await ok('GET', '/eudr/alerts/monitors', portal),
        case: await ok('GET', `/eudr/alerts/cases/${h.caseId}`, portal),
        boundary: await ok('GET', `/studio/boundaries/${h.boundaryId}`, member),
        keys: await ok('GET', '/portal/api-keys', { cookie: h.cookie, 'x-workspace-id': h.workspaceId }),
      };
    }

    before(async () => {
      // No call here needs imagery: an archive that refuses to open shows no route opens it before its lookup.
      app = await startTestApp(backend, { WEBHOOK_ALLOW_LOOPBACK: 'on' }, { archive: () => Promise.reject(new Error('no archive in the isolation suite')) });
      receiver = await startReceiver();
      a = await holdings('Alpha');
      b = await holdings('Bravo');
      // One monitor run opens a case in each workspace from the same published cluster.
      const p = ALERT_PRODUCTS.integrated;
      const pixels = Array.from({ length: 9 }, (_, i) => ({ longitude: 99.13 + (i % 3) * 1e-4, latitude: 8.85 + Math.floor(i / 3) * 1e-4, date: '2023-01-10', confidence: 'high' as const }));
      const source = {
        async read(product: keyof typeof ALERT_PRODUCTS) {
          return { product, dataset: p.dataset, version: 'v20990101', publisher: 'stub', publishedAccuracy: p.publishedAccuracy, pixels, provenance: { dataset: p.dataset, version: 'v20990101', tile: null, licence: p.licence, attribution: p.attribution, citation: p.citation, synthetic: true } };
        },
      };
      await runMonitors({ store: app.services.store, source: source as never, clusters: app.services.pools.alerts.clusters, baseUrl: app.services.config.baseUrl, log: createLogger('silent') }, new Date('2023-02-01T00:00:00Z'));
      for (const h of [a, b]) {
        const [opened] = (await ok('GET', '/eudr/alerts/cases', { authorization: `Bearer ${h.portalKey}` })).cases;
        h.caseId = opened.alert_id;
      }
    });
    after(async () => {
      await receiver.close();
      await app.close();
    });

    test("every operation called with A's credentials and B's ids leaks nothing of B and answers as for an id that does not exist", async () => {
      const document = await ok('GET', '/openapi.json', {});
      const operations: { method: string; template: string; op: any }[] = [];
      for (const [template, item] of Object.entries<any>(document.paths)) {
        for (const [method, op] of Object.entries<any>(item)) if (op?.operationId) operations.push({ method: method.toUpperCase(), template, op });
      }
      const missing = operations.map((o) => o.op.operationId).filter((id) => !(id in CALLS));
      assert.deepEqual(missing, [], 'every documented operation has an entry in CALLS');
      assert.deepEqual(Object.keys(CALLS).filter((id) => !operations.some((o) => o.op.operationId === id)), [], 'CALLS names no operation the document lacks');
      // Signing out ends A's session: it goes last.
      operations.sort((x, y) => Number(x.op.operationId === 'signOut') - Number(y.op.operationId === 'signOut'));

      // B's ids, which a call may name; and what B named its things, which no answer to A may carry.
      const ids = [b.plotId, b.producerId, b.shipmentId, b.statementId, b.webhookId, b.deliveryId, b.alertPlotId, b.monitorId, b.caseId, b.boundaryId, b.readingId, b.keyId];
      const secrets = [...ids, b.workspaceId, b.plotRef, b.producerName, b.shipmentRef, b.statementRef, b.alertRef, b.email, 'Bravo ERP', `${receiver.origin}/Bravo`];
      const credentials: Credential[] = [
        { name: "A's member key", headers: { authorization: `Bearer ${a.memberKey}` } },
        { name: "A's portal key", headers: { authorization: `Bearer ${a.portalKey}` } },
        { name: "A's reviewer key", headers: { authorization: `Bearer ${a.reviewerKey}` } },
        { name: "A's session", headers: { cookie: a.cookie, 'x-workspace-id': a.workspaceId } },
      ];
      const trespass: Credential = { name: "A's session naming B's workspace", headers: { cookie: a.cookie, 'x-workspace-id': b.workspaceId } };
      const bBefore = await ownView(b);
      const failures: string[] = [];

      /** The request for one operation: B's ids in its path parameters, its entry's query and body. */
      const build = (method: string, template: string, id: string) => {
        const path = template.replace(/\{([^}]+)\}/g, (_m, param: string, at: number) => {
          if (param in PLAIN_PARAMS) return PLAIN_PARAMS[param];
          const segment = template.slice(0, at).split('/').filter(Boolean).at(-1)!;
          const pick = PATH_IDS[segment];
          assert.ok(pick, `${method} ${template}: no entry in PATH_IDS for the parameter {${param}} after /${segment}`);
          return pick(b);
        });
        return { path, ...(CALLS[id](b) ?? {}) };
      };
      /** The same request with each of B's ids swapped for one that names nothing. */
      const unknown = (req: Call & { path: string }): Call & { path: string } => {
        let text = JSON.stringify(req);
        for (const id of ids) text = text.replaceAll(id, randomUUID());
        return JSON.parse(text);
      };
      const request = async (method: string, req: Call & { path: string }, credential: Credential) => {
        const headers: Record<string, string> = { ...credential.headers };
        let body: BodyInit | undefined;
        if (req.file !== undefined) {
          const form = new FormData();
          form.set('file', new Blob([req.file]), 'plots.geojson');
          body = form;
        } else if (req.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(req.body);
        }
        const url = req.path + (req.query ? `?${new URLSearchParams(req.query)}` : '');
        const res = await fetch(app.url + API + url, { method, headers, body });
        const type = res.headers.get('content-type') ?? '';
        const text = type.includes('json') || type.startsWith('text/') ? await res.text() : Buffer.from(await res.arrayBuffer()).toString('latin1');
        const parsed = type.includes('json') && text ? JSON.parse(text) : text;
        assertDocumented(method, API + url, res.status, parsed);
        return { status: res.status, text, parsed, what: `${method} ${url} with ${credential.name}: ${res.status}` };
      };

      for (const { method, template, op } of operations) {
        const id: string = op.operationId;
        const inPath = [...template.matchAll(/\{([^}]+)\}/g)].some(([, param]) => !(param in PLAIN_PARAMS));
        const namesB = (req: Call & { path: string }) => ids.some((i) => JSON.stringify(req).includes(i));
        const statuses: number[] = [];
        for (const credential of credentials) {
          // Built per call: a body's fresh reference is not refused as a duplicate of the last credential's.
          const req = build(method, template, id);
          const sent = JSON.stringify(req);
          const answer = await request(method, req, credential);
          statuses.push(answer.status);
          const success = answer.status >= 200 && answer.status < 300;
          // A refusal may repeat an id the caller sent; a success only in its list of ids not found (spec 4.9).
          const shown = success && typeof answer.parsed === 'object' ? JSON.stringify(answer.parsed, (k, v) => (k === 'not_found' ? undefined : v)) : answer.text;
          const leaked = secrets.filter((s) => shown.includes(s) && (success || !sent.includes(s)));
          if (leaked.length > 0) failures.push(`${answer.what} carries B's ${leaked.join(', ')}`);
          if (!namesB(req)) continue;
          if (inPath && ![403, 404].includes(answer.status)) failures.push(`${answer.what}, not 404 or 403: ${answer.text.slice(0, 200)}`);
          // B's id is answered as an id that names nothing: the answer tells A nothing of what B holds.
          const stranger = await request(method, unknown(build(method, template, id)), credential);
          if (stranger.status !== answer.status) failures.push(`${answer.what}, but ${stranger.status} for an unknown id: ${answer.text.slice(0, 200)}`);
        }
        if (inPath && !statuses.includes(404)) failures.push(`${method} ${template} with B's ids: no credential of A reached the lookup (${statuses.join(', ')})`);
        // A session is refused on a workspace it has no seat in, whatever the route (a public route answers as for anyone).
        const trespassing = await request(method, build(method, template, id), trespass);
        const open = Array.isArray(op.security) && op.security.length === 0;
        if (!open && trespassing.status !== 403) failures.push(`${trespassing.what}, not 403: ${trespassing.text.slice(0, 200)}`);
        if (open && trespassing.text.includes(b.workspaceId)) failures.push(`${trespassing.what} names B's workspace`);
      }
      assert.deepEqual(failures, []);
      assert.deepEqual(await ownView(b), bBefore, "B's holdings are as they were");
    });
  });
}

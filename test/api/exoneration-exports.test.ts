/**
 * /eudr/exoneration and its exports over a studio boundary on a demo site, read by a worker through
 * the local archive server, on both backends: the optical half published first and served with the
 * Landsat half queued, then the merged read; each export format (JSON as served, the per-season CSV
 * read back by a CSV parser, the analyst report and the compliance document with its cover).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { DEMO_GFW_API_KEY } from '../../src/demo/api-transport.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { SEASON_CSV_COLUMNS, SEASON_FIELDS } from '../../src/documents/season-csv.ts';
import { openArchive } from '../../src/engine/archive.ts';
import type { EvidenceSeason } from '../../src/engine/evidence-object.ts';
import { canonicalJson } from '../../src/engine/integrity.ts';
import { type EvidenceWorker, startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { SENSORS } from '../../src/engine/plan/read-plan.ts';
import { type ArchiveServer, serveDemoArchive } from '../support/archive-server.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { demoWorld } from '../support/demo-world.ts';
import { seedWorkspace, site } from '../engine/evidence-helpers.ts';
import { pdfText } from '../documents/pdf-text.ts';

const SITE = 'th-surat-thani-rubber';
const EXPORT = '/api/v1/eudr/exoneration/export';

/** A season as the CSV gives it back: its fields typed again as the object carries them. */
function seasonOf(row: Record<string, string>): EvidenceSeason {
  const number = (v: string) => (v === '' ? null : Number(v));
  const text = (v: string) => (v === '' ? null : v);
  const bool = (v: string) => {
    assert.ok(v === 'true' || v === 'false', `a boolean cell reads ${v}`);
    return v === 'true';
  };
  return {
    season: Number(row.season), label: row.label, observations: Number(row.observations), plateau: number(row.plateau), trough: number(row.trough),
    trough_date: text(row.trough_date), depth: number(row.depth), dipped: bool(row.dipped), no_answer: bool(row.no_answer), truncated: bool(row.truncated),
    last_observed: text(row.last_observed),
  } as EvidenceSeason;
}

async function fetchFile(app: TestApp, path: string, key: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

for (const backend of BACKENDS) {
  describe(`/eudr/exoneration on a demo site, read by a worker (${backend})`, () => {
    let app: TestApp;
    let server: ArchiveServer;
    let worker: EvidenceWorker;
    let key: string;
    let id: string;

    const boundary = () => app.call('GET', `/api/v1/studio/boundaries/${id}`, { key });
    async function untilHalf(half: 'optical' | 'merged'): Promise<string> {
      const deadline = Date.now() + 240_000;
      for (;;) {
        const state = (await boundary()).body.analyses[half] as string;
        if (state === 'done' || state === 'failed') return state;
        if (Date.now() > deadline) throw new Error(`the ${half} half is still ${state}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    before(async () => {
      app = await startTestApp(backend, { POOL_SIZE: '2' });
      const { root } = await demoWorld();
      server = await serveDemoArchive(root);
      const archive = await openArchive({ kind: 'demo', dataDir: app.services.config.dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY });
      worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive });
      const { workspaceId } = await seedWorkspace(app.services.store, 'professional');
      key = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
      const spec = site(SITE);
      const ring = buildSiteModel(spec, DEMO_SEED).lonLatRing;
      const saved = await app.call('POST', '/api/v1/studio/boundaries', { key, body: { name: 'Surat Thani garden', geometry: { type: 'Polygon', coordinates: [ring] }, country: spec.country } });
      assert.equal(saved.status, 201);
      id = saved.body.id;
    });
    after(async () => {
      worker.stopTaking();
      await worker.close();
      await server.close();
      await app.close();
    });

    test('answers from the optical half while the Landsat half is queued, then from the merged read', async () => {
      assert.equal(await untilHalf('optical'), 'done');
      const first = await app.call('GET', `/api/v1/eudr/exoneration?aoi_id=${id}`, { key });
      assert.equal(first.status, 200);
      assert.ok(['queued', 'reading'].includes(first.body.landsat.state), first.body.landsat.state);
      assert.deepEqual(first.body.sensors, [SENSORS['sentinel-2']]);
      assert.equal(first.body.read.landsat.scenes_kept, 0);
      assert.equal(first.body.aoi_name, 'Surat Thani garden');
      assert.equal(first.body.synthetic, true);

      assert.equal(await untilHalf('merged'), 'done');
      const merged = await app.call('GET', `/api/v1/eudr/exoneration?aoi_id=${id}`, { key });
      assert.equal(merged.body.landsat.state, 'merged');
      assert.deepEqual(merged.body.sensors, merged.body.read.sensors);
      assert.ok(merged.body.sensors.includes(SENSORS.landsat), JSON.stringify(merged.body.sensors));
      assert.ok(merged.body.read.landsat.scenes_kept > 0);
      assert.ok(merged.body.read.scenes_kept > first.body.read.scenes_kept);
      // The optical layer stays exportable beside the merged one.
      const optical = await app.call('GET', `${EXPORT}?aoi_id=${id}&format=json&layer=optical`, { key });
      assert.deepEqual(optical.body.sensors, [SENSORS['sentinel-2']]);
      assert.equal(optical.body.issued, first.body.issued);
    });

    test('format=json is the object as the JSON route serves it, and signed without the two added keys', async () => {
      const served = await app.call('GET', `/api/v1/eudr/exoneration?aoi_id=${id}`, { key });
      const exported = await app.call('GET', `${EXPORT}?aoi_id=${id}&format=json`, { key });
      assert.equal(exported.status, 200);
      assert.deepEqual(exported.body, served.body);
      const { sensors: _sensors, landsat: _landsat, ...signed } = exported.body;
      const pdf = await pdfText((await fetchFile(app, `${EXPORT}?aoi_id=${id}&format=pdf`, key)).bytes);
      assert.ok(pdf.text.replace(/\s+/g, '').includes(createHash('sha256').update(canonicalJson(signed)).digest('hex')), 'the report carries the digest of the served object less its two added keys');
    });

    test('format=csv is RFC 4180 with one header row; read back by a CSV parser its seasons equal the object\'s', async () => {
      const served = (await app.call('GET', `/api/v1/eudr/exoneration?aoi_id=${id}`, { key })).body;
      const csv = await fetchFile(app, `${EXPORT}?aoi_id=${id}&format=csv`, key);
      assert.equal(csv.status, 200);
      assert.match(csv.type, /^text\/csv/);
      const text = csv.bytes.toString('utf8');
      assert.ok(text.endsWith('\r\n') && !/[^\r]\n/.test(text), 'every line ends CRLF');
      const header = parse(text, { to_line: 1 })[0] as string[];
      assert.deepEqual(header, [...SEASON_CSV_COLUMNS]);
      const rows = parse(text, { columns: true, relax_column_count: false }) as Record<string, string>[];
      assert.ok(served.seasons.length > 0);
      assert.deepEqual(rows.filter((r) => r.record === 'season').map(seasonOf), served.seasons);
      assert.deepEqual(rows.filter((r) => r.record === 'scene').map((r) => r.text), served.scenes);
      const caveats = rows.filter((r) => r.record === 'caveat').map((r) => r.text);
      assert.ok(caveats.some((c) => c.startsWith('SYNTHETIC DEMO DATA')));
      assert.ok(caveats.some((c) => c.includes(served.verdict)));
      assert.ok(caveats.some((c) => /Sentinel-2 and Landsat together/.test(c)));
      assert.deepEqual(new Set(rows.map((r) => r.record)), new Set(['season', 'caveat', 'scene']));
      // No cell a spreadsheet would run as a formula.
      for (const row of rows) for (const value of Object.values(row)) assert.doesNotMatch(value, /^[=+@\t\r]|^-(?!\d)/, value);
      for (const row of rows.filter((r) => r.record !== 'season')) for (const f of SEASON_FIELDS) assert.equal(row[f], '');
    });

    test('format=pdf is the analyst report, rendered from the served object', async () => {
      const served = (await app.call('GET', `/api/v1/eudr/exoneration?aoi_id=${id}`, { key })).body;
      const pdf = await fetchFile(app, `${EXPORT}?aoi_id=${id}&format=pdf`, key);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.type, 'application/pdf');
      assert.equal(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
      const { text } = await pdfText(pdf.bytes);
      assert.match(text, /Surat Thani garden/);
      assert.match(text, new RegExp(served.verdict));
      assert.match(text, /SYNTHETIC DEMO DATA/);
      assert.match(text, new RegExp(`studio boundary ${id}`));
      // Its integrity steps fetch the object it was rendered from, not a register plot's (the address itself: test/documents/compliance-pdf.test.ts).
      const flat = text.replace(/\s+/g, '');
      assert.ok(flat.includes('withoutitsmembers"sensors"and"landsat"'), 'the integrity steps say to remove the two added keys');
      assert.ok(!flat.includes(`/portal/plots/${id}`));
    });

    test('format=compliance carries the operator, plot reference and commodity on its cover, then the evidence', async () => {
      const cover = { operator: 'Acme Rubber Trading GmbH', plot_ref: 'TH-SRT-0042', commodity: 'rubber' };
      const query = new URLSearchParams({ aoi_id: id, format: 'compliance', ...cover });
      const pdf = await fetchFile(app, `${EXPORT}?${query}`, key);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.type, 'application/pdf');
      const { pages } = await pdfText(pdf.bytes);
      for (const value of Object.values(cover)) assert.match(pages[0], new RegExp(value), value);
      assert.match(pages[0], /Evidence for due diligence under Regulation \(EU\) 2023\/1115/);
      assert.ok(pages.length > 2);
      assert.match(pages.slice(1).join('\n'), /Evidence of land use before the EUDR cutoff/);
      // Left out, a cover field says so rather than printing nothing.
      const bare = await pdfText((await fetchFile(app, `${EXPORT}?aoi_id=${id}&format=compliance`, key)).bytes);
      assert.equal((bare.pages[0].match(/not given/g) ?? []).length, 3);
    });
  });
}

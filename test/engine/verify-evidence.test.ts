/**
 * Evidence bound to its boundary, checked as an auditor would: a plot of the demo world read by the
 * engine carries the boundary it was read on and its digest, and `npm run verify` (src/verify.ts, run
 * as a process, no service) accepts the stored answer with that boundary, and refuses a tampered
 * verdict and another boundary.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Polygon } from 'geojson';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import type { Archive } from '../../src/engine/archive.ts';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import { boundaryDigest, sealEvidence } from '../../src/engine/integrity.ts';
import { evidencePdf } from '../../src/documents/evidence-pdf.ts';
import { fixtureKey } from '../fixtures/evidence-wrapper.ts';
import { pdfText } from '../documents/pdf-text.ts';
import { demoWorld } from '../support/demo-world.ts';
import { readPlotHere } from '../support/read-plot.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'pce-verify-'));
const site = DEMO_SITES.find((s) => s.name === 'th-surat-thani-rubber')!;
const footprint: Polygon = { type: 'Polygon', coordinates: [buildSiteModel(site, DEMO_SEED).lonLatRing] };
let archive: Archive;
let evidence: EvidenceObject;

before(async () => {
  const { root } = await demoWorld();
  archive = await openDemoArchive({ dataDir: dir, root });
  ({ evidence } = await readPlotHere(archive, footprint, site.country));
  writeFileSync(join(dir, 'public-key.json'), JSON.stringify({ key_id: fixtureKey().keyId, public_key_pem: fixtureKey().publicKeyPem }));
});
after(async () => {
  await archive?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the answer of GET …/evidence for `object` sealed as stored, and runs the verify command on it. */
async function verify(object: EvidenceObject, sealed: EvidenceObject, boundary?: unknown) {
  writeFileSync(join(dir, 'evidence.json'), JSON.stringify({ plot_id: 'p1', evidence: object, integrity: sealEvidence(sealed, fixtureKey()) }));
  const args = ['src/verify.ts', join(dir, 'evidence.json')];
  if (boundary !== undefined) {
    writeFileSync(join(dir, 'plot.geojson'), JSON.stringify(boundary, null, 2));
    args.push(join(dir, 'plot.geojson'));
  }
  try {
    const { stdout } = await run(process.execPath, [...args, '--key', join(dir, 'public-key.json')], { cwd: ROOT });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

test('the engine signs the boundary it read on, with its digest, centroid, box and area', () => {
  const b = evidence.boundary!;
  assert.deepEqual(b.geometry, footprint);
  assert.equal(b.drawn, null);
  assert.equal(b.digest, boundaryDigest(footprint));
  assert.ok(b.bbox[0] < b.centroid[0] && b.centroid[0] < b.bbox[2] && b.bbox[1] < b.centroid[1] && b.centroid[1] < b.bbox[3]);
  assert.equal(b.area_ha, Number((evidence.plot_area_km2 * 100).toFixed(4)));
});

test('the stored answer verifies, with the boundary it was read on given as a Feature in any key order', async () => {
  const feature = { properties: { ref: 'TH-1' }, geometry: { coordinates: footprint.coordinates, type: 'Polygon' }, type: 'Feature' };
  const r = await verify(evidence, evidence, feature);
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /^ok {3}digest: /m);
  assert.match(r.stdout, /^ok {3}signature: /m);
  assert.match(r.stdout, /^ok {3}boundary: the boundary given is the one read/m);
});

test('a tampered verdict fails the digest', async () => {
  const verdict = evidence.verdict === 'prior_management_evidenced' ? 'insufficient_record' : 'prior_management_evidenced';
  const r = await verify({ ...evidence, verdict }, evidence);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^FAIL digest: the evidence has been altered/m);
});

test('another boundary is refused: one vertex moved by a metre', async () => {
  const ring = footprint.coordinates[0].map(([x, y], i) => (i === 1 ? [x + 0.00001, y] : [x, y]));
  const r = await verify(evidence, evidence, { type: 'Polygon', coordinates: [[...ring.slice(0, -1), ring[0]]] });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^ok {3}signature: /m);
  assert.match(r.stdout, /^FAIL boundary: the boundary given is not the one read/m);
});

test('page 1 of the evidence PDF prints the boundary\'s digest, centroid, box and area beside its map', async () => {
  const wrapper = { plot_id: 'p1', external_ref: 'TH-1', state: 'done' as const, issued: evidence.issued, evidence, integrity: sealEvidence(evidence, fixtureKey()), archive_review: null };
  const first = (await pdfText(await evidencePdf({ wrapper, register: { commodity: 'rubber' }, map: null }, { baseUrl: 'http://127.0.0.1/api/v1' }))).pages[0].replace(/\s+/g, ' ');
  const b = evidence.boundary!;
  assert.ok(first.includes('The boundary read'), first.slice(0, 800));
  assert.ok(first.replace(/ /g, '').includes(b.digest), 'the digest');
  assert.ok(first.includes(`${b.centroid[0].toFixed(6)}, ${b.centroid[1].toFixed(6)}`), 'the centroid');
  assert.ok(first.includes(b.bbox.map((v) => v.toFixed(6)).join(', ')), 'the box');
  assert.ok(first.includes(`${b.area_ha.toFixed(2)} ha`), 'the area');
});

import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { importPlots, validatePlotFile, type ImportAnswer } from '../../src/intake/import-plots.ts';
import { HTTP_STATUS } from '../../src/api/errors.ts';
import { DomainError } from '../../src/errors.ts';
import { createIntakePool } from '../../src/intake/pool.ts';
import { DEFAULT_CAPS } from '../../src/intake/limits.ts';
import { createProducer } from '../../src/intake/producer-register.ts';
import type { Em } from '../../src/store/orm.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { REAL_FILES } from '../support/refdata.ts';

// Files are judged as the API judges them: on the intake pool's thread, refusals carried back.
const intake = createIntakePool(1, 16, DEFAULT_CAPS);
after(() => intake.close());

/** A square plot of about `sideM` metres near Kumasi, Ghana, shifted north by `northM` metres. */
function square(west: number, south: number, sideM = 250, northM = 0): number[][][] {
  const dLat = sideM / 110_574;
  const dLon = sideM / (111_320 * Math.cos((south * Math.PI) / 180));
  const s = south + northM / 110_574;
  return [[[west, s], [west + dLon, s], [west + dLon, s + dLat], [west, s + dLat], [west, s]]];
}

type Feature = { properties: Record<string, unknown>; geometry: unknown };

const feature = (properties: Record<string, unknown>, geometry: unknown): Feature => ({ properties, geometry });
const polygon = (west: number, south: number, northM = 0) => ({ type: 'Polygon', coordinates: square(west, south, 250, northM) });

function geojson(features: Feature[]): Buffer {
  return Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: features.map((f) => ({ type: 'Feature', ...f })) }));
}

/** Every stored column of every plot, in order: what "the register as it was" means. */
async function dump(em: Em): Promise<string> {
  return JSON.stringify(await em.execute('select * from plots order by seq'));
}

async function refusalOf(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail('the upload was taken');
}

const BOOK = [
  feature({ ref: 'A-1', commodity: 'cocoa', producer: 'Coop  ALPHA' }, polygon(-1.60, 6.70)),
  feature({ ref: 'A-2', commodity: 'cocoa', producer: 'Twin Farms' }, polygon(-1.61, 6.70)),
  feature({ ref: 'A-3', commodity: 'cocoa', producer: 'Nobody Known' }, polygon(-1.62, 6.70)),
  feature({ ref: 'A-1', commodity: 'cocoa' }, polygon(-1.63, 6.70)),
  feature({ commodity: 'cocoa', area_ha: 2 }, { type: 'Point', coordinates: [-1.64, 6.7] }),
  feature({ ref: 'A-5', commodity: 'cocoa' }, { type: 'LineString', coordinates: [[-1.65, 6.7], [-1.651, 6.701]] }),
  feature({ ref: 'A-6', commodity: 'cocoa' }, { type: 'Point', coordinates: [-1.66, 6.7] }),
];

for (const backend of BACKENDS) {
  describe(`plot import (${backend})`, () => {
    let db: TestStore;
    let workspaceId: string;
    const em = () => db.store.em();
    const run = (features: Feature[], country: string | null = 'GH') =>
      importPlots(em(), intake.judge, { workspaceId, bytes: geojson(features), filename: 'book.geojson', country });
    const setEvidence = (ref: string, state: string) =>
      em().execute(
        `update plots set evidence_state = ?, verdict = 'prior_management_evidenced', reason = 'cycle_and_structure_agree',
           evidence_at = now(), evidence_facts = '{"seasons_measured":4}', post_cutoff_loss_share = 0 where workspace_id = ? and external_ref = ?`,
        [state, workspaceId, ref],
      );
    const stored = async (ref: string) =>
      (await em().execute('select * from plots where workspace_id = ? and external_ref = ?', [workspaceId, ref]))[0] as Record<string, any>;

    before(async () => {
      db = await testStore(backend);
    });
    after(() => db.close());
    beforeEach(async () => {
      workspaceId = crypto.randomUUID();
      await createProducer(em(), workspaceId, { name: 'Coop Alpha', country: 'GH' });
      await createProducer(em(), workspaceId, { name: 'Twin Farms', reference: 'TF-1' });
      await createProducer(em(), workspaceId, { name: 'twin  farms', reference: 'TF-2' });
    });

    test('a first import counts every plot: created, repeated refs, unreferenced, producers matched, unmatched and ambiguous', async () => {
      const answer = await run(BOOK);
      assert.deepEqual(answer.imported, {
        created: 6,
        updated: 0,
        skipped: 0,
        duplicate_refs: 1,
        unreferenced_inserted: 1,
        registered: 7,
        producers_matched: 1,
        producers_unmatched: 2,
        evidence_stale: 0,
        evidence_in_flight: 0,
      });
      assert.equal(answer.country, 'GH');
      const byIndex = answer.plots;
      assert.equal(byIndex[3].outcome, 'duplicate_ref');
      assert.notEqual(byIndex[3].plot_id, null, 'the repeat is stored, rejected, without the ref');
      assert.ok(byIndex[1].findings.some((f) => f.code === 'producer_ambiguous'));
      assert.ok(byIndex[2].findings.some((f) => f.code === 'producer_not_found'));
      const first = await stored('A-1');
      assert.equal(first.id, byIndex[0].plot_id);
      assert.equal(first.producer_id, byIndex[0].producer_id);
      assert.notEqual(first.producer_id, null);
      assert.equal((await stored('A-2')).producer_id, null);
      // The first plot with a ref keeps it: A-1 is the plot at -1.60, not the repeat at -1.63.
      assert.equal((first.geometry as { coordinates: number[][][] }).coordinates[0][0][0], -1.6);
      const rows = await em().execute('select count(*)::int as n from plots where workspace_id = ?', [workspaceId]);
      assert.equal(rows[0].n, 7);
    });

    test('rejected plots are stored with their findings, and points hold their declared area or 4 ha', async () => {
      const answer = await run(BOOK);
      const line = await stored('A-5');
      assert.equal(line.validation_state, 'rejected');
      assert.equal(line.geometry, null);
      assert.deepEqual(line.validation_report.rejections.map((f: { code: string }) => f.code), ['unsupported_geometry_type']);
      assert.equal((await stored('A-6')).area_ha, 4);
      const unreferenced = answer.plots[4];
      assert.equal(unreferenced.area_ha, 2);
      const row = (await em().execute('select area_ha, external_ref from plots where id = ?', [unreferenced.plot_id]))[0];
      assert.deepEqual({ ...row }, { area_ha: 2, external_ref: null });
    });

    test('re-uploading the same file changes nothing and keeps finished evidence', async () => {
      await run(BOOK);
      await setEvidence('A-1', 'done');
      const before = await dump(em());
      const again = await run(BOOK);
      assert.equal(again.imported.skipped, 5);
      assert.equal(again.imported.created, 1, 'the plot without a ref cannot be matched, so it is added again');
      assert.equal(again.imported.updated, 0);
      assert.equal(again.imported.evidence_stale, 0);
      const a1 = await stored('A-1');
      assert.equal(a1.evidence_state, 'done');
      assert.equal(a1.verdict, 'prior_management_evidenced');
      const kept = JSON.parse(before).filter((r: { external_ref: string | null }) => r.external_ref !== null);
      const now = JSON.parse(await dump(em())).filter((r: { external_ref: string | null }) => r.external_ref !== null);
      assert.deepEqual(now, kept);
    });

    test('a boundary moved 5 mm keeps finished evidence; 5 cm withdraws it and the report says stale', async () => {
      await run([feature({ ref: 'M-1' }, polygon(-1.6, 6.7)), feature({ ref: 'M-2' }, polygon(-1.7, 6.7))]);
      await setEvidence('M-1', 'done');
      await setEvidence('M-2', 'done');
      const answer = await run([feature({ ref: 'M-1' }, polygon(-1.6, 6.7, 0.005)), feature({ ref: 'M-2' }, polygon(-1.7, 6.7, 0.05))]);
      assert.equal(answer.imported.updated, 2);
      assert.equal(answer.imported.evidence_stale, 1);
      assert.equal(answer.plots[0].evidence, undefined);
      assert.equal(answer.plots[1].evidence, 'stale');
      const mm = await stored('M-1');
      assert.equal(mm.evidence_state, 'done');
      assert.equal(mm.verdict, 'prior_management_evidenced');
      assert.deepEqual(mm.geometry.coordinates, square(-1.6, 6.7, 250, 0.005));
      const cm = await stored('M-2');
      assert.equal(cm.evidence_state, 'none');
      for (const column of ['verdict', 'reason', 'evidence_at', 'evidence_facts', 'post_cutoff_loss_share']) assert.equal(cm[column], null, column);
      assert.deepEqual(cm.geometry.coordinates, square(-1.7, 6.7, 250, 0.05));
    });

    test('a large file is matched plot by plot however far into it a plot lies', async () => {
      const points = (northM: number) =>
        Array.from({ length: 5003 }, (_, i) => feature({ ref: `L-${i}` }, { type: 'Point', coordinates: [-1.6 + i * 1e-4, 6.7 + (i === 5002 ? northM / 110_574 : 0)] }));
      await run(points(0));
      await setEvidence('L-5002', 'done');
      const answer = await run(points(0.05));
      assert.deepEqual([answer.imported.skipped, answer.imported.updated, answer.imported.evidence_stale, answer.imported.created], [5002, 1, 1, 0]);
      assert.equal(answer.plots[5002].evidence, 'stale');
      assert.equal((await stored('L-5002')).evidence_state, 'none');
    });

    test('a boundary moved while a read is queued or running keeps the state and the report says in_flight', async () => {
      await run([feature({ ref: 'Q-1' }, polygon(-1.6, 6.7)), feature({ ref: 'R-1' }, polygon(-1.7, 6.7)), feature({ ref: 'N-1' }, polygon(-1.8, 6.7))]);
      await setEvidence('Q-1', 'queued');
      await setEvidence('R-1', 'running');
      const answer = await run([
        feature({ ref: 'Q-1' }, polygon(-1.6, 6.7, 0.05)),
        feature({ ref: 'R-1' }, polygon(-1.7, 6.7, 0.05)),
        feature({ ref: 'N-1' }, polygon(-1.8, 6.7, 0.05)),
      ]);
      assert.equal(answer.imported.evidence_in_flight, 2);
      assert.equal(answer.imported.evidence_stale, 0);
      assert.deepEqual(answer.plots.map((p) => p.evidence), ['in_flight', 'in_flight', undefined]);
      assert.equal((await stored('Q-1')).evidence_state, 'queued');
      assert.equal((await stored('R-1')).evidence_state, 'running');
      assert.equal((await stored('R-1')).verdict, 'prior_management_evidenced');
      assert.equal((await stored('N-1')).evidence_state, 'none');
    });

    test('a file that names no country leaves the stored country untouched; one that names another replaces it', async () => {
      await run([feature({ ref: 'C-1' }, polygon(-1.6, 6.7))], 'GH');
      const none = await run([feature({ ref: 'C-1', commodity: 'coffee' }, polygon(-1.6, 6.7))], null);
      assert.equal(none.imported.updated, 1);
      assert.equal(none.plots[0].country, 'GH');
      assert.equal((await stored('C-1')).country, 'GH');
      assert.equal((await stored('C-1')).commodity, 'coffee');
      await run([feature({ ref: 'C-1', country: 'Côte d’Ivoire' }, polygon(-1.6, 6.7))], null);
      assert.equal((await stored('C-1')).country, 'CI');
    });

    test('a producer name that matches none leaves an attached producer in place; a match replaces it', async () => {
      await run([feature({ ref: 'P-1', producer: 'coop alpha' }, polygon(-1.6, 6.7))]);
      const attached = (await stored('P-1')).producer_id;
      assert.notEqual(attached, null);
      const unmatched = await run([feature({ ref: 'P-1', producer: 'Unknown' }, polygon(-1.6, 6.7))]);
      assert.equal(unmatched.imported.producers_unmatched, 1);
      assert.equal((await stored('P-1')).producer_id, attached);
      const beta = await createProducer(em(), workspaceId, { name: 'Beta' });
      await run([feature({ ref: 'P-1', producer: 'BETA' }, polygon(-1.6, 6.7))]);
      assert.equal((await stored('P-1')).producer_id, beta.id);
    });

    test('validate answers the same report and stores nothing', async () => {
      const before = await dump(em());
      const report = await validatePlotFile(em(), intake.judge, { workspaceId, bytes: geojson(BOOK), filename: 'book.geojson', country: 'Ghana' });
      assert.equal(await dump(em()), before);
      assert.equal(report.country, 'GH');
      const imported = await run(BOOK);
      const strip = ({ plot_id: _id, outcome: _o, evidence: _e, ...rest }: ImportAnswer['plots'][number]) => rest;
      assert.deepEqual(report.plots, imported.plots.map(strip));
      assert.deepEqual(report.notes, imported.notes);
    });

    const refused: [string, () => Buffer, string | null, string][] = [
      ['a file over 100,000 plots', () => Buffer.from(`ref,lon,lat\n${Array.from({ length: 100_001 }, (_, i) => `X-${i},-1.6,6.7`).join('\n')}\n`), 'GH', 'too_many_plots'],
      ['a broken zip', () => Buffer.concat([Buffer.from(zipSync({ 'plots.shp': strToU8('not a shapefile at all') })).subarray(0, 40)]), 'GH', 'bad_zip'],
      ['an unknown country', () => geojson(BOOK), 'Atlantis', 'unknown_country'],
      ['invalid JSON', () => Buffer.from('{"type":"FeatureCollection","features":[{"type":'), 'GH', 'bad_json'],
    ];
    for (const [what, bytes, country, code] of refused) {
      test(`${what} is refused with ${code} and leaves the register exactly as it was`, async () => {
        await run(BOOK);
        await setEvidence('A-1', 'done');
        const before = await dump(em());
        const error = await refusalOf(importPlots(em(), intake.judge, { workspaceId, bytes: bytes(), filename: 'upload', country }));
        assert.equal(error.code, code);
        assert.equal(await dump(em()), before);
      });
    }

    test('an unknown country refusal lists the accepted forms', async () => {
      const error = await refusalOf(run(BOOK, 'Atlantis'));
      assert.equal(HTTP_STATUS[error.code], 422);
      assert.match(error.message, /alpha-2.*alpha-3.*English or French name/);
    });

    test('a write that fails part-way rolls the whole file back, inserts and updates included', async () => {
      await run([feature({ ref: 'T-1', commodity: 'cocoa' }, polygon(-1.6, 6.7)), feature({ ref: 'BOOM', commodity: 'cocoa' }, polygon(-1.7, 6.7))]);
      await setEvidence('T-1', 'done');
      const before = await dump(em());
      // The failure comes last: after every insert and after T-1's update in the same statement.
      await em().execute(`create function refuse_boom() returns trigger language plpgsql as $$
        begin raise exception 'refused by test trigger'; end $$`);
      await em().execute(`create trigger refuse_boom before update on plots for each row when (new.commodity = 'boom') execute function refuse_boom()`);
      try {
        const features = [feature({ ref: 'T-1', commodity: 'coffee' }, polygon(-1.6, 6.7, 1))];
        for (let i = 0; i < 6000; i++) features.push(feature({ ref: `T-${i + 2}` }, { type: 'Point', coordinates: [-1.6 + i * 1e-4, 6.7] }));
        features.push(feature({ ref: 'BOOM', commodity: 'boom' }, polygon(-1.7, 6.7)));
        await assert.rejects(run(features), /refused by test trigger/);
        assert.equal(await dump(em()), before);
      } finally {
        await em().execute('drop trigger refuse_boom on plots');
        await em().execute('drop function refuse_boom()');
      }
    });

    test('refs and properties holding quotes, backslashes, question marks and dollar signs are stored as written', async () => {
      const awkward = [`O'Brien \\ "farm" ?`, '$$ $j0123456789ab$ ?? \\x00', 'naïve – 100% _cocoa_'];
      const answer = await run(awkward.map((ref, i) => feature({ ref, commodity: ref }, polygon(-1.6 - i * 0.01, 6.7))));
      assert.equal(answer.imported.created, 3);
      for (const ref of awkward) assert.equal((await stored(ref)).commodity, ref);
      const again = await run(awkward.map((ref, i) => feature({ ref, commodity: ref }, polygon(-1.6 - i * 0.01, 6.7))));
      assert.equal(again.imported.skipped, 3);
    });

    test('plots of another workspace with the same refs are neither matched nor touched', async () => {
      await run(BOOK);
      const other = crypto.randomUUID();
      const answer = await importPlots(em(), intake.judge, { workspaceId: other, bytes: geojson(BOOK), filename: 'b.geojson', country: 'GH' });
      assert.equal(answer.imported.created, 6);
      assert.equal(answer.imported.skipped, 0);
      const counts = await em().execute('select workspace_id, count(*)::int as n from plots where workspace_id in (?, ?) group by workspace_id', [workspaceId, other]);
      assert.deepEqual(counts.map((r) => r.n), [7, 7]);
    });
  });
}


for (const backend of BACKENDS) {
  describe(`reference plot files import (${backend})`, () => {
    let db: TestStore;
    before(async () => {
      db = await testStore(backend);
    });
    after(() => db.close());
    for (const [path, count, country] of REAL_FILES) {
      test(`${path}: ${count} plot(s) registered, none rejected`, async () => {
        const workspaceId = crypto.randomUUID();
        const bytes = readFileSync(`../shared/refdata/plots/${path}`);
        const answer = await importPlots(db.store.em(), intake.judge, { workspaceId, bytes, filename: path, country });
        assert.equal(answer.imported.registered, count);
        const rows = await db.store.em().execute('select validation_state, area_ha, country, geometry from plots where workspace_id = ?', [workspaceId]);
        assert.equal(rows.length, count);
        assert.ok(rows.every((r) => r.validation_state !== 'rejected' && r.area_ha > 0 && r.geometry !== null));
        assert.ok(rows.every((r) => r.country === country));
      });
    }
  });
}

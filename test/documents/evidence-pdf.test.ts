import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { historyNotRead, type HistoryNotRead } from '../../src/engine/context/history.ts';
import { RULES, type ReasonCode } from '../../src/engine/decide.ts';
import { canonicalJson, sealEvidence } from '../../src/engine/integrity.ts';
import type { EvidenceObject, EvidencePart } from '../../src/engine/evidence-object.ts';
import { evidencePdf, type EvidenceDocumentInput } from '../../src/documents/evidence-pdf.ts';
import { VERDICT_MEANINGS } from '../../src/documents/meanings.ts';
import { fixtureKey, fixtureMap, fixtureWrapper, type FixtureOptions } from '../fixtures/evidence-wrapper.ts';
import { pdfText } from './pdf-text.ts';

const OPTIONS = { baseUrl: 'https://evidence.example.org/api/v1' };

async function render(fixture: FixtureOptions = {}, withChip = true): Promise<{ input: EvidenceDocumentInput; pdf: Buffer }> {
  const input: EvidenceDocumentInput = { wrapper: fixtureWrapper(fixture), register: { commodity: 'rubber' }, map: await fixtureMap(withChip) };
  return { input, pdf: await evidencePdf(input, OPTIONS) };
}

/** Collapses the line breaks a table cell may add inside a sentence. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the evidence document of a four-season rubber plot', () => {
  let input: EvidenceDocumentInput;
  let pdf: Buffer;
  let pages: string[];
  let text: string;
  before(async () => {
    ({ input, pdf } = await render());
    ({ pages, text } = await pdfText(pdf));
  });

  test('is a PDF of several pages that a reader opens', () => {
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(pdf.subarray(-8).toString('latin1'), /%%EOF\s*$/);
    assert.ok(pages.length >= 4, `${pages.length} pages`);
  });

  test('carries the verdict with its plain meaning, the reason and the finding sentence', () => {
    const e = input.wrapper.evidence;
    assert.ok(text.includes(e.verdict));
    assert.ok(text.includes(VERDICT_MEANINGS[e.verdict].title));
    assert.ok(text.includes(e.reason));
    assert.ok(flat(text).includes(e.finding));
  });

  test('carries every scene identifier behind the figures, kept and skipped', () => {
    const e = input.wrapper.evidence;
    assert.ok(e.scenes.length > 100 && e.skipped.length > 50);
    for (const id of [...e.scenes, ...e.skipped.map((s) => s.scene)]) assert.ok(text.includes(id), `${id} is missing`);
    assert.ok(text.includes(input.map!.chip!.scene));
  });

  test('carries the digest of the stored object on every page, and the signature and key id', () => {
    const { digest, signature, key_id } = input.wrapper.integrity;
    for (const [i, page] of pages.entries()) assert.ok(page.includes(digest), `page ${i + 1} lacks the digest`);
    assert.ok(text.replace(/\s+/g, '').includes(signature));
    assert.ok(text.includes(key_id));
    assert.ok(flat(text).includes(`${OPTIONS.baseUrl}/evidence/public-key`));
    assert.ok(flat(text).includes('RFC 8785'));
  });

  test('states the demo archive\'s synthetic origin on every page', () => {
    for (const [i, page] of pages.entries()) assert.ok(page.includes('SYNTHETIC DEMO DATA'), `page ${i + 1} lacks the label`);
  });

  test('carries the plot, each instrument\'s answer, the terrain, the context blocks\' sources and the calibration', () => {
    const e = input.wrapper.evidence;
    const t = flat(text);
    for (const needle of [
      'SRT-0412', input.wrapper.plot_id, 'rubber', 'Thailand (TH)', '9.20 ha',
      e.radar.instrument, e.height.instrument, e.terrain.source, '3.2 °',
      'JRC Tropical Moist Forest', '© OpenStreetMap contributors', 'ODbL 1.0', 'Google Open Buildings 2.5D Temporal',
      'Commission Implementing Regulation (EU) 2025/1093', e.calibration.note, 'Limitations',
    ]) {
      assert.ok(t.includes(needle), `"${needle}" is missing`);
    }
    assert.equal((t.match(/not forest-like \(reads as a crop\)/g) ?? []).length, 3);
  });
});

test('a document carries every reason code it lists, each with its meaning, whole', async () => {
  const all = RULES.map((r) => r.code) as ReasonCode[];
  const { pdf } = await render({ edit: (e) => { e.verdict = 'prior_management_weak'; e.reason = all[0]; e.reasons = all; } });
  const { text } = await pdfText(pdf);
  for (const code of all) assert.ok(text.includes(code), `${code} is missing or broken across lines`);
  assert.ok(text.includes(VERDICT_MEANINGS.prior_management_weak.title));
});

test('a withheld plot under the floor shows both reasons and the floor\'s next step', async () => {
  const { pdf, input } = await render({
    edit: (e) => {
      e.plot_area_km2 = 0.024;
      e.verdict = 'prior_management_weak';
      e.reasons = ['cycle_and_structure_agree', 'plot_below_evidence_floor'];
      e.next_step = { code: 'below_evidence_floor', note: 'The plot is under the 4 ha evidence floor: test note.' };
    },
  });
  const t = flat((await pdfText(pdf)).text);
  assert.equal(input.wrapper.evidence.reasons.length, 2);
  assert.ok(t.includes('plot_below_evidence_floor'));
  assert.ok(t.includes('below_evidence_floor'));
  assert.ok(t.includes('this plot is under it'));
  assert.ok(t.includes('2.40 ha'));
});

test('says what share of the plot each read had data for, and that a read under 95% gave no answer', async () => {
  const { pdf } = await render({
    edit: (e) => {
      e.read.coverage = 0.62;
      e.radar.coverage = 0.6;
      e.radar.forest_like = null;
      e.height.coverage = 0.9978;
    },
  });
  const t = flat((await pdfText(pdf)).text);
  assert.ok(t.includes('Share of the plot read 62.0%: under 95%, so it gives no answer or share'), 'the optical record');
  assert.ok(t.includes('Share of the plot read 60.0%: under 95%'), 'the radar');
  assert.ok(t.includes('Share of the plot read 99.8%'), 'the canopy height');
  assert.ok(!t.includes('99.8%: under 95%'));
});

test('the same stored object gives the same bytes; a changed one gives another document with its own digest', async () => {
  const a = await render();
  const b = await render();
  assert.ok(a.pdf.equals(b.pdf));
  const changed = await render({ edit: (e) => { e.seasons[1].depth = 0.301; } });
  assert.notEqual(changed.input.wrapper.integrity.digest, a.input.wrapper.integrity.digest);
  assert.ok(!changed.pdf.equals(a.pdf));
  const text = (await pdfText(changed.pdf)).text;
  assert.ok(text.includes(changed.input.wrapper.integrity.digest));
  assert.ok(!text.includes(a.input.wrapper.integrity.digest));
  assert.ok(text.includes('0.301'));
});

test('the digest printed is the SHA-256 of the canonical object the document was rendered from', async () => {
  const { input, pdf } = await render();
  const reseal = sealEvidence(JSON.parse(canonicalJson(input.wrapper.evidence)), fixtureKey());
  assert.equal(reseal.digest, input.wrapper.integrity.digest);
  assert.ok((await pdfText(pdf)).text.includes(reseal.digest));
});

test('withdrawn decision lines never reach the document, even when a stored object carries them', async () => {
  const { pdf } = await render({
    edit: (e) => {
      Object.assign(e.radar, { threshold_db: -1.987654, evergreen_hh_hv_min_db: 4.876543 });
      Object.assign(e.structure, { threshold: 0.345678, aot_limit: 0.765432 });
      Object.assign(e.height, { crop_line_m: 17.654321, forest_line_m: 23.456789 });
      Object.assign(e.terrain, { max_slope_deg: 21.123456 });
    },
  });
  const text = (await pdfText(pdf)).text;
  for (const needle of ['threshold', 'aot_limit', 'crop_line', 'forest_line', 'max_slope', 'evergreen_hh_hv_min', '1.98', '4.87', '0.345', '0.765', '17.65', '23.45', '21.12']) {
    assert.ok(!text.includes(needle), `"${needle}" reached the document`);
  }
});

test('real-archive evidence carries no synthetic label', async () => {
  const { pdf } = await render({ synthetic: false });
  const { pages } = await pdfText(pdf);
  for (const page of pages) assert.ok(!page.includes('SYNTHETIC'));
});

test('without a stored chip the map draws the footprint alone and says so', async () => {
  const { pdf } = await render({}, false);
  const t = flat((await pdfText(pdf)).text);
  assert.ok(t.includes('No true-colour chip was stored with this evidence: the footprint is drawn alone'));
  assert.ok(t.includes('no scene (footprint drawn alone)'));
});

test('a plot read with seasons without an answer lists them', async () => {
  const { pdf } = await render({
    seasons: 3,
    edit: (e) => {
      e.verdict = 'insufficient_record';
      e.reason = 'record_too_thin';
      e.reasons = ['record_too_thin'];
      e.seasons[0] = { ...e.seasons[0], no_answer: true, dipped: false, trough: null, trough_date: null, depth: null, plateau: null };
      e.seasons_without_answer = [e.seasons[0].season];
    },
  });
  const t = flat((await pdfText(pdf)).text);
  assert.ok(t.includes('Seasons without an answer 2018'));
  assert.ok(t.includes('no answer'));
});

test('a document renders when no context block could be read, and says so once per block without claiming an absence', async () => {
  const unread = { available: false, note: 'Not read by this version of the service.' };
  const { pdf } = await render({
    edit: (e) => {
      e.history = { ...unread, checked: false, note_on_read: unread.note };
      e.settlement = { ...unread };
      e.forest_types = { ...unread };
      e.commodity_maps = { rubber: { ...unread }, oil_palm: { ...unread } };
      e.risk = {
        note: 'Context for the risk assessment of Article 10; it changes no verdict, reason or finding.',
        article: 'Article 10 of Regulation (EU) 2023/1115',
        protected_area: { ...unread },
        neighbourhood: { ...unread },
        country: { country: null, country_name: null, classification: null, enumerated: null, consequence: 'No country of production was given.' },
      };
      e.post_cutoff_loss = null;
    },
  });
  const t = flat((await pdfText(pdf)).text);
  assert.ok(!t.includes('Not read. Not read'));
  assert.ok(!t.includes('dates no loss'), 'an unread record is not a record without loss');
  assert.ok(t.includes('the Landsat record was not read'));
  assert.ok(t.includes('This is not a plot without history.'));
  assert.ok(t.includes('No country of production was given.'));
  assert.ok((t.match(/Not read by this version of the service\./g) ?? []).length >= 7);
});

test('a plot in several parts shows each part\'s answer in a table; a plot in one part has no such table', async () => {
  const part = (n: number, verdict: EvidenceObject['verdict'], reasons: ReasonCode[], read: boolean, finding: string): EvidencePart => ({
    part: n, area_ha: 5.125, centroid: [99.13, 8.85], read, not_read: read ? null : 'no archive covers the plot', verdict, reason: reasons[0], reasons,
    pixels: read ? 512 : 0, scenes_kept: read ? 40 : 0, seasons_observed: read ? 5 : 0, tiles: { radar: read ? 'N09E099' : null, height: read ? 'N06E099' : null }, protected_area_intersects: read ? false : null, finding,
  });
  const { pdf } = await render({
    edit: (e) => {
      e.parts = [
        part(1, 'prior_management_evidenced', ['cycle_and_structure_agree'], true, 'Established plantation before the cutoff on part one.'),
        part(2, 'insufficient_record', ['record_too_thin'], false, 'Nothing was read on this part: no archive covers the plot.'),
      ];
    },
  });
  const t = flat((await pdfText(pdf)).text);
  assert.ok(t.includes('The plot was uploaded in 2 parts.'), t.slice(0, 400));
  assert.ok(t.includes('Established plantation before the cutoff on part one.'));
  assert.ok(t.includes('Nothing was read on this part: no archive covers the plot.'));
  assert.ok(t.includes('512 px, 5 seasons'));
  assert.ok(t.includes('not read'));
  assert.equal((t.match(/5\.13 ha/g) ?? []).length, 2);
  const single = flat((await pdfText((await render()).pdf)).text);
  assert.ok(!single.includes('The plot was uploaded in'));
});

test('the floor row says when parts of a plot above the floor are under it, and when a point\'s area is not known to reach it', async () => {
  const small = (n: number): EvidencePart => ({
    part: n, area_ha: 0.46, centroid: [99.13, 8.85], read: true, not_read: null, verdict: 'prior_management_weak', reason: 'cycle_and_structure_agree',
    reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'], pixels: 46, scenes_kept: 40, seasons_observed: 5,
    tiles: { radar: 'N09E099', height: 'N06E099' }, protected_area_intersects: false, finding: 'Withheld: this part is under the 4 ha evidence floor.',
  });
  const parts = flat((await pdfText((await render({ edit: (e) => { e.plot_area_km2 = 0.0414; e.parts = Array.from({ length: 9 }, (_, k) => small(k + 1)); } })).pdf)).text);
  assert.ok(parts.includes('the plot is above it, but 9 of its 9 parts are under it, and the floor applies to each part'));
  const point = flat((await pdfText((await render({
    edit: (e) => { e.plot_area_km2 = 0.04; e.verdict = 'prior_management_weak'; e.reasons = ['cycle_and_structure_agree', 'plot_below_evidence_floor']; },
  })).pdf)).text);
  assert.ok(point.includes('the plot\'s own area is not known to reach it (a point with no declared area)'));
  assert.ok(flat((await pdfText((await render()).pdf)).text).includes('this plot is above it'));
});

test('ground outside the Landsat record\'s tiles reads "Not covered", a tile that could not be read "Not read"', async () => {
  const provenance = { source: 'JRC Tropical Moist Forest', version: 'v1_2025', licence: 'free', citation: 'Vancutsem et al. 2021', acknowledgement: 'Source: EC JRC' };
  const lead = async (kind: HistoryNotRead['kind']) => {
    const history = historyNotRead(provenance, { kind, tile: 'N40_E0', why: 'a reason' }, false).history;
    const { pdf } = await render({ edit: (e) => { e.history = { ...history }; } });
    const t = flat((await pdfText(pdf)).text);
    assert.equal(t.match(/This is not a plot without history\./g)?.length, 1, 'said once');
    return /Landsat moist-forest record, 1990 to 2025 history (Not \w+)\./.exec(t)?.[1];
  };
  assert.equal(await lead('outside_coverage'), 'Not covered');
  assert.equal(await lead('unreadable'), 'Not read');
});

/**
 * The archive reading's rule (spec 2.14: "an archive reading on record supports cultivation before
 * the cutoff") table-tested, and its own seal: a digest over the reading's canonical JSON and an
 * Ed25519 signature under the evidence key.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { sealReading, supportsPreCutoffCultivation, type ArchiveObservation, type ReadingInput } from '../../src/engine/archive-reading.ts';
import { canonicalJson } from '../../src/engine/integrity.ts';
import { verifyDigest } from '../../src/engine/signing.ts';
import { fixtureKey } from '../fixtures/evidence-wrapper.ts';

const input = (acquired_on: string, observed: ArchiveObservation, plot_share: number): ReadingInput => ({
  scene_id: '104001005C8E1A00', provider: 'Maxar archive', acquired_on, observed, plot_share, reviewer: 'A. Reviewer', statement: 'Rows of trees across the plot.',
});

describe('a reading supports cultivation before the cutoff only dated on or before 2020-12-31, cultivated, over the whole plot', () => {
  const table: Array<[string, ArchiveObservation, number, boolean]> = [
    ['2020-12-31', 'cultivated', 1, true],
    ['2019-03-02', 'cultivated', 1, true],
    ['2021-01-01', 'cultivated', 1, false],
    ['2023-06-15', 'cultivated', 1, false],
    ['2020-06-01', 'cultivated', 0.99, false],
    ['2020-06-01', 'cultivated', 0.5, false],
    ['2020-06-01', 'forest', 1, false],
    ['2020-06-01', 'cleared', 1, false],
    ['2020-06-01', 'unclear', 1, false],
  ];
  for (const [date, observed, share, supports] of table) {
    test(`${date}, ${observed}, ${share * 100}% of the plot: ${supports ? 'supports' : 'does not support'}`, () => {
      assert.equal(supportsPreCutoffCultivation(input(date, observed, share)), supports);
      const review = sealReading(input(date, observed, share), { id: randomUUID(), plotId: randomUUID(), evidenceDigest: 'a'.repeat(64), at: new Date() }, fixtureKey());
      assert.equal(review.reading.supports_pre_cutoff_cultivation, supports);
    });
  }
});

test('a sealed reading carries the digest of its canonical JSON and a signature that verifies under the evidence key, and no other reading\'s', () => {
  const key = fixtureKey();
  const at = new Date('2026-11-24T06:00:00Z');
  const review = sealReading(input('2019-03-02', 'cultivated', 1), { id: randomUUID(), plotId: randomUUID(), evidenceDigest: 'b'.repeat(64), at }, key);
  assert.deepEqual([review.reading.filed_at, review.reading.cutoff, review.reading.evidence_digest], [at.toISOString(), '2020-12-31', 'b'.repeat(64)]);
  const digest = createHash('sha256').update(canonicalJson(review.reading), 'utf8').digest('hex');
  assert.equal(review.integrity.digest, digest);
  assert.equal(review.integrity.key_id, key.keyId);
  assert.ok(verifyDigest(key.publicKeyPem, review.integrity.digest, review.integrity.signature));
  const altered = { ...review.reading, observed: 'forest' };
  const alteredDigest = createHash('sha256').update(canonicalJson(altered), 'utf8').digest('hex');
  assert.ok(!verifyDigest(key.publicKeyPem, alteredDigest, review.integrity.signature));
});

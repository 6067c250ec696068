import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES } from '../../src/engine/decide.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from '../../src/documents/meanings.ts';

test('every reason code of the rule table has one plain meaning, and no other code has one', () => {
  const codes = RULES.map((r) => r.code).sort();
  // The 20 codes of spec 2.10 and the three this service adds: record_covers_part_of_plot,
  // ground_not_shown_uniform and surroundings_show_the_same_dip.
  assert.equal(codes.length, 23);
  assert.deepEqual(Object.keys(REASON_MEANINGS).sort(), codes);
  const texts = Object.values(REASON_MEANINGS);
  assert.equal(new Set(texts).size, texts.length);
  for (const t of texts) assert.match(t, /^[A-Z].{30,}\.$/);
});

test('every verdict the rules give has a title and a meaning', () => {
  const verdicts = [...new Set(RULES.map((r) => r.verdict))].sort();
  assert.deepEqual(Object.keys(VERDICT_MEANINGS).sort(), verdicts);
  for (const v of Object.values(VERDICT_MEANINGS)) {
    assert.ok(v.title.length > 5);
    assert.match(v.meaning, /\.$/);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { streamedJson } from '../../src/api/streamed-json.ts';

test('a streamed answer is the text JSON.stringify gives, across many chunks', async () => {
  const plots = Array.from({ length: 5000 }, (_, i) => ({ index: i, ref: `P-${i}`, findings: [{ code: 'low_precision', message: `"${i}" – ✓` }], evidence: undefined }));
  const answer = { imported: { created: 5000 }, country: 'GH', notes: ['one'], row_errors: [], plots };
  assert.equal(await text(streamedJson(answer, 'plots')), JSON.stringify(answer));
  assert.equal(await text(streamedJson({ country: null, plots: [] }, 'plots')), '{"country":null,"plots":[]}');
});

test('a list that is not the last member is refused rather than reordered', () => {
  assert.throws(() => streamedJson({ plots: [1], country: 'GH' }, 'plots'), /must be the answer's last member/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField } from '../../src/documents/book-summary.ts';

test('a CSV field holding a separator, a quote or a line break is quoted (RFC 4180), semicolons included', () => {
  assert.equal(csvField('a;b'), '"a;b"');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField(null), '');
});

test('a text field a spreadsheet would run as a formula starts with an apostrophe; numbers stay numbers', () => {
  for (const prefix of ['=', '+', '-', '@', '\t']) assert.equal(csvField(`${prefix}SUM(A1)`), `'${prefix}SUM(A1)`);
  assert.equal(csvField('\rcmd'), '"\'\rcmd"', 'a leading carriage return is neutralised and, being a line break, quoted');
  assert.equal(csvField('=1+2;3'), '"\'=1+2;3"');
  assert.equal(csvField(-3.5), '-3.5');
  assert.equal(csvField(12), '12');
});

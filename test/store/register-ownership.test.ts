import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../../src');
const STORE = path.join(SRC, 'store');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === STORE ? [] : sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** A statement naming the register's tables, or an ORM query over their entities. */
const SQL_OVER_REGISTER = /\b(?:from|into|update|join)\s+(?:plots|evidence)\b/i;
const REGISTER_ENTITY = /import\s*{[^}]*\b(?:Plot|Evidence)\b[^}]*}\s*from\s*'[^']*store\/entities/;

test('no file outside src/store issues SQL over plots or evidence, or queries their entities', () => {
  const files = sources(SRC);
  assert.ok(files.length > 100);
  const offenders = files.filter((f) => {
    const text = fs.readFileSync(f, 'utf8');
    return SQL_OVER_REGISTER.test(text) || REGISTER_ENTITY.test(text);
  });
  assert.deepEqual(offenders.map((f) => path.relative(SRC, f)), []);
});

test('nothing outside src/api imports the HTTP status table', () => {
  const offenders = sources(SRC).filter((f) => !f.startsWith(path.join(SRC, 'api')) && /from '[^']*api\/errors\.ts'/.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(offenders.map((f) => path.relative(SRC, f)), []);
});

test('the detectors see what they look for', () => {
  assert.ok(SQL_OVER_REGISTER.test('select id from plots where workspace_id = ?'));
  assert.ok(SQL_OVER_REGISTER.test('update evidence set current = false'));
  assert.ok(!SQL_OVER_REGISTER.test('select count(*) from evidence_units'));
  assert.ok(REGISTER_ENTITY.test(`import { Evidence, OutboxEvent } from '../store/entities/index.ts';`));
});

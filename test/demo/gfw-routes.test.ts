import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlError, parseSql } from '../../src/demo/gfw-routes.ts';

test('reads the SQL the service sends, and refuses what it cannot answer', () => {
  assert.deepEqual(parseSql("SELECT latitude, longitude FROM results WHERE d >= '2021-01-01' AND c IN ('high', 'highest')"), {
    fields: ['latitude', 'longitude'],
    conditions: [{ field: 'd', op: '>=', value: '2021-01-01' }, { field: 'c', op: 'in', value: ['high', 'highest'] }],
  });
  assert.deepEqual(parseSql('select * from data'), { fields: '*', conditions: [] });
  assert.deepEqual(parseSql("SELECT a FROM t WHERE b <> 'it''s' AND n < 3.5").conditions, [{ field: 'b', op: '!=', value: "it's" }, { field: 'n', op: '<', value: 3.5 }]);
  assert.throws(() => parseSql('DELETE FROM t'), SqlError);
  assert.throws(() => parseSql('SELECT a FROM t WHERE a LIKE 1'), SqlError);
  assert.throws(() => parseSql('SELECT count(*) FROM t'), SqlError);
});

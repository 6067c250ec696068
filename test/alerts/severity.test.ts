/** The severity table of a case on the alert queue (src/alerts/severity.ts), row by row and at its edges. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caseSeverity, SEVERITY_AREAS_HA } from '../../src/alerts/severity.ts';

test('severity from the strongest confidence and the area flagged', () => {
  const rows: Array<[Parameters<typeof caseSeverity>[0], number, string]> = [
    ['highest', 0.01, 'high'],
    ['high', SEVERITY_AREAS_HA.high, 'high'],
    ['nominal', SEVERITY_AREAS_HA.high, 'high'],
    ['nominal', SEVERITY_AREAS_HA.high - 0.01, 'medium'],
    ['high', 0.01, 'medium'],
    ['nominal', SEVERITY_AREAS_HA.medium, 'medium'],
    ['nominal', SEVERITY_AREAS_HA.medium - 0.01, 'low'],
    ['nominal', 0, 'low'],
  ];
  for (const [confidence, area, severity] of rows) assert.equal(caseSeverity(confidence, area), severity, `${confidence} ${area} ha`);
});

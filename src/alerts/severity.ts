/**
 * A case's severity on the alert queue (spec 6.2 `alert.opened`; its values are this service's
 * design, documented in the OpenAPI document): from the cluster's strongest confidence and its area.
 *
 * | severity | when |
 * |---|---|
 * | `high` | confidence `highest`, or at least 5 ha flagged |
 * | `medium` | confidence `high`, or at least 1 ha flagged |
 * | `low` | otherwise: `nominal` confidence under 1 ha |
 */
import type { AlertConfidence } from '../engine/sources/products/gfw-alerts/codes.ts';
import type { Severity } from '../store/entities/index.ts';

export const SEVERITY_AREAS_HA = { high: 5, medium: 1 } as const;

export function caseSeverity(confidence: AlertConfidence, areaHa: number): Severity {
  if (confidence === 'highest' || areaHa >= SEVERITY_AREAS_HA.high) return 'high';
  if (confidence === 'high' || areaHa >= SEVERITY_AREAS_HA.medium) return 'medium';
  return 'low';
}

/**
 * What this record can show for the plot's commodity, and the supporting context the record holds
 * for an evergreen crop: the oil palm map's planting by 2020 and the Landsat record's clearing before
 * 2021, said as what they are, never as a verdict.
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { fields, para, subheading } from '../layout.ts';
import { commodityScope } from '../meanings.ts';

/** The record's supporting context lines; none when neither map says anything of the kind. */
export function supportingContext(e: EvidenceObject): string[] {
  const lines: string[] = [];
  const palm = fields(fields(e.commodity_maps).oil_palm);
  if (palm.planted_by_2020 === true) {
    lines.push(`The oil palm map (Descals et al. 2024) shows oil palm planted here by 2020${typeof palm.median_planting_year === 'number' ? ` (median planting year ${palm.median_planting_year})` : ''}.`);
  }
  const cleared = fields(fields(e.history).deforestation_year).share_before_2021;
  if (typeof cleared === 'number' && cleared > 0) {
    lines.push(`The Landsat moist-forest record dates the clearing of ${Math.round(cleared * 100)}% of the plot before 2021.`);
  }
  return lines;
}

export function commodityScopeSection(e: EvidenceObject, commodity: string | null): Content[] {
  const scope = commodityScope(commodity);
  const context = supportingContext(e);
  if (scope === null && context.length === 0) return [];
  return [
    subheading(`What this record can show for ${commodity ?? 'this plot'}`),
    ...(scope === null ? [] : [para(scope)]),
    ...(context.length === 0 ? [] : [para(`Supporting context, not a verdict: ${context.join(' ')}`, { italics: true })]),
  ];
}

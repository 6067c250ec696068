/**
 * The quantity of a batch as V3's `goodsMeasure`, per the units-of-measure guidance for economic
 * operators: net mass in kilograms (mandatory for IMPORT and EXPORT), and a supplementary unit only
 * where the HS heading's Appendix I entry asks for one (IMPORT, EXPORT), any of Appendix II's
 * (DOMESTIC). The batch's own unit is kept: a cubic metre batch gives a volume, never a guessed mass.
 */
import type { ActivityType, ShipmentUnit } from '../store/entities/index.ts';
import { problem, type Problem } from './problems.ts';

export interface GoodsMeasure {
  netWeight?: number;
  supplementaryUnit?: number;
  supplementaryUnitQualifier?: string;
}

/**
 * Appendix I: the supplementary unit an HS heading takes for IMPORT and EXPORT. Matched on the first
 * four digits, except the two six-digit headings, which match exactly.
 */
export const APPENDIX_I: Record<string, string> = {
  '010221': 'NAR', '010229': 'NAR', '4011': 'NAR', '4013': 'NAR', '4104': 'NAR',
  '4403': 'MTQ', '4406': 'MTQ', '4408': 'MTQ', '4410': 'MTQ', '4411': 'MTQ', '4412': 'MTQ', '4413': 'MTQ',
  '4701': 'KSD', '4702': 'KSD', '4704': 'KSD', '4705': 'KSD',
};

export function appendixIUnit(hs: string): string | null {
  return APPENDIX_I[hs.slice(0, 6)] ?? APPENDIX_I[hs.slice(0, 4)] ?? null;
}

/**
 * The supplementary unit code of a batch's own unit; kg and t are net mass. MTQ is on Appendix II's
 * list, which DOMESTIC takes whatever the heading.
 */
const SUPPLEMENTARY: Record<ShipmentUnit, string | null> = { kg: null, t: null, m3: 'MTQ' };
const KG_PER: Record<ShipmentUnit, number | null> = { kg: 1, t: 1000, m3: null };

/** Six decimals at most, as DecimalSixteenTotalSixPrecType takes them. */
const decimal6 = (x: number) => Math.round(x * 1e6) / 1e6;

const FIELD = 'statement.commodities[0].descriptors.goodsMeasure';

export function goodsMeasure(activity: ActivityType, hs: string | null, quantity: number | null, unit: ShipmentUnit | null): { measure: GoodsMeasure; problems: Problem[] } {
  const problems: Problem[] = [];
  if (quantity === null || unit === null) {
    const missing = [quantity === null && 'quantity', unit === null && 'unit'].filter(Boolean).join(' and ');
    problems.push(problem('missing', FIELD, `The batch has no ${missing}: give the quantity with its unit (kg, t or m3).`, 'EUDR_COMMODITIES_DESCRIPTOR_QUANTITY_MISSING'));
    return { measure: {}, problems };
  }
  const kgPer = KG_PER[unit];
  const qualifier = SUPPLEMENTARY[unit];
  const measure: GoodsMeasure = {
    ...(kgPer !== null && { netWeight: decimal6(quantity * kgPer) }),
    ...(qualifier !== null && { supplementaryUnit: decimal6(quantity), supplementaryUnitQualifier: qualifier }),
  };
  if (activity === 'IMPORT' || activity === 'EXPORT') {
    if (measure.netWeight === undefined) {
      problems.push(problem('net_mass_required', `${FIELD}.netWeight`, `Net mass in kg is mandatory for ${activity}; the batch gives ${quantity} ${unit}: give its quantity in kg or t (the volume can stay in the note).`, 'EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY'));
    }
    const wanted = hs === null ? null : appendixIUnit(hs);
    if (wanted !== null && measure.supplementaryUnitQualifier !== wanted) {
      problems.push(problem('supplementary_unit_required', `${FIELD}.supplementaryUnit`, `HS heading ${hs} takes a supplementary unit in ${wanted} (Appendix I of the units-of-measure guidance), which the batch does not give.`, 'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING'));
    }
    if (wanted === null && measure.supplementaryUnitQualifier !== undefined) {
      problems.push(problem('supplementary_unit_not_allowed', `${FIELD}.supplementaryUnit`, `HS heading ${hs ?? '(none)'} takes no supplementary unit for ${activity}, yet the batch is measured in ${unit}: give its net mass in kg or t.`));
    }
  }
  return { measure, problems };
}

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

/** What a batch gives of its quantity: the spec's `{quantity, unit}`, and V3's net mass and supplementary unit. */
export interface BatchMeasure {
  quantity: number | null;
  unit: ShipmentUnit | null;
  netMassKg: number | null;
  supplementaryUnit: number | null;
  supplementaryUnitType: string | null;
}

/**
 * V3's goods measure of a batch: the net mass given, else the quantity in kg or t; the supplementary
 * unit given with its type, else a quantity in m3 as MTQ. What the heading needs and the batch does not
 * give is named among the problems, so a heading that takes both (4403 roundwood: kg and m3) is filed
 * with both.
 */
export function goodsMeasure(activity: ActivityType, hs: string | null, batch: BatchMeasure): { measure: GoodsMeasure; problems: Problem[] } {
  const problems: Problem[] = [];
  const { quantity, unit } = batch;
  const fromQuantity = quantity !== null && unit !== null;
  const netWeight = batch.netMassKg ?? (fromQuantity && KG_PER[unit] !== null ? quantity * KG_PER[unit] : null);
  const given = batch.supplementaryUnit !== null ? { amount: batch.supplementaryUnit, type: batch.supplementaryUnitType } : null;
  const supplementary = given ?? (fromQuantity && SUPPLEMENTARY[unit] !== null ? { amount: quantity, type: SUPPLEMENTARY[unit] } : null);
  if (netWeight === null && supplementary === null) {
    problems.push(problem('missing', FIELD, 'The batch has no quantity: give net_mass_kg (or quantity with its unit, kg, t or m3), and supplementary_unit with its type where the heading takes one.', 'EUDR_COMMODITIES_DESCRIPTOR_QUANTITY_MISSING'));
    return { measure: {}, problems };
  }
  if (given !== null && given.type === null) {
    problems.push(problem('supplementary_unit_type_required', `${FIELD}.supplementaryUnitQualifier`, `The batch gives a supplementary unit of ${given.amount} without its type: give supplementary_unit_type (for example MTQ, NAR or KSD).`));
  }
  const measure: GoodsMeasure = {
    ...(netWeight !== null && { netWeight: decimal6(netWeight) }),
    ...(supplementary !== null && supplementary.type !== null && { supplementaryUnit: decimal6(supplementary.amount), supplementaryUnitQualifier: supplementary.type }),
  };
  if (activity === 'IMPORT' || activity === 'EXPORT') {
    const wanted = hs === null ? null : appendixIUnit(hs);
    if (measure.netWeight === undefined) {
      problems.push(problem('net_mass_required', `${FIELD}.netWeight`, `Net mass in kg is mandatory for ${activity}: give net_mass_kg${wanted === null ? '' : ` beside the supplementary unit in ${wanted} that HS heading ${hs} takes`}.`, 'EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY'));
    }
    if (wanted !== null && measure.supplementaryUnitQualifier !== wanted) {
      problems.push(problem('supplementary_unit_required', `${FIELD}.supplementaryUnit`, `HS heading ${hs} takes a supplementary unit in ${wanted} beside the net mass (Appendix I of the units-of-measure guidance): give supplementary_unit with supplementary_unit_type ${wanted}.`, 'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING'));
    }
    if (wanted === null && measure.supplementaryUnitQualifier !== undefined) {
      problems.push(problem('supplementary_unit_not_allowed', `${FIELD}.supplementaryUnit`, `HS heading ${hs ?? '(none)'} takes no supplementary unit for ${activity}, yet the batch gives one in ${measure.supplementaryUnitQualifier}: give its net mass alone.`));
    }
  }
  return { measure, problems };
}

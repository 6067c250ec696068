/**
 * The due diligence statement as the information system's V3 `SubmitDdsRequest` (Regulation (EU)
 * 2025/2650), built from a batch and the register, with the business rules the system applies
 * before it accepts one. The payload keeps V3's element names and order, so the XML is written
 * from it field by field (xml.ts); what V3 would refuse is reported among the problems and left as
 * the caller gave it.
 */
import { Buffer } from 'node:buffer';
import type { Feature } from 'geojson';
import type { ActivityType, ShipmentUnit } from '../store/entities/index.ts';
import { OWN_FILING, v3Operator, type FilingOptions, type V3Operator } from './filing-options.ts';
import { featureCollection, plotFeature, type GeolocatedPlot } from './geolocation.ts';
import { goodsMeasure, type GoodsMeasure } from './goods-measure.ts';
import { problem, type Problem } from './problems.ts';
import { isWood, type Species } from './species.ts';

/** The information system's limits (validation rules v1.3, the V3 schemas). */
export const V3_LIMITS = {
  internalReference: 35,
  hsHeadingDigits: 6,
  descriptionOfGoods: 150,
  producersPerCommodity: 1000,
  producersPerStatement: 10_000,
  /** Geolocation per statement: 25 MB of GeoJSON. */
  geolocationBytes: 25 * 1024 * 1024,
} as const;

/** The facts a statement is built from: the batch's fields, its species and its plots with their producers. */
export interface StatementFacts {
  internalReference: string;
  commodity: string | null;
  descriptionOfGoods: string | null;
  hsCode: string | null;
  quantity: number | null;
  unit: ShipmentUnit | null;
  netMassKg: number | null;
  supplementaryUnit: number | null;
  supplementaryUnitType: string | null;
  destinationCountry: string | null;
  borderCrossCountry: string | null;
  activityType: ActivityType;
  species: Species[] | null;
  plots: FilingPlot[];
  /** Producers the batch names itself, beside those of its plots. */
  namedProducers: { id: string; name: string; country: string | null }[];
  /** A stored statement's filing options; left out (a shipment's own statement, facts frozen before them): the operator files, geolocation open. */
  filing?: FilingOptions;
}

export interface FilingPlot extends GeolocatedPlot {
  producer_id: string | null;
  producer_country: string | null;
}

export interface V3Producer {
  position: number;
  country: string | null;
  name?: string;
  /** Base64 of the producer's plots as one GeoJSON FeatureCollection. */
  geometryGeojson: string;
}

export interface V3Commodity {
  position: number;
  descriptors: { descriptionOfGoods: string | null; goodsMeasure: GoodsMeasure };
  hsHeading: string | null;
  speciesInfo?: { scientificName: string; commonName?: string }[];
  producers: V3Producer[];
}

/** SubmitDdsRequest (xsd4-due-diligence-statement-v3.xsd), in its element order. */
export interface V3Payload {
  operatorRole: 'OPERATOR' | 'REPRESENTATIVE_OPERATOR';
  statement: {
    internalReferenceNumber: string;
    activityType: ActivityType;
    /** Filed by an authorised representative: the operator it acts for. */
    representedOperator?: V3Operator;
    countryOfActivity: string | null;
    /** IMPORT and EXPORT: the member state of entry or exit at the customs border, when the batch gives it. */
    borderCrossCountry?: string;
    commodities: V3Commodity[];
    geoLocationConfidential: boolean;
  };
}

export interface BuiltStatement {
  payload: V3Payload;
  problems: Problem[];
  /** Every plot's Feature, producer by producer: the statement's GeoJSON file. */
  features: Feature[];
  /** Bytes of GeoJSON the payload's producers carry. */
  geolocationBytes: number;
}

const COMMODITY = 'statement.commodities[0]';

/** Plots grouped by producer, as V3 takes them: one entry per producer name and country, in the batch's order. */
function producerGroups(plots: FilingPlot[]): { name: string | null; country: string | null; plots: FilingPlot[] }[] {
  const groups = new Map<string, { name: string | null; country: string | null; plots: FilingPlot[] }>();
  for (const plot of plots) {
    // The producer's country is the country of production; a plot without one gives its own.
    const country = plot.producer_country ?? plot.country;
    const key = JSON.stringify([plot.producer_name, country]);
    const group = groups.get(key) ?? { name: plot.producer_name, country, plots: [] };
    group.plots.push(plot);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function fieldProblems(facts: StatementFacts): Problem[] {
  const problems: Problem[] = [];
  if (facts.activityType === 'TRADE') {
    problems.push(problem('activity_not_in_v3', 'statement.activityType', 'V3 has no TRADE activity (Regulation (EU) 2025/2650): a trader files no statement of its own; set activity_type to IMPORT, EXPORT or DOMESTIC if the batch is placed on the market or exported.', 'EUDR_ACTIVITY_TYPE_NOT_COMPATIBLE'));
  }
  if (facts.internalReference.length > V3_LIMITS.internalReference) {
    problems.push(problem('internal_reference_too_long', 'statement.internalReferenceNumber', `The internal reference has ${facts.internalReference.length} characters; the information system takes at most ${V3_LIMITS.internalReference}: give the statement a shorter internal_reference.`));
  }
  if (facts.destinationCountry === null) {
    problems.push(problem('missing', 'statement.countryOfActivity', 'The batch has no destination_country: give the EU member state where the goods are placed on the market.'));
  }
  if (facts.descriptionOfGoods === null) {
    problems.push(problem('missing', `${COMMODITY}.descriptors.descriptionOfGoods`, 'The batch has no description_of_goods: give the goods\' commercial description.'));
  } else if (facts.descriptionOfGoods.length > V3_LIMITS.descriptionOfGoods) {
    problems.push(problem('description_too_long', `${COMMODITY}.descriptors.descriptionOfGoods`, `description_of_goods has ${facts.descriptionOfGoods.length} characters; the information system takes at most ${V3_LIMITS.descriptionOfGoods}.`));
  }
  if (facts.hsCode === null) {
    problems.push(problem('missing', `${COMMODITY}.hsHeading`, 'The batch has no hs_code: give its HS heading (2 to 6 digits).', 'EUDR_COMMODITIES_HS_CODE_INVALID'));
  } else if (facts.hsCode.length > V3_LIMITS.hsHeadingDigits) {
    problems.push(problem('hs_heading_too_long', `${COMMODITY}.hsHeading`, `HS code ${facts.hsCode} has ${facts.hsCode.length} digits; V3 takes 2 to ${V3_LIMITS.hsHeadingDigits}: give the heading or subheading (${facts.hsCode.slice(0, 6)}).`, 'EUDR_COMMODITIES_HS_CODE_INVALID'));
  }
  return problems;
}

function speciesInfo(facts: StatementFacts, problems: Problem[]): V3Commodity['speciesInfo'] {
  if (!isWood(facts.commodity, facts.hsCode)) return undefined;
  const species = facts.species ?? [];
  if (species.length === 0) {
    problems.push(problem('species_required', `${COMMODITY}.speciesInfo`, 'The batch is wood: give its species (scientific and common names), which the information system requires for timber.', 'EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY'));
  } else if (!species.some((s) => s.common_name !== null)) {
    problems.push(problem('species_required', `${COMMODITY}.speciesInfo`, 'The batch is wood: the information system requires at least one species with both its scientific and its common name; give a common_name.', 'EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY'));
  }
  return species.map((s) => ({ scientificName: s.scientific_name, ...(s.common_name !== null && { commonName: s.common_name }) }));
}

/** The statement for these facts, with every problem V3 would raise before it accepted it. */
export function buildStatement(facts: StatementFacts): BuiltStatement {
  const problems = fieldProblems(facts);
  // Facts frozen before the goods measure had its own fields read them as not given.
  const measure = goodsMeasure(facts.activityType, facts.hsCode, {
    quantity: facts.quantity,
    unit: facts.unit,
    netMassKg: facts.netMassKg ?? null,
    supplementaryUnit: facts.supplementaryUnit ?? null,
    supplementaryUnitType: facts.supplementaryUnitType ?? null,
  });
  const border = facts.activityType === 'IMPORT' || facts.activityType === 'EXPORT' ? (facts.borderCrossCountry ?? null) : null;
  problems.push(...measure.problems);
  const species = speciesInfo(facts, problems);

  const features: Feature[] = [];
  const producers: V3Producer[] = [];
  let geolocationBytes = 0;
  if (facts.plots.length === 0) {
    problems.push(problem('missing', `${COMMODITY}.producers`, 'The batch has no plots: add the plots the goods come from.', 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY'));
  }
  for (const group of producerGroups(facts.plots)) {
    const field = `${COMMODITY}.producers[${producers.length}]`;
    if (group.country === null) {
      problems.push(problem('producer_country_required', `${field}.country`, `Producer ${group.name ?? '(unnamed)'} has no country: give the producer a country, or upload its plots with the country query.`, 'EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID', group.plots.map((p) => p.id)));
    }
    const own: Feature[] = [];
    for (const plot of group.plots) {
      const made = plotFeature(plot, group.name, group.country, `${field}.geometryGeojson`);
      problems.push(...made.problems);
      if (made.feature !== null) own.push(made.feature);
    }
    features.push(...own);
    const geojson = Buffer.from(featureCollection(own));
    geolocationBytes += geojson.length;
    producers.push({ position: producers.length + 1, country: group.country, ...(group.name !== null && { name: group.name }), geometryGeojson: geojson.toString('base64') });
  }
  const namesOnPlots = new Set(facts.plots.map((p) => p.producer_id));
  for (const named of facts.namedProducers.filter((p) => !namesOnPlots.has(p.id))) {
    problems.push(problem('producer_without_plots', `${COMMODITY}.producers`, `Producer ${named.name} is named on the batch but none of its plots is: add its plots, or take it off producer_ids (every producer needs a geolocation).`, 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY'));
  }
  if (producers.length > V3_LIMITS.producersPerCommodity) {
    problems.push(problem('too_many_producers_per_commodity', `${COMMODITY}.producers`, `The batch has ${producers.length} producers; the information system takes at most ${V3_LIMITS.producersPerCommodity} per commodity: split the batch.`));
  }
  if (producers.length > V3_LIMITS.producersPerStatement) {
    problems.push(problem('too_many_producers', 'statement.commodities', `The statement has ${producers.length} producers; the information system takes at most ${V3_LIMITS.producersPerStatement}: split the batch.`));
  }
  if (geolocationBytes > V3_LIMITS.geolocationBytes) {
    problems.push(problem('geolocation_too_large', 'statement.commodities', `The geolocation is ${(geolocationBytes / 1024 / 1024).toFixed(1)} MB; the information system takes at most 25 MB a statement: split the batch or simplify its boundaries.`, 'EUDR_MAXIMUM_GEO_SIZE_REACHED'));
  }
  const filing = facts.filing ?? OWN_FILING;
  return {
    payload: {
      operatorRole: filing.representedOperator === null ? 'OPERATOR' : 'REPRESENTATIVE_OPERATOR',
      statement: {
        internalReferenceNumber: facts.internalReference,
        activityType: facts.activityType,
        ...(filing.representedOperator !== null && { representedOperator: v3Operator(filing.representedOperator) }),
        countryOfActivity: facts.destinationCountry,
        ...(border !== null && { borderCrossCountry: border }),
        commodities: [{
          position: 1,
          descriptors: { descriptionOfGoods: facts.descriptionOfGoods, goodsMeasure: measure.measure },
          hsHeading: facts.hsCode,
          ...(species !== undefined && { speciesInfo: species }),
          producers,
        }],
        geoLocationConfidential: filing.geolocationConfidential,
      },
    },
    problems,
    features,
    geolocationBytes,
  };
}

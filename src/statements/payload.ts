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

export interface V3Commodity<P = V3Producer> {
  position: number;
  descriptors: { descriptionOfGoods: string | null; goodsMeasure: GoodsMeasure };
  hsHeading: string | null;
  speciesInfo?: { scientificName: string; commonName?: string }[];
  producers: P[];
}

/** SubmitDdsRequest (xsd4-due-diligence-statement-v3.xsd), in its element order. */
export interface V3Payload<P = V3Producer> {
  operatorRole: 'OPERATOR' | 'REPRESENTATIVE_OPERATOR';
  statement: {
    internalReferenceNumber: string;
    activityType: ActivityType;
    /** Filed by an authorised representative: the operator it acts for. */
    representedOperator?: V3Operator;
    countryOfActivity: string | null;
    /** IMPORT and EXPORT: the member state of entry or exit at the customs border, when the batch gives it. */
    borderCrossCountry?: string;
    commodities: V3Commodity<P>[];
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

function fieldProblems(facts: Omit<StatementFacts, 'plots'>): Problem[] {
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

function speciesInfo(facts: Omit<StatementFacts, 'plots'>, problems: Problem[]): V3Commodity['speciesInfo'] {
  if (!isWood(facts.commodity, facts.hsCode)) return undefined;
  const species = facts.species ?? [];
  if (species.length === 0) {
    problems.push(problem('species_required', `${COMMODITY}.speciesInfo`, 'The batch is wood: give its species (scientific and common names), which the information system requires for timber.', 'EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY'));
  } else if (!species.some((s) => s.common_name !== null)) {
    problems.push(problem('species_required', `${COMMODITY}.speciesInfo`, 'The batch is wood: the information system requires at least one species with both its scientific and its common name; give a common_name.', 'EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY'));
  }
  return species.map((s) => ({ scientificName: s.scientific_name, ...(s.common_name !== null && { commonName: s.common_name }) }));
}

/** A producer of the statement as the plots give it: one entry per producer name and country. */
interface ProducerGroup {
  position: number;
  name: string | null;
  country: string | null;
  plotIds: string[];
  problems: Problem[];
  /** The plots' Features, when kept. */
  features: Feature[];
  /** Bytes of the Features in GeoJSON, each alone. */
  featureBytes: number;
}

const EMPTY_COLLECTION_BYTES = Buffer.byteLength(featureCollection([]));

/**
 * The statement's producers built plot by plot in the batch's order, with their problems and the
 * bytes of their GeoJSON. With `keep` each plot's Feature is kept for the payload; without it only
 * its size, so a reader paging through a large batch holds no geometry.
 */
class ProducerTally {
  readonly groups = new Map<string, ProducerGroup>();
  readonly producerIds = new Set<string | null>();
  plots = 0;
  private readonly keep: boolean;
  constructor(keep: boolean) {
    this.keep = keep;
  }

  add(plots: Iterable<FilingPlot>): void {
    for (const plot of plots) {
      this.plots++;
      this.producerIds.add(plot.producer_id);
      // The producer's country is the country of production; a plot without one gives its own.
      const country = plot.producer_country ?? plot.country;
      const key = JSON.stringify([plot.producer_name, country]);
      let group = this.groups.get(key);
      if (group === undefined) {
        group = { position: this.groups.size + 1, name: plot.producer_name, country, plotIds: [], problems: [], features: [], featureBytes: 0 };
        this.groups.set(key, group);
      }
      group.plotIds.push(plot.id);
      const made = plotFeature(plot, group.name, group.country, `${COMMODITY}.producers[${group.position - 1}].geometryGeojson`);
      group.problems.push(...made.problems);
      if (made.feature === null) continue;
      if (this.keep) group.features.push(made.feature);
      // A collection's text is its Features' texts joined by commas inside the empty collection's.
      group.featureBytes += Buffer.byteLength(featureCollection([made.feature])) - EMPTY_COLLECTION_BYTES + (group.featureBytes === 0 ? 0 : 1);
    }
  }

  /** The producers' problems in V3's order, and the GeoJSON's bytes in all. */
  problems(namedProducers: StatementFacts['namedProducers']): { problems: Problem[]; geolocationBytes: number } {
    const problems: Problem[] = [];
    if (this.plots === 0) {
      problems.push(problem('missing', `${COMMODITY}.producers`, 'The batch has no plots: add the plots the goods come from.', 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY'));
    }
    let geolocationBytes = 0;
    for (const group of this.groups.values()) {
      if (group.country === null) {
        problems.push(problem('producer_country_required', `${COMMODITY}.producers[${group.position - 1}].country`, `Producer ${group.name ?? '(unnamed)'} has no country: give the producer a country, or upload its plots with the country query.`, 'EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID', group.plotIds));
      }
      problems.push(...group.problems);
      geolocationBytes += EMPTY_COLLECTION_BYTES + group.featureBytes;
    }
    for (const named of namedProducers.filter((p) => !this.producerIds.has(p.id))) {
      problems.push(problem('producer_without_plots', `${COMMODITY}.producers`, `Producer ${named.name} is named on the batch but none of its plots is: add its plots, or take it off producer_ids (every producer needs a geolocation).`, 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY'));
    }
    const producers = this.groups.size;
    if (producers > V3_LIMITS.producersPerCommodity) {
      problems.push(problem('too_many_producers_per_commodity', `${COMMODITY}.producers`, `The batch has ${producers} producers; the information system takes at most ${V3_LIMITS.producersPerCommodity} per commodity: split the batch.`));
    }
    if (producers > V3_LIMITS.producersPerStatement) {
      problems.push(problem('too_many_producers', 'statement.commodities', `The statement has ${producers} producers; the information system takes at most ${V3_LIMITS.producersPerStatement}: split the batch.`));
    }
    if (geolocationBytes > V3_LIMITS.geolocationBytes) {
      problems.push(problem('geolocation_too_large', 'statement.commodities', `The geolocation is ${(geolocationBytes / 1024 / 1024).toFixed(1)} MB; the information system takes at most 25 MB a statement: split the batch or simplify its boundaries.`, 'EUDR_MAXIMUM_GEO_SIZE_REACHED'));
    }
    return { problems, geolocationBytes };
  }
}

/** The statement for these facts, with every problem V3 would raise before it accepted it. */
export function buildStatement(facts: StatementFacts): BuiltStatement {
  const tally = new ProducerTally(true);
  tally.add(facts.plots);
  const producers = [...tally.groups.values()].map((g): V3Producer => ({
    position: g.position, country: g.country, ...(g.name !== null && { name: g.name }), geometryGeojson: Buffer.from(featureCollection(g.features)).toString('base64'),
  }));
  const outline = outlineOf(facts, producers, tally);
  return { ...outline, features: [...tally.groups.values()].flatMap((g) => g.features) };
}

/** A statement's fields and problems without its geometry: a batch's plots read a page at a time, each producer's GeoJSON counted but not kept. */
export interface StatementOutline {
  payload: V3Payload<Omit<V3Producer, 'geometryGeojson'>>;
  problems: Problem[];
  geolocationBytes: number;
  plots: number;
}

/** The outline of the statement of these facts, its plots read a page at a time. */
export async function statementOutline(facts: Omit<StatementFacts, 'plots'>, pages: AsyncIterable<FilingPlot[]>): Promise<StatementOutline> {
  const tally = new ProducerTally(false);
  for await (const page of pages) tally.add(page);
  const producers = [...tally.groups.values()].map((g) => ({ position: g.position, country: g.country, ...(g.name !== null && { name: g.name }) }));
  return { ...outlineOf(facts, producers, tally), plots: tally.plots };
}

function outlineOf<P>(facts: Omit<StatementFacts, 'plots'>, producers: P[], tally: ProducerTally): { payload: V3Payload<P>; problems: Problem[]; geolocationBytes: number } {
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
  const produced = tally.problems(facts.namedProducers);
  problems.push(...produced.problems);
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
    geolocationBytes: produced.geolocationBytes,
  };
}

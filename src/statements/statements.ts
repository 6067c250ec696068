/**
 * Due diligence statements (spec 4.9): the check of a shipment's statement, stored statements linked
 * to a batch, and their files. The statement is built and schema-checked on a documents thread;
 * this module gathers its facts from the batch and the register, and stores nothing for a check.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { DocumentPool } from '../documents/pool.ts';
import { notFound } from '../intake/errors.ts';
import { isUuid } from '../store/ids.ts';
import type { Em } from '../store/orm.ts';
import { openCasesByPlot } from '../store/register/alert-queue.ts';
import {
  batchEvidence,
  frozenFacts,
  insertStatement,
  statementRecord,
  statementRecords,
  updateStatement,
  type StatementRecord,
} from '../store/register/shipments.ts';
import { duplicateReference, notReady } from './errors.ts';
import { evidenceSummary, evidenceWarnings, warnedPlots, type EvidenceWarning } from './evidence-warnings.ts';
import { OWN_FILING, type RepresentedOperator } from './filing-options.ts';
import type { StatementFacts } from './payload.ts';
import { shipmentReference } from './shipment-fields.ts';
import { shipmentOf } from './shipments.ts';
import { factsOf } from './statement-facts.ts';
import { parseSpecies, type Species, type SpeciesEntry } from './species.ts';
import type { StatementFormat, StatementResult } from './statement-task.ts';

export interface StatementDeps {
  em: Em;
  documents: DocumentPool;
  /** TRACES_SCHEMA_DIR. */
  schemaDir: string;
}

/** The batch's evidence warnings, plot by plot: what the formal check does not look at. */
export async function batchWarnings(em: Em, workspaceId: string, plotIds: readonly string[]): Promise<{ warnings: EvidenceWarning[]; plots: number }> {
  const rows = await batchEvidence(em, workspaceId, plotIds);
  const open = await openCasesByPlot(em, workspaceId, rows.map((r) => r.id));
  return { warnings: evidenceWarnings(rows.map((r) => ({ ...r, open_alert_cases: open.get(r.id) ?? 0 }))), plots: rows.length };
}

/** A statement's check as answered: the formal check (spec 2.13), and the evidence warnings added beside it. */
export interface StatementCheck extends StatementResult {
  evidence_warnings: EvidenceWarning[];
  /** "Formally complete; 2 of 3 plots show forest loss after the cutoff; …"; null when there is no warning. */
  evidence_summary: string | null;
}

/** Answers a check (`json`) with the batch's evidence warnings, or the file with the problems refused as not_ready. */
async function checked(deps: StatementDeps, workspaceId: string, facts: StatementFacts, result: StatementResult, format: StatementFormat): Promise<StatementCheck> {
  if (format !== 'json' && !result.ready) throw notReady(result.problems);
  const { warnings, plots } = await batchWarnings(deps.em, workspaceId, facts.plots.map((p) => p.id));
  return { ...result, evidence_warnings: warnings, evidence_summary: evidenceSummary(result.ready, warnedPlots(warnings), plots) };
}

/** The statement of a shipment under its own reference (spec 4.9 statement route). */
export async function shipmentStatement(deps: StatementDeps, workspaceId: string, shipmentId: string, format: StatementFormat): Promise<StatementCheck> {
  const shipment = await shipmentOf(deps.em, workspaceId, shipmentId);
  const facts = await factsOf(deps.em, workspaceId, shipment, shipment.reference, null);
  return checked(deps, workspaceId, facts, await deps.documents.statement({ facts, format, schemaDir: deps.schemaDir }), format);
}

/** A stored statement as the API serves it. */
export interface StatementAnswer extends Omit<StatementRecord, 'species' | 'represented_operator' | 'created_at' | 'updated_at'> {
  species: Species[] | null;
  represented_operator: RepresentedOperator | null;
  created_at: string;
  updated_at: string;
}

const answerOf = (r: StatementRecord): StatementAnswer => ({
  ...r,
  species: r.species as Species[] | null,
  represented_operator: r.represented_operator as RepresentedOperator | null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

async function uniquely<T>(reference: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && reference !== undefined) throw duplicateReference('statement', reference);
    throw error;
  }
}

/** How a statement is filed, as the caller sets it; left out, as before (a new statement: the operator files, geolocation open). */
interface FilingFields {
  represented_operator?: RepresentedOperator | null;
  geolocation_confidential?: boolean;
}

export interface NewStatement extends FilingFields {
  shipment_id: string;
  internal_reference?: string | null;
  species?: SpeciesEntry[] | null;
}

/** Stores a statement linked to a batch; its reference defaults to the shipment's. */
export async function createStatement(em: Em, workspaceId: string, input: NewStatement): Promise<StatementAnswer> {
  const shipment = await shipmentOf(em, workspaceId, input.shipment_id);
  const reference = input.internal_reference === undefined || input.internal_reference === null ? shipment.reference : shipmentReference(input.internal_reference, 'internal_reference');
  const species = input.species === undefined || input.species === null ? null : parseSpecies(input.species);
  return answerOf(await uniquely(reference, () => insertStatement(em, workspaceId, {
    shipment_id: shipment.id, internal_reference: reference, species,
    represented_operator: input.represented_operator ?? OWN_FILING.representedOperator, geolocation_confidential: input.geolocation_confidential ?? OWN_FILING.geolocationConfidential,
  })));
}

export async function statementOf(em: Em, workspaceId: string, id: string): Promise<StatementAnswer> {
  const record = isUuid(id) ? await statementRecord(em, workspaceId, id.toLowerCase()) : null;
  if (record === null) throw notFound('statement', id);
  return answerOf(record);
}

export async function listStatements(em: Em, workspaceId: string): Promise<StatementAnswer[]> {
  return (await statementRecords(em, workspaceId)).map(answerOf);
}

export async function changeStatement(em: Em, workspaceId: string, id: string, input: FilingFields & { internal_reference?: string | null; species?: SpeciesEntry[] | null }): Promise<StatementAnswer> {
  const current = await statementOf(em, workspaceId, id);
  const reference = input.internal_reference === undefined || input.internal_reference === null ? undefined : shipmentReference(input.internal_reference, 'internal_reference');
  const species = input.species === undefined ? undefined : input.species === null ? null : parseSpecies(input.species);
  await uniquely(reference, () => updateStatement(em, workspaceId, current.id, {
    internal_reference: reference, species, represented_operator: input.represented_operator, geolocation_confidential: input.geolocation_confidential,
  }));
  return statementOf(em, workspaceId, current.id);
}

/** A stored statement's check or file, built from its batch as it stands now. */
export async function storedStatement(deps: StatementDeps, workspaceId: string, id: string, format: StatementFormat): Promise<StatementCheck> {
  const stored = await statementOf(deps.em, workspaceId, id);
  let facts: StatementFacts;
  if (stored.shipment_id === null) {
    // Its shipment was deleted: the batch as it stood then, under the statement's own reference and species.
    const frozen = (await frozenFacts(deps.em, workspaceId, stored.id)) as StatementFacts | null;
    if (frozen === null) throw notReady([{ message: `The shipment of statement ${stored.internal_reference} was deleted before statements kept its facts; store a new statement from a shipment.` }]);
    facts = { ...frozen, internalReference: stored.internal_reference, species: stored.species ?? frozen.species };
  } else {
    const shipment = await shipmentOf(deps.em, workspaceId, stored.shipment_id);
    facts = await factsOf(deps.em, workspaceId, shipment, stored.internal_reference, stored.species);
  }
  facts.filing = { representedOperator: stored.represented_operator, geolocationConfidential: stored.geolocation_confidential };
  return checked(deps, workspaceId, facts, await deps.documents.statement({ facts, format, schemaDir: deps.schemaDir }), format);
}

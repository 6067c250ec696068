import type { Em } from '../store/orm.ts';
import { evidenceCap, planTierRequired } from '../errors.ts';
import { EvidenceUnit, type Plan } from '../store/entities/index.ts';

/**
 * The evidence allowance (spec 8): the one place that knows what each plan may read.
 * A unit is written for each finished read (a rerun is another read); failed reads write nothing.
 */
export const ALLOWANCE_WINDOW_DAYS = 30;

interface PlanRule {
  evidence: boolean;
  /**
   * Reads studio boundaries (the studio and `/eudr/exoneration` families). Spec 1: a trial plan uses the
   * portal's family only. Only uncapped plans have it, so a boundary's reads are admitted by plan alone and
   * counted as they finish (each published half is one read).
   */
  studio: boolean;
  /** Plot reads in any window of ALLOWANCE_WINDOW_DAYS; null is uncapped. */
  cap: number | null;
}

export const PLAN_RULES: Record<Plan, PlanRule> = {
  standard: { evidence: false, studio: false, cap: 0 },
  trial: { evidence: true, studio: false, cap: 200 },
  professional: { evidence: true, studio: true, cap: null },
  enterprise: { evidence: true, studio: true, cap: null },
};

/** The plan that unlocks plot evidence for a plan without it. */
const UNLOCKING_PLAN = 'Professional';

export interface AllowanceStatus {
  plan: Plan;
  cap: number | null;
  /** Finished reads inside the window. */
  used: number;
}

export async function allowanceStatus(em: Em, workspace: { id: string; plan: Plan }, now = new Date()): Promise<AllowanceStatus> {
  const since = new Date(now.getTime() - ALLOWANCE_WINDOW_DAYS * 86_400_000);
  const used = await em.count(EvidenceUnit, { workspaceId: workspace.id, usedAt: { $gt: since, $lte: now } });
  return { plan: workspace.plan, cap: PLAN_RULES[workspace.plan].cap, used };
}

/**
 * Checks that `requested` more plot reads fit the plan, counting reads already queued or running (`pending`)
 * as if finished, so a burst of calls cannot queue past the cap. Throws the spec's refusals; answers the figures
 * the run call reports (`cap`, `used_after`).
 */
export async function admitReads(
  em: Em,
  workspace: { id: string; plan: Plan },
  requested: number,
  pending: number,
  now = new Date(),
): Promise<{ cap: number | null; used: number; used_after: number }> {
  const rule = PLAN_RULES[workspace.plan];
  if (!rule.evidence) {
    throw planTierRequired(
      `the ${title(workspace.plan)} plan includes no plot evidence; the ${UNLOCKING_PLAN} plan unlocks it (the Trial plan allows ${PLAN_RULES.trial.cap} plot reads in any ${ALLOWANCE_WINDOW_DAYS} days)`,
    );
  }
  const status = await allowanceStatus(em, workspace, now);
  const committed = status.used + pending;
  if (rule.cap !== null && committed + requested > rule.cap) {
    const remaining = Math.max(0, rule.cap - committed);
    throw evidenceCap(
      `the ${title(workspace.plan)} plan allows ${rule.cap} plot reads in any ${ALLOWANCE_WINDOW_DAYS} days: ${committed} used (${status.used} read, ${pending} queued or reading), ${remaining} remaining; this call asks for ${requested}`,
    );
  }
  return { cap: rule.cap, used: status.used, used_after: committed + requested };
}

/** Refuses a plan that does not read studio boundaries, naming the plan that does. */
export function admitStudio(plan: Plan): void {
  if (PLAN_RULES[plan].studio) return;
  const has = PLAN_RULES[plan].evidence ? 'reads plots in the portal (/portal/plots) only' : 'includes no plot evidence';
  throw planTierRequired(`the ${title(plan)} plan ${has}; studio boundaries and their evidence come with the ${UNLOCKING_PLAN} and Enterprise plans`);
}

/** Charges one unit for a finished read; the unique read id makes a second charge for the same read impossible. */
export async function chargeRead(em: Em, input: ReadCharge): Promise<void> {
  await chargeReads(em, [input]);
}

export interface ReadCharge {
  workspaceId: string;
  plotId: string;
  readId: string;
  at: Date;
}

/** A unit for each of several finished reads, in one statement: a job stores its reads a group at a time. */
export async function chargeReads(em: Em, inputs: readonly ReadCharge[]): Promise<void> {
  if (inputs.length === 0) return;
  const rows: EvidenceUnit[] = inputs.map((i) => ({ id: crypto.randomUUID(), workspaceId: i.workspaceId, plotId: i.plotId, readId: i.readId, usedAt: i.at }));
  await em.getKysely<{ evidence_units: EvidenceUnit }>({ columnNamingStrategy: 'property', convertValues: true }).insertInto('evidence_units').values(rows).execute();
}

function title(plan: Plan): string {
  return plan[0].toUpperCase() + plan.slice(1);
}

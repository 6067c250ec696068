import type { Em } from '../store/orm.ts';
import { invalid, notFound } from '../errors.ts';
import { Member, PLANS, User, Workspace, type Plan, type SeatRole } from '../store/entities/index.ts';
import { normalEmail } from './emails.ts';
import { hashPassword } from './passwords.ts';

export function parsePlan(value: unknown): Plan {
  if (typeof value === 'string' && (PLANS as readonly string[]).includes(value)) return value as Plan;
  throw invalid('bad_plan', `plan must be one of ${PLANS.join(', ')}`);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewWorkspace {
  name: string;
  plan: Plan;
  email: string;
  password: string;
  role: SeatRole;
}

/**
 * Creates a workspace with its first member. An email that already has an account gets its seat in the
 * new workspace with its password left as it was (`existingAccount` says so); the password given is then unused.
 */
export async function createWorkspace(em: Em, input: NewWorkspace) {
  if (!input.name.trim()) throw invalid('name_required', 'the workspace needs a name');
  const email = normalEmail(input.email);
  if (!EMAIL.test(email)) throw invalid('bad_email', `"${input.email}" is not an email address`);
  if (input.password.length < 8) throw invalid('weak_password', 'the password needs at least 8 characters');
  return em.transactional(async (tx) => {
    const workspace = tx.create(Workspace, { id: crypto.randomUUID(), name: input.name.trim(), plan: input.plan });
    const existing = await tx.findOne(User, { email });
    const user = existing ?? tx.create(User, { id: crypto.randomUUID(), email, passwordHash: await hashPassword(input.password) });
    const member = tx.create(Member, { id: crypto.randomUUID(), workspaceId: workspace.id, userId: user.id, role: input.role });
    await tx.flush();
    return { workspace, user, member, existingAccount: existing !== null };
  });
}

export async function setPlan(em: Em, workspaceId: string, plan: Plan) {
  const workspace = await em.findOne(Workspace, { id: workspaceId });
  if (!workspace) throw notFound(`no workspace ${workspaceId}`);
  const previous = workspace.plan;
  workspace.plan = plan;
  await em.flush();
  return { workspace, previous };
}

export async function getWorkspace(em: Em, workspaceId: string) {
  const workspace = await em.findOne(Workspace, { id: workspaceId });
  if (!workspace) throw notFound(`no workspace ${workspaceId}`);
  return workspace;
}

import { listKeys, mintKey } from '../accounts/keys.ts';
import { createWorkspace, parsePlan, setPlan } from '../accounts/workspaces.ts';
import { notFound, usage } from '../errors.ts';
import { SEAT_ROLES, Workspace, type SeatRole } from '../store/entities/index.ts';
import type { Store } from '../store/orm.ts';

/** Operator commands: each takes parsed flags and answers one JSON-able object. */
export type Flags = Record<string, string | boolean>;

export const USAGE = `usage: npm run --silent admin -- <command> [flags] [--json]
  workspace create --name N --plan standard|trial|professional|enterprise --email E --password P [--role member|portal]
      creates the workspace, its first member (a workspace member unless --role portal) and a portal key;
      an email that already has an account is attached to the workspace with its password unchanged
  workspace list
  key mint --workspace ID [--role member|portal] [--label L]
  key list --workspace ID
  plan set --workspace ID --plan standard|trial|professional|enterprise`;

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw usage(`--${name} is required\n${USAGE}`);
  return v;
}

function seatRole(value: string | boolean | undefined, fallback: SeatRole): SeatRole {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (SEAT_ROLES as readonly string[]).includes(value)) return value as SeatRole;
  throw usage(`--role must be one of ${SEAT_ROLES.join(', ')}`);
}

export async function runAdminCommand(store: Store, words: string[], flags: Flags): Promise<Record<string, unknown>> {
  const em = store.em();
  switch (words.join(' ')) {
    case 'workspace create': {
      const { workspace, user, member, existingAccount } = await createWorkspace(em, {
        name: need(flags, 'name'),
        plan: parsePlan(need(flags, 'plan')),
        email: need(flags, 'email'),
        password: need(flags, 'password'),
        role: seatRole(flags.role, 'member'),
      });
      const key = await mintKey(store.em(), { workspaceId: workspace.id, role: 'portal', createdBy: user.id, label: 'created with the workspace' });
      const account = existingAccount
        ? { account: 'existing', note: `${user.email} already had an account: it was attached to this workspace and its password left unchanged (--password was not used)` }
        : { account: 'created' };
      return { workspace_id: workspace.id, name: workspace.name, plan: workspace.plan, user_id: user.id, email: user.email, member_role: member.role, ...account, api_key: key.key, api_key_id: key.id, api_key_role: key.role };
    }
    case 'workspace list': {
      const rows = await em.find(Workspace, {}, { orderBy: { createdAt: 'asc' } });
      return { workspaces: rows.map((w) => ({ workspace_id: w.id, name: w.name, plan: w.plan, created_at: w.createdAt.toISOString() })) };
    }
    case 'key mint': {
      const workspaceId = need(flags, 'workspace');
      await mustExist(store, workspaceId);
      const key = await mintKey(em, { workspaceId, role: seatRole(flags.role, 'member'), createdBy: null, label: typeof flags.label === 'string' ? flags.label : null });
      return { api_key: key.key, id: key.id, role: key.role, workspace_id: workspaceId };
    }
    case 'key list': {
      const workspaceId = need(flags, 'workspace');
      await mustExist(store, workspaceId);
      return { workspace_id: workspaceId, keys: await listKeys(em, workspaceId) };
    }
    case 'plan set': {
      const { workspace, previous } = await setPlan(em, need(flags, 'workspace'), parsePlan(need(flags, 'plan')));
      return { workspace_id: workspace.id, plan: workspace.plan, previous };
    }
    default:
      throw usage(`unknown command "${words.join(' ')}"\n${USAGE}`);
  }
}

async function mustExist(store: Store, workspaceId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(workspaceId) || !(await store.em().findOne(Workspace, { id: workspaceId }))) {
    throw notFound(`no workspace ${workspaceId}`);
  }
}

export function parseArgs(argv: string[]): { words: string[]; flags: Flags } {
  const words: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) flags[name] = inline;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
      else flags[name] = true;
    } else words.push(a);
  }
  return { words, flags };
}

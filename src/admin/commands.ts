import { listKeys, mintKey } from '../accounts/keys.ts';
import { clearAccountFailures } from '../accounts/sign-in-throttle.ts';
import { createWorkspace, parsePlan, setPlan } from '../accounts/workspaces.ts';
import { checkBody, fileReadingBody, withdrawReadingBody } from '../api/bodies.ts';
import { fileReading, OPERATOR, plotReadings, withdrawReading } from '../reading-service/archive-readings.ts';
import type { EventLinks } from '../reading-service/evidence-store.ts';
import type { SigningKey } from '../engine/signing.ts';
import { notFound, usage } from '../errors.ts';
import { SEAT_ROLES, Workspace, type SeatRole } from '../store/entities/index.ts';
import type { Store } from '../store/orm.ts';

/** Operator commands: each takes parsed flags and answers one JSON-able object. */
const UUID = /^[0-9a-f-]{36}$/i;

export type Flags = Record<string, string | boolean>;

export const USAGE = `usage: npm run --silent admin -- <command> [flags] [--json]
  workspace create --name N --plan standard|trial|professional|enterprise --email E --password P [--role member|reviewer|portal]
      creates the workspace, its first member (a workspace member unless --role says otherwise) and a portal key;
      an email that already has an account is attached to the workspace with its password unchanged
  workspace list
  key mint --workspace ID [--role member|reviewer|portal] [--label L]
  key list --workspace ID
  plan set --workspace ID --plan standard|trial|professional|enterprise
  reading file --workspace ID --plot ID --scene_id S --provider P --acquired_on YYYY-MM-DD
               --observed cultivated|forest|cleared|unclear --plot_share 0..1 --reviewer NAME --statement TEXT
      files an archive review reading against the plot's evidence, as the operator
  reading list --workspace ID --plot ID
  reading withdraw --workspace ID --plot ID --reading ID [--reason TEXT]
  sign-in clear --email E
      forgets the failed sign-ins counted at the account, from every client, so its owner can sign in at once`;

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

/** What the reading commands sign with: the service's evidence key, and its base URL for the event's links. */
export interface AdminSigning {
  key: SigningKey;
  links: EventLinks;
}

/** The flags a reading is filed with, named as the route's fields, so they are checked and refused as the route's body is. */
const READING_FLAGS = ['scene_id', 'provider', 'acquired_on', 'observed', 'reviewer', 'statement'] as const;

function readingTarget(flags: Flags) {
  const workspaceId = need(flags, 'workspace');
  const plotId = need(flags, 'plot');
  if (!UUID.test(workspaceId)) throw notFound(`no workspace ${workspaceId}`);
  if (!UUID.test(plotId)) throw notFound(`no plot ${plotId} in this workspace`);
  return { workspaceId, plotId };
}

export async function runAdminCommand(store: Store, words: string[], flags: Flags, signing?: AdminSigning): Promise<Record<string, unknown>> {
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
    case 'reading file': {
      if (signing === undefined) throw usage('reading file signs the reading: run it against the service\'s data directory and configuration');
      const given = Object.fromEntries(READING_FLAGS.filter((f) => typeof flags[f] === 'string').map((f) => [f, flags[f]]));
      const share = flags.plot_share;
      const input = checkBody(fileReadingBody, { ...given, ...(typeof share === 'string' ? { plot_share: Number(share) } : {}) });
      return { ...(await fileReading(em, signing, readingTarget(flags), OPERATOR, input)) };
    }
    case 'reading list': {
      const { workspaceId, plotId } = readingTarget(flags);
      return { plot_id: plotId, readings: await plotReadings(em, workspaceId, plotId) };
    }
    case 'reading withdraw': {
      const readingId = need(flags, 'reading');
      if (!UUID.test(readingId)) throw notFound(`no archive reading ${readingId}`);
      const reason = checkBody(withdrawReadingBody, typeof flags.reason === 'string' ? { reason: flags.reason } : {}).reason ?? null;
      return { ...(await withdrawReading(em, { ...readingTarget(flags), readingId }, OPERATOR, reason)) };
    }
    case 'sign-in clear': {
      const email = need(flags, 'email');
      return { email, cleared: await clearAccountFailures(em, email) };
    }
    default:
      throw usage(`unknown command "${words.join(' ')}"\n${USAGE}`);
  }
}

async function mustExist(store: Store, workspaceId: string) {
  if (!UUID.test(workspaceId) || !(await store.em().findOne(Workspace, { id: workspaceId }))) {
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

import type { Em } from '../store/orm.ts';
import { unauthorized } from '../errors.ts';
import { Member, Session, User, Workspace } from '../store/entities/index.ts';
import { normalEmail } from './emails.ts';
import { verifyPassword } from './passwords.ts';
import { recordFailure, recordSuccess, refuseIfThrottled, throttleKeys } from './sign-in-throttle.ts';
import { randomToken, sha256Hex } from './tokens.ts';

export const SESSION_COOKIE = 'pce_session';
export const SESSION_DAYS = 14;

/** `address` is the client's address as the API sees it (TRUST_PROXY decides whether a proxy may name it). */
export async function signIn(em: Em, email: string, password: string, address: string) {
  const normalized = normalEmail(email);
  const keys = throttleKeys(normalized, address);
  await refuseIfThrottled(em, keys);
  const user = await em.findOne(User, { email: normalized });
  // The same answer, after the same work, for an unknown email and a wrong password, so sign-in cannot probe for accounts.
  if (!(await verifyPassword(password, user?.passwordHash ?? null)) || !user) {
    await recordFailure(em, keys);
    throw unauthorized('email or password not recognised');
  }
  await recordSuccess(em, keys);
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  em.create(Session, { id: crypto.randomUUID(), userId: user.id, hash: sha256Hex(token), expiresAt });
  await em.flush();
  const seats = await em.find(Member, { userId: user.id }, { orderBy: { createdAt: 'asc' } });
  const workspaces = await em.find(Workspace, { id: { $in: seats.map((s) => s.workspaceId) } });
  const names = new Map(workspaces.map((w) => [w.id, w]));
  return {
    token,
    expiresAt,
    user: { id: user.id, email: user.email },
    workspaces: seats.map((s) => ({ id: s.workspaceId, name: names.get(s.workspaceId)?.name ?? null, plan: names.get(s.workspaceId)?.plan ?? null, role: s.role })),
  };
}

export async function signOut(em: Em, token: string) {
  await em.nativeDelete(Session, { hash: sha256Hex(token) });
}

/** The signed-in user's seat in the chosen workspace, or null when the session is unknown or expired. */
export async function resolveSession(em: Em, token: string) {
  const session = await em.findOne(Session, { hash: sha256Hex(token), expiresAt: { $gt: new Date() } });
  return session ? { userId: session.userId } : null;
}

export async function seatOf(em: Em, userId: string, workspaceId: string) {
  return em.findOne(Member, { userId, workspaceId });
}

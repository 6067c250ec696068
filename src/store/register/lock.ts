import type { Em } from '../orm.ts';

/**
 * Takes the workspace's register lock until `tx` ends: imports and run calls into one workspace
 * take turns, so two uploads of one ref cannot both create it and a run's count stays true.
 */
export async function lockRegister(tx: Em, workspaceId: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`plots:${workspaceId}`]);
}

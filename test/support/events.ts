import type { Store } from '../../src/store/orm.ts';
import { type EventType, writeEvent } from '../../src/store/outbox.ts';

/** Writes one event to the outbox now, in a unit of work of its own, as a feature's transaction would; answers its id. */
export async function writeEventNow(store: Store, workspaceId: string, type: EventType, data: object, at = new Date()): Promise<string> {
  const em = store.em();
  const id = writeEvent(em, workspaceId, type, data, at);
  await em.flush();
  return id;
}

/** Matching a plot's producer name against the workspace's producers (spec 2.2). */

export interface ProducerRef {
  id: string;
  name: string;
}

/** Case and spacing do not matter: "Coop  Alpha", "coop alpha" and "COOPALPHA" are one producer. */
export const producerKey = (name: string) => name.normalize('NFC').toLowerCase().replace(/\s+/g, '');

export type ProducerMatch = { id: string } | 'not_found' | 'ambiguous';

export function producerMatcher(producers: readonly ProducerRef[]): (name: string) => ProducerMatch {
  const byKey = new Map<string, string[]>();
  for (const p of producers) {
    const key = producerKey(p.name);
    const ids = byKey.get(key);
    if (ids) ids.push(p.id);
    else byKey.set(key, [p.id]);
  }
  return (name) => {
    const ids = byKey.get(producerKey(name));
    if (!ids) return 'not_found';
    return ids.length === 1 ? { id: ids[0] } : 'ambiguous';
  };
}

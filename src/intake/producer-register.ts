/** The workspace's producers (spec 2.4): creation, listing, and attaching one to a plot. */
import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Producer } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { plotExists, producersWithPlots, setProducer } from '../store/register/plots.ts';
import { resolveCountry } from './countries.ts';
import { duplicateProducerRef, nameRequired, notFound } from './errors.ts';
import { producerKey, type ProducerRef } from './producers.ts';

/** A producer as the API returns it. */
export interface ProducerRecord {
  id: string;
  name: string;
  reference: string | null;
  country: string | null;
  created_at: string;
  plots: number;
}

export interface NewProducer {
  name?: unknown;
  reference?: unknown;
  country?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** Creates a producer (spec 2.4): `name` required, `reference` unique in the workspace, `country` stored as alpha-2. */
export async function createProducer(em: Em, workspaceId: string, input: NewProducer): Promise<ProducerRecord> {
  const name = text(input.name);
  if (name === null) throw nameRequired();
  const reference = text(input.reference);
  const countryText = text(input.country);
  const country = countryText === null ? null : resolveCountry(countryText);
  if (reference !== null && (await em.count(Producer, { workspaceId, reference })) > 0) throw duplicateProducerRef(reference);
  const producer = em.create(Producer, { id: randomUUID(), workspaceId, name, key: producerKey(name), reference, country });
  try {
    await em.flush();
  } catch (error) {
    // Two creations racing for one reference: the unique index decides.
    if (error instanceof UniqueConstraintViolationException && reference !== null) throw duplicateProducerRef(reference);
    throw error;
  }
  return { id: producer.id, name, reference, country, created_at: producer.createdAt.toISOString(), plots: 0 };
}

/** The workspace's producers with the number of plots attached to each, in name order. */
export async function listProducers(em: Em, workspaceId: string): Promise<ProducerRecord[]> {
  const rows = await producersWithPlots(em, workspaceId);
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/** What validatePlots() matches uploaded names against. */
export async function workspaceProducers(em: Em, workspaceId: string): Promise<ProducerRef[]> {
  const rows = await em.find(Producer, { workspaceId }, { fields: ['id', 'name'] });
  return rows.map((p) => ({ id: p.id, name: p.name }));
}

/** Attaches a producer of the workspace to one of its plots; null detaches. */
export async function attachProducer(em: Em, workspaceId: string, plotId: string, producerId: string | null): Promise<void> {
  if (!(await plotExists(em, workspaceId, plotId))) throw notFound('plot', plotId);
  if (producerId !== null && (await em.count(Producer, { id: producerId, workspaceId })) === 0) throw notFound('producer', producerId);
  await setProducer(em, workspaceId, plotId, producerId);
}

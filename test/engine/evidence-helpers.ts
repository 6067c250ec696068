/**
 * What the evidence tests share: a workspace with a portal key, plots registered on demo sites
 * (their boundaries as the demo world draws them), and waiting for a job to leave its plots.
 */
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { DEMO_SITES, type DemoSiteSpec } from '../../src/demo/sites.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import type { Em, Store } from '../../src/store/orm.ts';

export function site(name: string): DemoSiteSpec {
  const spec = DEMO_SITES.find((s) => s.name === name);
  if (spec === undefined) throw new Error(`no demo site ${name}`);
  return spec;
}

export async function seedWorkspace(store: Store, plan = 'trial'): Promise<{ workspaceId: string; key: string }> {
  const created = await runAdminCommand(store, ['workspace', 'create'], { name: `Acme ${randomUUID().slice(0, 6)}`, plan, email: `${randomUUID()}@acme.test`, password: 'correct horse' });
  return { workspaceId: created.workspace_id as string, key: created.api_key as string };
}

/** Registers a plot on a demo site (its boundary, area and country; its producer with the site's country). */
export async function insertSitePlot(em: Em, workspaceId: string, name: string, opts: { ref?: string; validation?: string } = {}): Promise<string> {
  const spec = site(name);
  const ring = buildSiteModel(spec, DEMO_SEED).lonLatRing;
  const id = randomUUID();
  let producerId: string | null = null;
  if (spec.producer !== null) {
    producerId = randomUUID();
    await em.execute(
      `insert into producers (id, workspace_id, name, key, reference, country, created_at) values (?, ?, ?, ?, null, ?, now())`,
      [producerId, workspaceId, spec.producer, `${spec.producer.toLowerCase()} ${producerId}`, spec.country],
    );
  }
  await em.execute(
    `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, geometry, validation_state, validation_report, producer_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, '{"findings":[],"repairs":[],"rejections":[]}'::jsonb, ?, now(), now())`,
    [id, workspaceId, opts.ref ?? name, spec.commodity, spec.country, spec.plot.areaHa, JSON.stringify({ type: 'Polygon', coordinates: [ring] }), opts.validation ?? 'valid', producerId],
  );
  return id;
}

/** Waits until none of the workspace's plots is queued or running (a job polls, so this polls too). */
export async function waitUntilRead(em: Em, workspaceId: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await em.execute<{ n: string | number }[]>(`select count(*) as n from plots where workspace_id = ? and evidence_state in ('queued', 'running')`, [workspaceId]);
    if (Number(n) === 0) return;
    if (Date.now() > deadline) throw new Error(`plots still in flight after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function plotRow(em: Em, plotId: string) {
  const [row] = await em.execute<{ evidence_state: string; verdict: string | null; reason: string | null; evidence_at: Date | null; evidence_error: string | null; post_cutoff_loss_share: number | null; evidence_facts: object | null }[]>(
    'select evidence_state, verdict, reason, evidence_at, evidence_error, post_cutoff_loss_share, evidence_facts from plots where id = ?', [plotId]);
  return row;
}

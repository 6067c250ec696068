// `npm run bench -- hostile`: each hostile upload of test/fixtures/hostile-files.ts sent through
// POST /portal/plots/validate of an API started in this process (as the tests start it, over a
// scratch PostgreSQL database, default limits), with GET /health asked every 50 ms while it is in
// flight. For each: the answer (status and code, or the plot's rejection), the slowest /health,
// how long the upload took, and the growth of this process's resident memory.
import { runAdminCommand } from '../src/admin/commands.ts';
import { HOSTILE_FILES } from '../test/fixtures/hostile-files.ts';
import { startTestApp } from '../test/support/app.ts';

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

export default async function hostile(): Promise<void> {
  const app = await startTestApp('postgresql');
  try {
    const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Bench', plan: 'trial', email: 'b@hostile.bench', password: 'bench pass' });
    console.log('| attack | upload | answer | slowest /health | took | resident memory growth |');
    console.log('|---|---|---|---|---|---|');
    for (const attack of HOSTILE_FILES) {
      const bytes = attack.bytes();
      const rss = process.memoryUsage().rss;
      let peak = rss;
      let worst = 0;
      let running = true;
      const poll = (async () => {
        while (running) {
          const t = performance.now();
          await (await fetch(`${app.url}/api/v1/health`)).arrayBuffer();
          worst = Math.max(worst, performance.now() - t);
          peak = Math.max(peak, process.memoryUsage().rss);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const form = new FormData();
      form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), attack.filename);
      const started = performance.now();
      const res = await fetch(`${app.url}/api/v1/portal/plots/validate?country=GH`, { method: 'POST', headers: { authorization: `Bearer ${created.api_key}` }, body: form });
      const body = (await res.json()) as { error?: { code: string }; plots?: { rejections: { code: string }[] }[]; row_errors_omitted?: number };
      const took = performance.now() - started;
      running = false;
      await poll;
      const answer = body.error
        ? `${res.status} ${body.error.code}`
        : `${res.status}, ${body.plots?.[0]?.rejections[0]?.code ?? `${body.plots?.length} plots`}${body.row_errors_omitted ? `, ${body.row_errors_omitted.toLocaleString('en')} row errors omitted` : ''}`;
      console.log(`| ${attack.name} | ${(bytes.length / 1024).toFixed(0)} KB | ${answer} | ${Math.round(worst)} ms | ${(took / 1000).toFixed(2)} s | ${mb(peak - rss)} MB |`);
    }
  } finally {
    await app.close();
  }
}

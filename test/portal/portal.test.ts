// The portal in Chromium against the whole service on the demo world: a person signs in, mints a key,
// uploads the demo book, runs evidence, reads a plot and its PDF, revokes the key; axe-core checks
// every page at desktop and phone widths and each page is photographed (test-output/portal/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { BACKENDS } from '../support/db.ts';
import { startDemoService, type DemoService } from '../support/demo-service.ts';
import { chromiumForFile, screenshot, seriousViolations, VIEWPORTS } from '../support/browser.ts';

/** Checks the page as it stands: no serious or critical accessibility violation, nothing wider than the window, and a screenshot. */
async function look(page: Page, name: string) {
  await screenshot(page, name);
  assert.deepEqual(await seriousViolations(page), [], `axe-core on ${name}`);
  const { scrolled, window } = await page.evaluate(() => ({ scrolled: document.documentElement.scrollWidth, window: globalThis.innerWidth }));
  assert.ok(scrolled <= window, `${name} is ${scrolled} px wide in a window of ${window} px`);
}

// One browser for the file; each backend gets a fresh context (its own cookies and storage).
const browser = chromiumForFile();

for (const backend of BACKENDS) {
  describe(`the portal in a browser (${backend})`, () => {
    let service: DemoService;
    let context: BrowserContext;
    let page: Page;
    const errors: string[] = [];

    before(async () => {
      service = await startDemoService(backend);
      // Injecting axe-core is a script the page's own policy would refuse.
      context = await browser().newContext({ viewport: VIEWPORTS.desktop, acceptDownloads: true, bypassCSP: true });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('dialog', (d) => d.accept());
    });

    after(async () => {
      await context?.close();
      await service?.stop();
    });

    test('serves the portal page with a policy that keeps scripts to its own origin', async () => {
      const res = await fetch(`${service.origin}/`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      const leaflet = await fetch(`${service.origin}/vendor/leaflet/leaflet.js`);
      assert.equal(leaflet.status, 200);
      assert.match(leaflet.headers.get('content-type') ?? '', /javascript/);
      // Nothing of the packages is reachable beyond the files the portal names.
      assert.equal((await fetch(`${service.origin}/vendor/leaflet/package.json`)).status, 404);
    });

    test('sign in, mint a key shown once, upload the demo book and read its report', async () => {
      const tag = `${backend}-`;
      await page.goto(`${service.origin}/`);
      await page.getByLabel('Email').waitFor();
      await look(page, `${tag}01-sign-in`);
      await page.getByLabel('Email').fill(service.account.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Sign-in refused' }).waitFor();
      await page.getByLabel('Password').fill(service.account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Portal Co' }).waitFor();
      await look(page, `${tag}02-workspace`);

      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Label (optional)').fill('browser test');
      await page.getByRole('button', { name: 'Mint a key' }).click();
      const secret = (await page.locator('#new-key').textContent())!;
      assert.match(secret, /^pce_/);
      // The key works against the API, and the list shows its hint only.
      const withKey = await fetch(`${service.running.url}/portal/plots`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(withKey.status, 200);
      await look(page, `${tag}03-keys-minted`);
      await page.reload();
      await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
      await page.getByRole('cell', { name: 'browser test', exact: true }).waitFor();
      assert.equal(await page.locator('#new-key').count(), 0, 'the key is shown once');
      assert.equal(await page.getByText(secret).count(), 0);

      await page.getByRole('link', { name: 'Upload' }).click();
      await page.getByLabel(/^Book of plots/).setInputFiles(service.plotBook);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: 'Validation report' }).waitFor({ timeout: 60_000 });
      const book = JSON.parse(await readFile(service.plotBook, 'utf8')) as { features: unknown[] };
      const rows = page.locator('table tbody tr');
      assert.equal(await rows.count(), book.features.length, 'a row per plot of the book');
      assert.equal(await page.locator('#upload-progress').getAttribute('value'), '100');
      // Every plot is drawn on the map.
      await page.locator('#report-map .plot-marker').first().waitFor();
      assert.equal(await page.locator('#report-map .plot-marker').count(), book.features.length);
      await page.getByLabel('Show').selectOption('rejected');
      const rejected = await page.locator('table tbody tr').count();
      assert.ok(rejected > 0 && rejected < book.features.length, `${rejected} rejected`);
      assert.equal(await page.locator('#report-map .plot-marker.rejected').count(), rejected, 'the rejected plots are marked on the map');
      await page.getByLabel('Show').selectOption('all');
      await look(page, `${tag}04-upload-report`);
    });

    test('a plot reference from an upload shows as text in the report and the map\'s tooltip, never as markup', async () => {
      const ref = '<style>body{display:none}</style><img src=x onerror="document.title=\'injected\'">';
      const file = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ref }, geometry: { type: 'Polygon', coordinates: [[[-1.6, 6.7], [-1.599, 6.7], [-1.599, 6.701], [-1.6, 6.701], [-1.6, 6.7]]] } }] });
      await page.getByRole('link', { name: 'Upload' }).click();
      await page.getByLabel(/^Book of plots/).setInputFiles({ name: 'hostile.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(file) });
      await page.getByLabel('Only check the file; store nothing').check();
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: 'Validation report' }).waitFor({ timeout: 60_000 });
      await page.getByRole('cell', { name: ref, exact: true }).waitFor();
      // The map's own layer takes the pointer over a one-plot view; the dot's mouseover is what opens its tooltip.
      await page.locator('#report-map .plot-marker').first().dispatchEvent('mouseover');
      const tooltip = page.locator('#report-map .leaflet-tooltip');
      await tooltip.waitFor();
      const shown = (await tooltip.textContent())!;
      assert.ok(shown.startsWith(`${ref}: `), shown);
      assert.equal(await page.locator('main style, main img[src="x"]').count(), 0, 'no element was made from the ref');
      assert.notEqual(await page.title(), 'injected');
      assert.equal(await page.locator('body').isVisible(), true);
    });

    test('run evidence on selected plots and watch the register update', async () => {
      const tag = `${backend}-`;
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.locator('#register tbody tr').first().waitFor();
      await look(page, `${tag}05-register`);
      const picked = page.locator('#register tbody tr').filter({ hasText: 'none' }).first();
      const plotId = (await picked.getAttribute('data-plot-id'))!;
      await picked.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Run evidence on 1 selected plot' }).click();
      await page.getByText(/queued 1 plot/).waitFor();
      await page.getByRole('heading', { name: 'Evidence job finished' }).waitFor({ timeout: 240_000 });
      const row = page.locator(`#register tbody tr[data-plot-id="${plotId}"]`);
      assert.equal((await row.locator('.evidence-state').textContent())?.trim(), 'done');
      assert.match((await page.locator('#job-counts').textContent())!, /^1 of 1 plots read/);
      await look(page, `${tag}06-register-after-job`);

      await page.setViewportSize(VIEWPORTS.phone);
      await look(page, `${tag}07-register-phone`);
      await page.setViewportSize(VIEWPORTS.desktop);

      await row.getByRole('link').click();
      await page.locator('#finding').waitFor();
      // The boundary is drawn; the imagery shows where the service serves tiles, and says so where it does not.
      await page.locator('#plot-map path.leaflet-interactive').waitFor();
      const probe = await fetch(`${service.running.url}/tiles/true_colour/14/0/0.png?season=2020`, { headers: { authorization: `Bearer ${service.account.portalKey}` } });
      if (probe.status === 404 && /^no route/.test(((await probe.json()) as { error: { message: string } }).error.message)) {
        await page.getByText('this service does not serve imagery tiles yet').waitFor();
      } else {
        await page.locator('#plot-map img.leaflet-tile-loaded').first().waitFor();
      }
      // The chart is drawn: its canvas has coloured pixels.
      const inked = await page.locator('#season-chart canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && !(d[i] > 240 && d[i + 1] > 240 && d[i + 2] > 240)) n++;
        return n;
      });
      assert.ok(inked > 500, `the chart has ${inked} inked pixels`);
      assert.ok((await page.locator('#reasons li').count()) >= 1);
      await look(page, `${tag}08-plot`);
      await page.setViewportSize(VIEWPORTS.phone);
      // The chart follows its box to the narrower window.
      await page.waitForFunction(() => document.querySelector('#season-chart canvas')!.getBoundingClientRect().width <= globalThis.innerWidth);
      await look(page, `${tag}09-plot-phone`);
      await page.setViewportSize(VIEWPORTS.desktop);

      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#evidence-pdf').click()]);
      const pdf = await readFile((await download.path())!);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    });

    test('the summaries, the pages of later parts, and revoking the key', async () => {
      const tag = `${backend}-`;
      await page.getByRole('link', { name: 'Summary' }).click();
      await page.getByRole('heading', { name: 'Verdicts' }).waitFor();
      const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#book-csv').click()]);
      const lines = (await readFile((await csv.path())!, 'utf8')).trim().split(/\r?\n/);
      assert.match(lines[0], /^plot_id,.*,state,/);
      const book = JSON.parse(await readFile(service.plotBook, 'utf8')) as { features: unknown[] };
      assert.equal(lines.length - 1, book.features.length, 'a row per plot');
      assert.equal(await page.getByText('NaN').count(), 0, 'every count is a number');
      // The plot read above is counted under its reason.
      assert.equal(await page.locator('section:has(#sum-reasons) tbody tr').count(), 1);
      await look(page, `${tag}10-summary`);
      for (const [name, heading] of [['Shipments', 'Shipments'], ['Alerts', 'Alerts'], ['Webhooks', 'Webhooks']]) {
        await page.getByRole('link', { name }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        // The list answered: rows, a notice (not served, refused), or the list's empty line.
        await page.locator('main .notice, main table, main p.muted + p, main div > p.muted').first().waitFor();
        await look(page, `${tag}11-${name.toLowerCase()}`);
      }

      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: /Revoke key .*\(browser test\)/ }).click();
      await page.getByText(/Key pce_.*revoked/).waitFor();
      await look(page, `${tag}12-keys-revoked`);

      // Every page of the navigation at a phone's width.
      await page.setViewportSize(VIEWPORTS.phone);
      for (const [name, heading] of [['Workspace', 'Portal Co'], ['Upload', 'Upload a book of plots'], ['Summary', 'Summary'], ['API keys', 'API keys']]) {
        await page.getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await look(page, `${tag}13-phone-${name.toLowerCase().replace(' ', '-')}`);
      }
      await page.setViewportSize(VIEWPORTS.desktop);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email').waitFor();
      assert.deepEqual(errors, [], 'no script error on any page');
    });
  });
}

// The portal's workflows in Chromium, on a workspace of an uncapped plan holding a read cocoa batch
// (two of its plots with forest lost after the cutoff, one with an open alert case): add a producer and
// upload a book naming it, see why a rejected plot was rejected, make a shipment from the register's
// selection with its commercial facts and read its statement's warnings, start a monitor and work the
// case queue; the register at a phone's width, the report's table scrolled by keyboard, and the base
// map, its capitals named, drawn with no request leaving the service's origin.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { cocoaShipment, type CocoaShipment } from '../api/post-cutoff-shipment.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { chromiumForFile, screenshot, seriousViolations, signedInPage } from '../support/browser.ts';
import { BACKENDS } from '../support/db.ts';

const browser = chromiumForFile();
const PHONE = { width: 375, height: 812 };
const PRODUCER = 'Kouassi Cooperative';

const square = (lon: number, lat: number) => [[[lon, lat], [lon + 0.01, lat], [lon + 0.01, lat + 0.01], [lon, lat + 0.01], [lon, lat]]];
/** A book of two plots naming the producer: one valid, one whose ring encloses no area. */
const book = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { ref: 'UP-OK', commodity: 'cocoa', producer: 'kouassi  cooperative', country: 'CI' }, geometry: { type: 'Polygon', coordinates: square(-7.2, 5.95) } },
    { type: 'Feature', properties: { ref: 'UP-BAD', commodity: 'cocoa', producer: PRODUCER, country: 'CI' }, geometry: { type: 'Polygon', coordinates: [[[-7.1, 5.95], [-7.09, 5.95], [-7.1, 5.95]]] } },
  ],
});

/**
 * Zooms a map out one step and waits until Leaflet has drawn it there: a click while a zoom is still
 * running is dropped, and the zoom starts on the next animation frame.
 */
async function zoomOut(map: Locator) {
  await map.locator('.leaflet-control-zoom-out').click();
  await map.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await map.locator('.leaflet-map-pane:not(.leaflet-zoom-anim)').waitFor({ state: 'attached' });
}

/** No serious accessibility violation, and nothing wider than the window. */
async function fitsPhone(page: Page, what: string) {
  assert.deepEqual(await seriousViolations(page), [], `axe-core on ${what}`);
  // A wide table scrolls inside its own box; anything else past the window's edge widens the page.
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth > globalThis.innerWidth,
    elements: [...document.querySelectorAll('main *')].filter((e) => !e.closest('.table-wrap') && e.getBoundingClientRect().right > globalThis.innerWidth).map((e) => `${e.tagName} ${e.getAttribute('name') ?? e.className}`),
  }));
  assert.deepEqual(wide, { page: false, elements: [] }, `nothing of ${what} is wider than the window`);
}

for (const backend of BACKENDS) {
  describe(`the portal's workflows (${backend})`, () => {
    let app: TestApp;
    let context: BrowserContext;
    let page: Page;
    let batch: CocoaShipment;
    let key: string;
    const requests: string[] = [];
    const errors: string[] = [];
    const account = { email: `f-${randomUUID().slice(0, 6)}@cocoa.test`, password: 'cocoa trader pass' };

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Trader', plan: 'professional', ...account });
      key = created.api_key as string;
      batch = await cocoaShipment(app, created.workspace_id as string, key);
      ({ context, page } = await signedInPage(browser(), app.url, account, 'Cocoa Trader', (p) => {
        p.on('request', (r) => requests.push(r.url()));
        p.on('pageerror', (err) => errors.push(err.message));
      }));
    });
    after(async () => {
      await context?.close();
      await app?.close();
    });

    test('an uncapped plan reads "Unlimited"', async () => {
      const allowance = page.locator('section[aria-labelledby="ws-allowance"]');
      assert.match((await allowance.textContent())!, /CapUnlimited/);
      assert.equal(await page.getByText('null').count(), 0);
      await page.getByRole('link', { name: 'Summary' }).click();
      await page.getByText(/^Allowance: \d+ units used \(Unlimited\) on the professional plan\.$/).waitFor();
    });

    test('a producer made in the portal is matched by the next upload; a rejected plot says why', async () => {
      const upload = async (checkOnly: boolean) => {
        await page.getByRole('link', { name: 'Upload' }).click();
        await page.getByLabel(/^Book of plots/).setInputFiles({ name: 'book.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(book) });
        await page.getByLabel('Only check the file; store nothing').setChecked(checkOnly);
        await page.getByRole('button', { name: 'Upload' }).click();
        await page.getByRole('heading', { name: 'Validation report' }).waitFor({ timeout: 60_000 });
      };
      await upload(true);
      assert.match((await page.locator('#producers-unmatched').textContent())!, /^2 plots name producers this workspace does not have \(producer_not_found\)\. Add them on the Producers page/);
      await page.locator('#producers-unmatched').getByRole('link', { name: 'Producers page' }).click();
      await page.getByLabel(/^Name/).fill(PRODUCER);
      await page.getByLabel(/^Country/).fill('CIV');
      await page.getByRole('button', { name: 'Add the producer' }).click();
      await page.getByRole('cell', { name: PRODUCER, exact: true }).waitFor();
      assert.equal(await page.locator('tr', { hasText: PRODUCER }).locator('td').nth(2).textContent(), 'CI');

      // The report at a phone's width: its wide table is a focusable region the arrow keys scroll.
      await page.setViewportSize(PHONE);
      await upload(false);
      assert.equal(await page.locator('#producers-unmatched').count(), 0);
      const report = page.getByRole('region', { name: 'Validation report per plot' });
      const row = (ref: string) => report.locator('tr', { hasText: ref });
      assert.equal(await row('UP-OK').locator('text=producer_not_found').count(), 0, 'the producer is matched');
      assert.equal(await row('UP-BAD').locator('.rejected').textContent(), 'rejected');
      const violations = await seriousViolations(page);
      assert.deepEqual(violations.filter((v) => v.id === 'scrollable-region-focusable'), []);
      assert.deepEqual(violations, []);
      assert.ok(await report.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table is wider than a phone');
      await report.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[aria-label="Validation report per plot"]')!.scrollLeft > 0);
      await screenshot(page, `${backend}-21-upload-report-phone`);
      await page.setViewportSize({ width: 1280, height: 800 });

      const plots = await app.call('GET', '/api/v1/portal/plots?q=UP-', { key });
      const bad = plots.body.plots.find((p: { external_ref: string }) => p.external_ref === 'UP-BAD');
      assert.equal(plots.body.plots.find((p: { external_ref: string }) => p.external_ref === 'UP-OK').producer_name, PRODUCER);
      await page.goto(`${app.url}/#/plots/${bad.id}`);
      const why = page.locator('#validation-report');
      await why.getByRole('heading', { name: 'Why this plot was rejected' }).waitFor();
      const detail = await app.call('GET', `/api/v1/portal/plots/${bad.id}`, { key });
      const rejections = detail.body.validation_report.rejections as { code: string; message: string }[];
      assert.ok(rejections.length > 0);
      for (const r of rejections) assert.equal(await why.locator('li', { hasText: r.message }).locator('code').textContent(), r.code);
      await screenshot(page, `${backend}-22-rejected-plot`);
    });

    test('a shipment made from the register\'s selection, with its facts, and its statement\'s warnings', async () => {
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.locator('#register').waitFor();
      for (const ref of ['CI-ALL', 'CI-HALF']) await page.getByRole('checkbox', { name: `Select ${ref}` }).check();
      await page.locator('#attach-producer').selectOption({ label: PRODUCER });
      await page.getByRole('button', { name: 'Attach to the selected plots' }).click();
      await page.getByText(`${PRODUCER} attached to 2 plots.`).waitFor();
      await page.getByRole('button', { name: 'Make a shipment of the selected plots' }).click();
      await page.locator('#new-shipment-plots', { hasText: '2 plots (CI-ALL, CI-HALF)' }).waitFor();
      const fill = { 'Reference (unique in the workspace)': 'PORTAL-SHIP', Commodity: 'cocoa', 'Description of the goods': 'Cocoa beans, whole, raw', 'HS code (2 to 8 digits)': '1801', Quantity: '12', 'EU member state of the market': 'NL', 'Shipped on': '2026-04-01', 'Arrives on': '2026-04-20' };
      for (const [label, value] of Object.entries(fill)) await page.getByLabel(label, { exact: true }).fill(value);
      await page.locator('select[name=unit]').selectOption('t');
      await page.getByRole('checkbox', { name: PRODUCER }).check();
      await page.getByRole('button', { name: 'Make the shipment' }).click();
      await page.getByRole('heading', { name: 'Statement of PORTAL-SHIP' }).waitFor();

      const expectShipment = async (fields: Record<string, unknown>) => {
        const listed = await app.call('GET', '/api/v1/portal/statements/shipments', { key });
        const made = listed.body.shipments.find((s: { reference: string }) => s.reference === 'PORTAL-SHIP');
        assert.deepEqual(Object.fromEntries(Object.keys(fields).map((k) => [k, made[k]])), fields);
        return made;
      };
      const made = await expectShipment({ hs_code: '1801', quantity: 12, unit: 't', destination_country: 'NL', arrives_on: '2026-04-20' });
      assert.equal(made.counts.plots, 2);
      const warnings = page.getByRole('region', { name: 'Evidence warnings' });
      assert.equal(await warnings.locator('tbody tr', { hasText: 'post_cutoff_loss' }).count(), 2);
      assert.match((await warnings.locator('tr', { hasText: 'CI-HALF' }).first().textContent())!, /Moist forest on 50% of this plot \(2\.96 ha\) was lost in 2022/);
      assert.equal(await page.getByText('Ready: the statement can be built').count(), 0);
      await screenshot(page, `${backend}-23-shipment-made`);
      assert.deepEqual(await seriousViolations(page), []);

      // Its facts changed afterwards: a fact emptied is cleared, not kept.
      await page.getByText('Commercial facts of PORTAL-SHIP').click();
      const facts = page.locator('details', { hasText: 'Commercial facts of PORTAL-SHIP' });
      await facts.getByLabel('Quantity', { exact: true }).fill('14');
      await facts.getByLabel('Arrives on', { exact: true }).fill('');
      await facts.getByRole('button', { name: 'Save the facts' }).click();
      await page.getByText('Facts of PORTAL-SHIP saved.').waitFor();
      await expectShipment({ quantity: 14, arrives_on: null, hs_code: '1801' });
    });

    test('a monitor started over the shipment, and the case queue worked', async () => {
      await page.getByRole('link', { name: 'Alerts' }).click();
      await page.locator('#monitor-scope').selectOption({ label: 'The plots of shipment PORTAL-SHIP, as they stand at each run' });
      await page.getByLabel('Label (optional)').fill('portal watch');
      await page.getByRole('button', { name: 'Start the monitor' }).click();
      await page.getByText(/^Monitor portal watch started/).waitFor();
      const monitor = page.getByRole('region', { name: 'Alert monitors' }).locator('tr', { hasText: 'portal watch' });
      await monitor.getByRole('link', { name: 'the plots of shipment PORTAL-SHIP' }).waitFor();
      const queue = page.getByRole('region', { name: 'Alert cases' });
      const open = queue.locator('tbody tr', { hasText: 'CI-HALF' });
      await open.waitFor();
      await open.getByRole('textbox').fill('Replanting seen on the ground');
      await open.getByRole('button', { name: 'Close with this note' }).click();
      await page.getByText('No open cases').waitFor();
      await page.getByLabel('Show').selectOption('closed');
      await queue.locator('tr', { hasText: 'closed: Replanting seen on the ground' }).waitFor();
      await screenshot(page, `${backend}-24-alerts`);
      assert.deepEqual(await seriousViolations(page), []);
    });

    test('the register at a phone\'s width shows each plot\'s verdict in words with its code; the new pages fit it', async () => {
      await page.setViewportSize(PHONE);
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      const verdict = page.locator('#register tr', { hasText: 'CI-HALF' }).locator('td.verdict');
      await verdict.waitFor();
      assert.equal((await verdict.textContent())!.trim(), 'Withheld: supporting evidence only prior_management_weak');
      const box = (await verdict.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the verdict lies from ${box.x} to ${box.x + box.width} px`);
      await screenshot(page, `${backend}-25-register-phone`);
      await fitsPhone(page, 'the register');
      await page.getByRole('checkbox', { name: 'Select CI-NONE' }).check();
      for (const [link, heading] of [['Producers', 'Producers'], ['Alerts', 'Alerts']]) {
        await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.locator('main table').first().waitFor();
        await fitsPhone(page, link);
      }
      await page.goto(`${app.url}/#/shipments/new`);
      await page.locator('#new-shipment-plots', { hasText: '1 plot (CI-NONE)' }).waitFor();
      await fitsPhone(page, 'a new shipment');
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    test('the plot page: a base map from the service alone, codes in words, the legends, the chart\'s NDVI axis', async () => {
      await page.goto(`${app.url}/#/plots/${batch.half.id}`);
      const map = page.locator('#plot-map[data-base-drawn="true"]');
      await map.waitFor();
      const inked = await map.locator('.leaflet-basemap-pane canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
        return n;
      });
      assert.ok(inked > 1000, `the base map has ${inked} inked pixels`);
      // Out to the region: the borders, the coast and the capital nearest the plots, named in text under them.
      for (let i = 0; i < 9; i++) await zoomOut(map);
      const capital = map.locator('.leaflet-places-pane .place', { hasText: 'Yamoussoukro' });
      await capital.waitFor();
      const [mapBox, dotBox] = [(await map.boundingBox())!, (await capital.boundingBox())!];
      assert.ok(dotBox.x > mapBox.x && dotBox.x < mapBox.x + mapBox.width && dotBox.y > mapBox.y && dotBox.y < mapBox.y + mapBox.height, 'Yamoussoukro lies in the map\'s view');
      assert.deepEqual(await capital.locator('span').evaluate((s) => [...s.childNodes].map((n) => [n.nodeType, n.textContent])), [[3, 'Yamoussoukro']], 'the name is one text node');
      const [placesZ, plotsZ] = await map.evaluate((m) => ['.leaflet-places-pane', '.leaflet-overlay-pane'].map((pane) => Number(getComputedStyle(m.querySelector(pane)!).zIndex)));
      assert.ok(placesZ < plotsZ, `the places (z ${placesZ}) lie under the plots (z ${plotsZ})`);
      assert.match((await map.locator('.leaflet-control-attribution').textContent())!, /Places: CIA World Factbook \(public domain\)/);
      await screenshot(page, `${backend}-26-plot-base-map`);
      const outside = requests.filter((u) => !u.startsWith(`${app.url}/`) && !/^(data|blob):/.test(u));
      assert.deepEqual(outside, [], 'no request leaves the origin');
      for (const file of ['/vendor/world-atlas/countries-50m.json', '/assets/places/capitals.json']) assert.ok(requests.some((u) => u.endsWith(file)), file);
      // Out to the world, the names give way to the borders.
      while (!(await map.locator('.leaflet-control-zoom-out').getAttribute('class'))!.includes('leaflet-disabled')) await zoomOut(map);
      await capital.waitFor({ state: 'hidden' });

      assert.match((await page.locator('section[aria-labelledby="plot-facts"]').textContent())!, new RegExp(`Producer${PRODUCER}`), 'the producer attached from the register');
      assert.equal(await page.locator('#verdict-title code').textContent(), 'prior_management_weak');
      assert.equal(await page.locator('#reasons li code').first().textContent(), 'evergreen_canopy_unsupported');
      await page.getByLabel('Layer').selectOption('ndvi');
      assert.match((await page.locator('#imagery-legend').textContent())!, /^Vegetation index \(NDVI\) of each pixel: -0\.20\.9\. Brown is bare ground/);
      await page.getByText('Kept scene: the plot’s NDVI on a clear scene').waitFor();
      // The NDVI axis runs from 0 to 1: troughs read near 0.5 sit at mid-height, where an axis fitted to
      // the readings alone would put them at its foot, as deep as any dip could look.
      const troughsAt = await page.locator('#season-chart canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let rows = 0;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i] > 130 && d[i + 1] < 60 && d[i + 2] < 60) {
            rows += Math.floor(i / 4 / c.width);
            n++;
          }
        }
        return rows / n / c.height;
      });
      assert.ok(troughsAt > 0.25 && troughsAt < 0.55, `the troughs are drawn at ${troughsAt} of the chart's height`);
      assert.deepEqual(errors, [], 'no script error on any page');
    });
  });
}

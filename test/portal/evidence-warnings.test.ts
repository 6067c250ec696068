// The portal in Chromium on a cocoa shipment of three plots, two of them with moist forest lost after
// the cutoff: the statement view never shows a plain "Ready", the register shows the loss in a column
// and filters on it, and the plot page leads with the loss and its open alert case.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { cocoaShipment, type CocoaShipment } from '../api/post-cutoff-shipment.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { chromiumForFile, seriousViolations, signedInPage } from '../support/browser.ts';
import { BACKENDS } from '../support/db.ts';

const browser = chromiumForFile();

for (const backend of BACKENDS) {
  describe(`evidence warnings in the portal (${backend})`, () => {
    let app: TestApp;
    let context: BrowserContext;
    let page: Page;
    let batch: CocoaShipment;
    const account = { email: `w-${randomUUID().slice(0, 6)}@cocoa.test`, password: 'cocoa importer pass' };

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Importer', plan: 'trial', ...account });
      batch = await cocoaShipment(app, created.workspace_id as string, created.api_key as string);
      ({ context, page } = await signedInPage(browser(), app.url, account, 'Cocoa Importer'));
    });
    after(async () => {
      await context?.close();
      await app?.close();
    });

    test('the statement view says "formally complete" with the warnings listed, never a plain "Ready"', async () => {
      await page.getByRole('link', { name: 'Shipments' }).click();
      await page.getByRole('button', { name: /^COCOA-/ }).click();
      const readiness = page.locator('#statement-readiness');
      await readiness.waitFor();
      assert.match((await readiness.textContent())!, /^Formally complete; 2 of 3 plots show forest loss after the cutoff; 1 of 3 plots have an open alert case; /);
      assert.equal(await page.getByText('Ready: the statement can be built').count(), 0);
      const warnings = page.getByRole('table').filter({ has: page.locator('caption', { hasText: 'Evidence warnings' }) });
      const lossRows = warnings.locator('tr', { hasText: 'post_cutoff_loss' });
      assert.equal(await lossRows.count(), 2);
      assert.match((await lossRows.nth(1).textContent())!, /CI-HALF.*Moist forest on 50% of this plot \(2\.96 ha\) was lost in 2022: the EUDR cutoff is 31 December 2020/);
      assert.deepEqual(await seriousViolations(page), []);
    });

    test('the register shows the loss and the open case in a column, and filters on it', async () => {
      await page.getByRole('link', { name: 'Register' }).click();
      await page.locator('#register').waitFor();
      const cell = (ref: string) => page.locator('#register tr', { hasText: ref }).locator('td.post-cutoff-loss');
      assert.equal((await cell('CI-HALF').textContent())!.trim(), '50% lost · 1 open alert case');
      assert.equal((await cell('CI-ALL').textContent())!.trim(), '100% lost');
      assert.equal((await cell('CI-NONE').textContent())!.trim(), '—');
      await page.getByLabel('Loss after the cutoff').selectOption('true');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.locator('#register-count', { hasText: 'of 2' }).waitFor();
      assert.equal(await page.locator('#register tbody tr').count(), 2);
    });

    test('the plot page leads with the loss and the open case', async () => {
      await page.goto(`${app.url}/#/plots/${batch.half.id}`);
      const banner = page.locator('#post-cutoff-loss');
      await banner.waitFor();
      assert.equal((await banner.textContent())!.trim(), 'Moist forest on 50% of this plot (2.96 ha) was lost in 2022: the EUDR cutoff is 31 December 2020. 1 open alert case on this plot (see Alerts).');
      // The commodity's scope: why this cocoa plot cannot reach a positive finding from the record.
      assert.match((await page.locator('#commodity-scope').textContent())!, /Cocoa cannot reach a positive finding from this record/);
      await page.goto(`${app.url}/#/plots/${batch.none.id}`);
      await page.getByRole('heading', { level: 1, name: 'Plot CI-NONE' }).waitFor();
      assert.equal(await page.locator('#post-cutoff-loss').count(), 0);
    });
  });
}

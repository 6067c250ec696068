// Debian's Chromium driven by playwright-core for the portal's end-to-end tests, with axe-core's
// accessibility check and a screenshot of each page a person can look at afterwards.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Where the screenshots go (git-ignored; the README names it). */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'portal');

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Headless Chromium; playwright gives it a fresh user-data dir of its own and removes it on close. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** One Chromium for a test file, launched before its tests and closed after them; each suite makes its own contexts. */
export function chromiumForFile(): () => Browser {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  return () => browser;
}

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it stands. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/**
 * A fresh context (its own cookies and storage) at desktop size, signed in through the portal's own
 * form at `origin` on the workspace page, headed by its name. Imagery tiles are refused: these tests'
 * archives are not generated. `watch` gets the page before its first request; axe-core is injected
 * past the page's policy.
 */
export async function signedInPage(browser: Browser, origin: string, account: { email: string; password: string }, workspace: string, watch: (page: Page) => void = () => {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, bypassCSP: true });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  watch(page);
  await page.route(/\/(change\/)?tiles\//, (route) => route.abort());
  await page.goto(`${origin}/`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: workspace }).waitFor();
  return { context, page };
}

/** A full-page screenshot under SCREENSHOTS. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

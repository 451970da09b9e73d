import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { createI18n } from '../../src-shared/i18n';
import { showLocale } from '../support/a11y';
import { type E2eApp, picture, startApp, subscribeInPortal } from '../support/e2e-app';

/**
 * A first sync over a slow link, as the sync status shows and says it: once every page is in,
 * "Checking that none of your N contacts was missed… You can search them already." while the
 * sync asks about its page boundaries (page-walk.ts). In German at 420 px it is whole, inside the
 * window; the status region says each stage once, not again with every page or question.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  // Pages of 10: 40 contacts are a few pages, each boundary a question once they are in.
  app = await startApp({ sim: { contacts: 40, autoAnswer: false, maxPageSize: 10 } });
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await app.close();
});

/**
 * Every text the sync status's live region was given, in order: a screen reader says each
 * change of it. Recorded from now on, whenever the region is (re)made or its text changes.
 */
async function recordStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    const region = () =>
      document.querySelector(
        '[data-testid="sync-status"] [role="status"], [data-testid="sync-status"][role="status"]',
      );
    let last: Node | null = null;
    let lastText = '';
    new MutationObserver((changes) => {
      const now = region();
      if (!now) {
        last = null;
        return;
      }
      const touched = changes.some(
        (change) => now === change.target || now.contains(change.target),
      );
      const text = now.textContent ?? '';
      // A new region, or a change inside it: what it holds is said.
      if (now !== last || (touched && text !== lastText)) said.push(text);
      last = now;
      lastText = text;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { said: string[] }).said]);
}

test('a first sync’s check is said once and fits at 420 px in German', async ({ page }) => {
  test.setTimeout(120_000);
  const de = createI18n({ locale: 'de' }).t;
  // Every list of contacts and every question about a boundary comes slowly.
  await control.addFault({ path: '/v3/phonebook/contact/', match: 'prefix', delay_ms: 400 });
  await page.setViewportSize({ width: 420, height: 640 });
  await page.goto(app.preview.url);
  await expect(page.getByTestId('account-state')).toHaveAttribute('data-state', /./);
  await showLocale(page, 'de');
  const said = await recordStatus(page);
  await page.getByRole('button', { name: de('connect.connect') }).click();
  await subscribeInPortal(app);
  const status = page.getByTestId('sync-status');
  await expect(status.getByTestId('sync-count')).toBeVisible({ timeout: 30_000 });
  await picture(page, 'first-sync-loading-420-de.png');
  const checking = de('sync.checking', { count: 40 });
  await expect(status).toContainText(checking, { timeout: 60_000 });
  // Whole, inside the window, on lines of its own: nothing cut, nothing sideways.
  const cut = await status.evaluate((node) =>
    [node, ...node.querySelectorAll('*')]
      .filter((part) => part.scrollWidth > part.clientWidth + 1 && part.clientWidth > 0)
      .map((part) => part.textContent ?? ''),
  );
  expect(cut).toEqual([]);
  const box = (await status.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(420);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await picture(page, 'first-sync-checking-420-de.png');
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await control.clearFaults();
  const heard = await said();
  // The check once, however many pages and questions came meanwhile.
  expect(heard.filter((text) => text === checking)).toHaveLength(1);
  // Loading, then checking: each stage said once, not each page's count.
  expect(heard, JSON.stringify(heard)).toHaveLength(new Set(heard).size);
  expect(heard.length, JSON.stringify(heard)).toBeLessThanOrEqual(3);
  await showLocale(page, 'en');
});

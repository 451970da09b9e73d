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

/** What the status region said, and how the status fitted the window as it was said. */
interface Said {
  text: string;
  /** Texts of the status and its parts wider than their boxes (cut or sideways). */
  cut: string[];
  /** Where the status ends, and how wide the page is, in CSS pixels. */
  right: number;
  pageWidth: number;
}

/**
 * Every text the sync status's live region was given, in order: a screen reader says each
 * change of it. Recorded from now on, whenever the region is (re)made or its text changes, with
 * the status's fit measured then (a stage may end before a later look could measure it).
 */
async function recordStatus(page: Page): Promise<() => Promise<Said[]>> {
  await page.evaluate(() => {
    const said: Said[] = [];
    (window as unknown as { said: Said[] }).said = said;
    const region = () =>
      document.querySelector(
        '[data-testid="sync-status"] [role="status"], [data-testid="sync-status"][role="status"]',
      );
    const measure = (text: string): Said => {
      const status = document.querySelector('[data-testid="sync-status"]')!;
      return {
        text,
        cut: [status, ...status.querySelectorAll('*')]
          .filter((part) => part.scrollWidth > part.clientWidth + 1 && part.clientWidth > 0)
          .map((part) => part.textContent ?? ''),
        right: status.getBoundingClientRect().right,
        pageWidth: document.documentElement.scrollWidth,
      };
    };
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
      if (now !== last || (touched && text !== lastText)) said.push(measure(text));
      last = now;
      lastText = text;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { said: Said[] }).said]);
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
  await expect
    .poll(async () => (await said()).some((one) => one.text === checking), { timeout: 60_000 })
    .toBe(true);
  await picture(page, 'first-sync-checking-420-de.png');
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await control.clearFaults();
  const heard = await said();
  const texts = heard.map((one) => one.text);
  // The check once, however many pages and questions came meanwhile.
  const checks = heard.filter((one) => one.text === checking);
  expect(checks).toHaveLength(1);
  // Whole, inside the window, on lines of its own: nothing cut, nothing sideways.
  expect(checks[0]!.cut).toEqual([]);
  expect(checks[0]!.right).toBeLessThanOrEqual(420);
  expect(checks[0]!.pageWidth).toBeLessThanOrEqual(420);
  // Loading, then checking: each stage said once, not each page's count.
  expect(texts, JSON.stringify(texts)).toHaveLength(new Set(texts).size);
  expect(texts.length, JSON.stringify(texts)).toBeLessThanOrEqual(3);
  await showLocale(page, 'en');
});

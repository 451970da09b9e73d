import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { showLocale } from '../support/a11y';
import { type E2eApp, openConnected, picture, startApp } from '../support/e2e-app';

/**
 * The window says when the platform stopped answering while the session is fine (the access
 * token still fresh): after two of Callbar's own requests in a row get no answer, the header says
 * "Platform not reachable" and a banner since when and what it means; the next answer ends both,
 * without a restart. In English and German, at the narrowest width (340 px) and at 420 px, the
 * header and the banner are whole: no text wider than its box.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20 } });
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await control.clearFaults();
  await app.close();
});

/** A sync of the directory, as Refresh asks for it, to its end; whether it completed. */
async function sync(page: Page): Promise<boolean> {
  const status = () =>
    page.evaluate(async () => {
      const answer = await window.callbar.directory.status();
      return answer.ok ? answer.value : undefined;
    });
  await page.evaluate(() => window.callbar.directory.sync());
  // Until a status comes that is not a sync under way.
  await expect
    .poll(async () => (await status())?.state ?? 'syncing', { timeout: 30_000 })
    .not.toBe('syncing');
  return (await status())?.last_error === undefined;
}

/** The texts inside `selector` that are wider than their box. */
function cutTexts(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluate((root) =>
      [root, ...root.querySelectorAll('*')]
        .filter((node) => node.scrollWidth > node.clientWidth + 1)
        .map((node) => node.textContent ?? ''),
    );
}

test('the platform away and back: header and banner say so, whole, in English and German', async ({
  page,
}) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  await control.addFault({ path: '/v3/phonebook/', reset: true });
  expect(await sync(page)).toBe(false);
  // One failure is a blip: nothing said yet.
  await expect(page.getByTestId('session-banner')).toHaveCount(0);
  expect(await sync(page)).toBe(false);
  const banner = page.getByTestId('session-banner');
  await expect(banner).toHaveAttribute('data-outage', 'platform');
  const header = page.getByTestId('account-state');
  for (const [locale, words, sentence] of [
    [
      'en',
      'Platform not reachable',
      /Platform not reachable since .+\. The platform does not answer Callbar’s requests \(the connection broke\)/,
    ],
    [
      'de',
      'Telefonanlage nicht erreichbar',
      /Telefonanlage nicht erreichbar seit .+\. Die Telefonanlage beantwortet die Anfragen von Callbar nicht \(die Verbindung brach ab\)/,
    ],
  ] as const) {
    await showLocale(page, locale);
    await expect(header).toContainText(words);
    await expect(banner).toHaveText(sentence);
    // The sync's line says why in brackets, one full stop after them.
    await expect(page.getByTestId('sync-status')).toContainText(
      locale === 'en' ? '(the connection broke)).' : '(die Verbindung brach ab)).',
    );
    await expect(page.getByTestId('sync-status')).not.toContainText('.).');
    for (const width of [340, 420]) {
      await page.setViewportSize({ width, height: 640 });
      expect(await cutTexts(page, 'header')).toEqual([]);
      expect(await cutTexts(page, '[data-testid="session-banner"]')).toEqual([]);
      await picture(page, `platform-away-${width}-${locale}.png`);
    }
  }
  await showLocale(page, 'en');

  // Back: the next answer ends it.
  await control.clearFaults();
  expect(await sync(page)).toBe(true);
  await expect(banner).toHaveCount(0);
  await expect(header).toContainText('Connected');
});

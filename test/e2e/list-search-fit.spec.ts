import { expect, test, type Page } from '@playwright/test';
import { createI18n, type Locale } from '../../src-shared/i18n';
import { showLocale } from '../support/a11y';
import { type E2eApp, openConnected, picture, startApp } from '../support/e2e-app';

/**
 * The list screens' search boxes (contacts, phonebooks) show their whole placeholder, in English
 * and German, in the narrowest window (340 px) and the default one (420 px), light and dark: a
 * placeholder cut at the box's edge ("Name, Nummer, Firma, Kurzwahl su") hides what the box
 * searches. Measured as the box draws it (placeholderFit). With
 * CALLBAR_E2E_SCREENSHOTS=1, a picture of each: contacts-search-<locale>-<width>-<scheme>.png.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false } });
});
test.afterAll(async () => {
  await app.close();
});

/**
 * The placeholder, and whether it overflows: its text put into the box as a value (without an
 * input event, so the list does not search) overflows exactly when the placeholder would, the
 * search's clear button's room included (a canvas measure of the padding box misses that).
 */
async function placeholderFit(page: Page): Promise<{ text: string; overflow: number }> {
  return page.locator('.list-tools input[type="search"]').evaluate((input: HTMLInputElement) => {
    const text = input.placeholder;
    const before = input.value;
    input.value = text;
    const overflow = input.scrollWidth - input.clientWidth;
    input.value = before;
    return { text, overflow };
  });
}

for (const locale of ['en', 'de'] as const satisfies Locale[]) {
  test(`the contacts and phonebooks search placeholders fit at 340 and 420 px (${locale})`, async ({
    page,
  }) => {
    const t = createI18n({ locale }).t;
    await openConnected(page, app);
    await showLocale(page, locale);
    await page.getByRole('button', { name: t('menu.menu'), exact: true }).click();
    await page.getByRole('button', { name: t('menu.phonebooks'), exact: true }).click();
    await expect(page.getByRole('heading', { name: t('phonebooks.title') })).toBeVisible();
    for (const width of [340, 420]) {
      await page.setViewportSize({ width, height: 640 });
      const fit = await placeholderFit(page);
      expect(fit.overflow, `phonebooks at ${width} px: "${fit.text}"`).toBeLessThanOrEqual(0);
    }
    await page.locator('.row-main').first().click();
    await expect(page.getByRole('button', { name: t('contacts.new') })).toBeVisible();
    for (const width of [340, 420]) {
      await page.setViewportSize({ width, height: 640 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await picture(page, `contacts-search-${locale}-${width}-${colorScheme}.png`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      const fit = await placeholderFit(page);
      expect(fit.text).toBe(t('contacts.searchPlaceholder'));
      expect(fit.overflow, `contacts at ${width} px: "${fit.text}"`).toBeLessThanOrEqual(0);
    }
    await page.evaluate(() => window.callbar.settings.save({ language: 'system' }));
  });
}

import { expect, test } from '@playwright/test';
import { createI18n, type Locale } from '../../src-shared/i18n';
import { showLocale } from '../support/a11y';
import { type E2eApp, openConnected, picture, startApp } from '../support/e2e-app';

/**
 * The receiver port a browser refuses (the Fetch standard's bad ports: 10080, 6000, 6665–6669…)
 * is refused in the Settings window, under its field, in the window's language: why, and which
 * port to take instead. Nothing is saved.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 5, autoAnswer: false } });
});
test.afterAll(async () => {
  await app.close();
});

const SAYS: Record<'en' | 'de', RegExp> = {
  en: /Web browsers refuse to connect to port 10080 \(it is on the Fetch standard's list of blocked ports\), so your browser could not reach Callbar there; choose another port, such as 10081\.$/,
  de: /Webbrowser verbinden sich nicht mit Port 10080 \(er steht auf der Liste gesperrter Ports des Fetch-Standards\), daher könnte Ihr Browser Callbar dort nicht erreichen; wählen Sie einen anderen Port, etwa 10081\.$/,
};

for (const locale of ['en', 'de'] as const satisfies Locale[]) {
  test(`receiver port 10080 is refused under its field, saying why (${locale})`, async ({
    page,
  }) => {
    const t = createI18n({ locale }).t;
    await openConnected(page, app);
    await showLocale(page, locale);
    await page.getByRole('button', { name: t('menu.menu'), exact: true }).click();
    await page.getByRole('button', { name: t('menu.settings'), exact: true }).click();
    await page.getByText(t('settings.group.advanced'), { exact: true }).click();
    const before = await page.evaluate(() => window.callbar.settings.get());
    const port = page.getByLabel(t('settings.label.receiver_port'));
    await port.fill('10080');
    await port.press('Enter');
    await expect(port).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.setting-error')).toHaveText(SAYS[locale]);
    await expect(port).toHaveAccessibleDescription(SAYS[locale]);
    await page.locator('.setting-error').scrollIntoViewIfNeeded();
    await picture(page, `settings-refused-port-${locale}.png`);
    // Nothing was saved.
    expect(await page.evaluate(() => window.callbar.settings.get())).toEqual(before);
    await page.evaluate(() => window.callbar.settings.save({ language: 'system' }));
  });
}

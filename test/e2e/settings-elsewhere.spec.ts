import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type E2eApp, openConnected, picture, startApp } from '../support/e2e-app';

/**
 * The settings file changed by another program while the window shows Settings (a hand edit, as
 * docs/configuration.md allows; another Callbar process saves the same way): the window shows
 * the new values at once, in the new language; an edit with a mistake changes nothing and is
 * said over the window, naming the setting, until the file is fixed.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.close();
});

/** Replaces the settings file whole, as a save does (an atomic rename). */
function replaceSettings(values: object): void {
  const next = join(app.dataDir, 'settings.next');
  writeFileSync(next, JSON.stringify(values), { mode: 0o600 });
  renameSync(next, join(app.dataDir, 'settings.json'));
}

test('another program’s change shows at once; a mistake in it is said, not applied', async ({
  page,
}) => {
  await openConnected(page, app);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(
    page.getByRole('checkbox', { name: 'Dial phone links without asking' }),
  ).not.toBeChecked();

  replaceSettings({ region: 'US', language: 'de', confirm_web_links: false });
  await expect(page.getByRole('heading', { name: 'Einstellungen' })).toBeVisible();
  await expect(
    page.getByRole('checkbox', { name: 'Telefon-Links ohne Nachfrage wählen' }),
  ).toBeChecked();
  // Nothing was saved here: no "Saved" beside the language another program chose.
  expect(await page.getByText('Gespeichert').count()).toBe(0);

  // Written in place, with a mistake: nothing of it applies (not its region), and it is said.
  writeFileSync(join(app.dataDir, 'settings.json'), '{"region": "GB", "language": "xx"}');
  const problem = page.getByTestId('settings-problem');
  await expect(problem).toContainText('„language“ ist "xx"');
  await expect(problem).toContainText('Callbar läuft mit den bisherigen Einstellungen weiter');
  await expect(page.getByRole('combobox', { name: 'Ihr Land' })).toHaveValue('US');
  await picture(page, 'settings-elsewhere-problem.png');

  replaceSettings({ region: 'US', language: 'en', confirm_web_links: false });
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(problem).toHaveCount(0);
});

import { expect, test } from '@playwright/test';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import {
  connectThroughPortal,
  type E2eApp,
  expectAccessibleInBothThemes,
  picture,
  startApp,
  unsubscribeInPortal,
} from '../support/e2e-app';

/**
 * Every account state has its own words and its one right action: waiting (Cancel), connected
 * (Disconnect only from the menu, after a confirmation), unsubscribed in the portal.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.close();
});

test('waiting for the portal offers Cancel, and cancelling returns to Connect', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  const connect = page.getByRole('button', { name: 'Connect…' });
  // Never connected here: the first run's welcome.
  await expect(page.getByRole('heading', { name: 'Welcome to Callbar' })).toBeVisible();
  await expect(connect).toBeFocused();
  // This view, the waiting view, the menu, the disconnect dialog and the about view are scanned
  // with axe in both locales and themes by accessibility.spec.ts, in the same states.
  await picture(page, 'connect.png');

  await connect.click();
  const link = await app.preview.nextOpenedUrl();
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeFocused();
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');
  // The confirmation key never reaches the window. Callbar's own one-time loopback address
  // (which leads to the portal) is shown with Copy, for when no browser opened.
  const shown = page.getByLabel('If no browser opened, open this address yourself:');
  if (new URL(link).origin === new URL(app.sim.portal_url).origin) {
    const key = new URL(link).searchParams.get('confirmation_key')!;
    expect(await page.content()).not.toContain(key);
    await expect(shown).toHaveCount(0);
  } else {
    expect(link).not.toContain('confirmation_key');
    await expect(shown).toHaveValue(link);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('Copied. Paste it into your browser’s address bar.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  }
  await picture(page, 'waiting.png');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect…' })).toBeFocused();
});

test('disconnect is in the menu, asks first, and says the portal subscription stays', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  const user = await connectThroughPortal(page, app);

  // Connected: no Disconnect in the way; the search box has the focus.
  await expect(page.getByRole('button', { name: /Disconnect/ })).toHaveCount(0);
  await expect(
    page.getByRole('combobox', { name: 'Search contacts or type a number' }),
  ).toBeFocused();

  await page.getByRole('button', { name: 'Menu' }).click();
  await picture(page, 'menu.png');
  await page.getByRole('button', { name: 'Disconnect this computer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect this computer?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'The platform integration stays active until you press Unsubscribe in the portal, and the portal reaches only a running Callbar that knows this connection.',
  );
  await expect(dialog).toContainText('after disconnecting, use Connect… and press Unsubscribe');
  await expect(dialog.getByRole('button', { name: 'Keep connected' })).toBeFocused();
  await picture(page, 'disconnect-dialog.png');

  // Esc (or Keep connected) changes nothing.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`);
  expect(await openVault({ dataDir: app.dataDir }).load()).toBeDefined();

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Disconnect this computer…' }).click();
  await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(
    page.getByRole('heading', { name: 'Connect Callbar to your phone account' }),
  ).toBeVisible();
  expect(await openVault({ dataDir: app.dataDir }).load()).toBeUndefined();
});

test('after Unsubscribe in the portal the window says so', async ({ page }) => {
  await page.goto(app.preview.url);
  await connectThroughPortal(page, app);
  await unsubscribeInPortal(app);
  await expect(
    page.getByRole('heading', { name: 'You disconnected Callbar in the portal.' }),
  ).toBeVisible();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect again…' })).toBeVisible();
  await expectAccessibleInBothThemes(page, 'unsubscribed view');
  await picture(page, 'unsubscribed.png');
  expect(await openVault({ dataDir: app.dataDir }).load()).toBeUndefined();
});

test('the About view has the version and platform details', async ({ page }) => {
  await page.goto(app.preview.url);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'About Callbar' }).click();
  await expect(page.getByRole('heading', { name: 'About Callbar' })).toBeFocused();
  await expect(page.getByTestId('app-runtime')).toHaveText('Web preview');
  await page.getByRole('button', { name: 'Back to Connect' }).click();
  await expect(page.getByRole('button', { name: 'Connect…' })).toBeFocused();
});

test('the theme follows the system, and the menu can override it', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(app.preview.url);
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  const dark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  expect(dark).not.toBe(light);

  // Chosen in the menu, Dark wins over a light system, and stays after a reload.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click();
  expect(await background()).toBe(dark);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  expect(await background()).toBe(dark);
  await expectAccessibleInBothThemes(page, 'dark theme chosen');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'System' }).click();
  expect(await background()).toBe(light);
});

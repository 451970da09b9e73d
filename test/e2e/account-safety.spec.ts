import { expect, test, type Page } from '@playwright/test';
import { endedAttemptWarning } from '../../src-main/core/account/account-service';
import {
  connectThroughPortal,
  type E2eApp,
  expectAccessibleInBothThemes,
  picture,
  startApp,
} from '../support/e2e-app';

/**
 * What the window does about the cases the loopback design cannot prevent: an attempt that ended
 * says its portal link must not be used, and a connection to a different account than before is
 * said over every view (with the extension and tenant in the header) until the user says it was
 * them.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.close();
});

test('a cancelled attempt says its portal link must not be used any more', async ({ page }) => {
  await page.goto(app.preview.url);
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await page.getByRole('button', { name: 'Connect…' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');
  await app.preview.nextOpenedUrl();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(page.getByText(`Connecting was cancelled. ${endedAttemptWarning()}`)).toBeVisible();
  await picture(page, 'attempt-ended.png');
  // A second attempt that ends says it once: the first one's words went with the new attempt.
  await page.getByRole('button', { name: 'Connect…' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');
  await app.preview.nextOpenedUrl();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(endedAttemptWarning())).toHaveCount(1);
});

/**
 * The header names the account, the switch notice (naming the tenant) shows on the view shown,
 * and the menu names the tenant.
 */
async function expectAccountShown(page: Page, extension: string, view: string) {
  await expect(page.getByTestId('account-state'), view).toHaveText(`Connected · Ext. ${extension}`);
  await expect(page.getByTestId('account-switch'), view).toContainText(app.sim.tenant_id);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByTestId('account-tenant'), view).toHaveText(app.sim.tenant_id);
  await page.keyboard.press('Escape');
}

async function fromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: item }).click();
}

test('a different account than before: a notice over every view until it was acknowledged', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  const alice = await connectThroughPortal(page, app, 0);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByTestId('account-tenant')).toHaveText(app.sim.tenant_id);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('account-switch')).toHaveCount(0);

  // Disconnected, then connected again: someone else completes the portal flow, as Bob.
  await fromMenu(page, 'Disconnect this computer…');
  await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  const bob = await connectThroughPortal(page, app, 1);
  const notice = page.getByTestId('account-switch');
  await expect(notice).toContainText(
    `Callbar is now connected to extension ${bob.extension} (${app.sim.tenant_id}), not to extension ${alice.extension} as before.`,
  );
  await expectAccessibleInBothThemes(page, 'the account-switch notice');
  await picture(page, 'account-switch.png');

  // Every view keeps the header and the notice.
  await expectAccountShown(page, bob.extension, 'main');
  await fromMenu(page, 'Phonebooks and contacts');
  await expect(page.getByRole('heading', { name: 'Phonebooks' })).toBeVisible();
  await expectAccountShown(page, bob.extension, 'phonebooks');
  await page.getByTestId('phonebook-row').first().getByRole('button').first().click();
  await expect(page.getByRole('button', { name: 'New contact' })).toBeVisible();
  await expectAccountShown(page, bob.extension, 'contacts');
  await fromMenu(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expectAccountShown(page, bob.extension, 'settings');
  await fromMenu(page, 'About Callbar');
  await expect(page.getByTestId('app-version')).toBeVisible();
  await expectAccountShown(page, bob.extension, 'about');

  // "It was me": gone here, and for every later window of this profile.
  await notice.getByRole('button', { name: 'It was me' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${bob.extension}`);
  await expect(page.getByTestId('account-switch')).toHaveCount(0);
});

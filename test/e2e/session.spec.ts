import { expect, test } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import {
  connectThroughPortal,
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  picture,
  startApp,
  subscribeInPortal,
} from '../support/e2e-app';

/**
 * When the platform ends the session, the window keeps working and offers Reconnect; when it
 * cannot be reached, the window says so and recovers by itself.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.close();
});

test('session ended: a banner with Reconnect, and Reconnect connects again', async ({ page }) => {
  await page.goto(app.preview.url);
  const user = await connectThroughPortal(page, app);
  const control = new SimControl(app.sim.base_url);

  // The platform stops accepting the session: the access token expired, the refresh is refused.
  await control.advanceClock(25 * 3600);
  await control.addFault({
    method: 'POST',
    path: '/v3/oauth/token/',
    status: 400,
    body: { error: 'invalid_grant' },
    count: 1,
  });
  await page.keyboard.type('+49 30 1234567');
  await expect(page.getByRole('option').first()).toContainText('Dial +49 30 1234567');
  await page.keyboard.press('Enter');

  const banner = page.getByTestId('session-banner');
  await expect(banner).toContainText('Your session ended.');
  // Whose session ended stays in the header (the tenant is in the menu).
  await expect(page.getByTestId('account-state')).toHaveText(
    `Session ended · Ext. ${user.extension}`,
  );
  await expect(page.getByTestId('call-error')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'session ended banner');
  await picture(page, 'session-ended.png');

  await banner.getByRole('button', { name: 'Reconnect…' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeVisible();
  await subscribeInPortal(app);
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`);
  await expect(banner).toBeHidden();
});

test('platform unreachable: an Offline banner, contacts still searchable, recovery by itself', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openConnected(page, app);
  const user = app.sim.users[0]!;
  const control = new SimControl(app.sim.base_url);
  await control.advanceClock(25 * 3600);
  const fault = await control.addFault({ method: 'POST', path: '/v3/oauth/token/', status: 503 });

  // Another number than the previous test's: the same one within 2 s is refused as a double click.
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('+49 30 7654329');
  await expect(page.getByRole('option').first()).toContainText('Dial +49 30 7654329');
  await page.keyboard.press('Enter');
  const banner = page.getByTestId('session-banner');
  await expect(banner).toContainText('Offline.');
  await expect(page.getByTestId('account-state')).toHaveText(`Offline · Ext. ${user.extension}`);
  await expect(page.getByTestId('call-error')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'offline banner');
  await picture(page, 'offline.png');

  // The platform is back: Callbar's own retry reconnects, nobody presses anything.
  await control.removeFault(fault.id);
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`, {
    timeout: 60_000,
  });
  await expect(banner).toBeHidden();
});

import { expect, test } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { completePortalFlow } from '../../simulator/portal-driver';
import {
  connectThroughPortal,
  expectAccessibleInBothThemes,
  startApp,
  type E2eApp,
} from '../support/e2e-app';

/** When the platform ends the session, the window keeps working and offers Reconnect. */
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
  await expect(page.getByTestId('account-state')).toHaveText('Session ended');
  await expect(page.getByTestId('call-error')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'session ended banner');

  await banner.getByRole('button', { name: 'Reconnect…' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeVisible();
  const link = await app.preview.nextOpenedUrl();
  await completePortalFlow(link, {
    username: user.username,
    password: user.password,
    action: 'subscribe',
  });
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`);
  await expect(banner).toBeHidden();
});

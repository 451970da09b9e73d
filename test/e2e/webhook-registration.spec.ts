import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { expectAccessibleInBothThemes, startApp, type E2eApp } from '../support/e2e-app';

/**
 * What a person registers with the platform for call events: Settings shows the exact Webhook
 * URL (with this computer's secret) only when asked, the same URL `callbar status --json`
 * reports and the simulator was registered with; and the window says so while call events are
 * accepted without authentication (the setting accept_unauthenticated_events).
 */
async function openSettings(page: Page, app: E2eApp) {
  await page.goto(app.preview.url);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  // The receiver's registration is under Advanced, folded at first.
  await page.getByText('Advanced', { exact: true }).click();
}

test.describe('by default', () => {
  let app: E2eApp;
  test.beforeAll(async () => {
    app = await startApp();
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('Settings shows the registered Webhook URL on request only; no warning', async ({
    page,
  }) => {
    const registered = (await new SimControl(app.sim.base_url).integration('callbar')).webhook_url!;
    expect(registered).toMatch(/\/events\/[A-Za-z0-9_-]{32}$/);
    const secret = registered.split('/').at(-1)!;
    await openSettings(page, app);
    await expect(page.getByTestId('events-warning')).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Show the Webhook URL' }).click();
    await expect(page.getByTestId('webhook-url')).toHaveText(registered);
    await expectAccessibleInBothThemes(page, 'settings with the Webhook URL');
  });
});

test.describe('with accept_unauthenticated_events on', () => {
  let app: E2eApp;
  test.beforeAll(async () => {
    app = await startApp({ env: { CALLBAR_ACCEPT_UNAUTHENTICATED_EVENTS: 'true' } });
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('every view says call events are not authenticated', async ({ page }) => {
    await page.goto(app.preview.url);
    await expect(page.getByTestId('events-warning')).toContainText(
      'accept_unauthenticated_events is on',
    );
    await openSettings(page, app);
    await expect(page.getByTestId('events-warning')).toBeVisible();
    await page.getByRole('button', { name: 'Show the Webhook URL' }).click();
    await expect(page.getByTestId('webhook-registration')).toContainText(
      'also accepts call events without it',
    );
  });
});

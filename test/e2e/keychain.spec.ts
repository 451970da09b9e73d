import { expect, test } from '@playwright/test';
import {
  type E2eApp,
  expectAccessibleInBothThemes,
  picture,
  startApp,
  UNREACHABLE_KEYCHAIN,
} from '../support/e2e-app';

/**
 * Without a usable keychain Callbar stores nothing and says what to fix; it offers Try again,
 * never Connect (an activation could only fail).
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ env: UNREACHABLE_KEYCHAIN });
});
test.afterAll(async () => {
  await app.close();
});

test('keychain unavailable: the explanation and Try again, no Connect', async ({ page }) => {
  const channelSocket = page.waitForEvent('websocket');
  await page.goto(app.preview.url);
  await expect(page.getByTestId('account-state')).toHaveText('Keychain unavailable');
  await expect(
    page.getByRole('heading', { name: 'Callbar cannot use the system keychain' }),
  ).toBeFocused();
  await expect(page.getByRole('button', { name: /Connect/ })).toHaveCount(0);
  await expectAccessibleInBothThemes(page, 'keychain view');
  await picture(page, 'keychain.png');

  // Trying again asks the keychain again; it is still unreachable, and the window says so.
  // (the window's calls travel over the preview's WebSocket, one frame `{id, channel, body}` each)
  const socket = await channelSocket;
  const retried = socket.waitForEvent('framesent', {
    predicate: ({ payload }) =>
      (JSON.parse(String(payload)) as { channel?: string }).channel === 'account.status',
  });
  await page.getByRole('button', { name: 'Try again' }).click();
  await retried;
  await expect(page.getByRole('button', { name: 'Try again' })).toBeFocused();
  await expect(page.getByTestId('account-state')).toHaveText('Keychain unavailable');
});

import { expect, test } from '@playwright/test';
import { memoryStore } from '../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import { completePortalFlow } from '../../simulator/portal-driver';
import { silentLogger } from '../../src-main/core/log/logger';
import { control as simRequest } from '../support/sim-harness';
import { expectAccessibleInBothThemes, startApp, type E2eApp } from '../support/e2e-app';
import { relayAddresses } from '../support/relay-addresses';

/**
 * The window in relay mode (`relay_url`): the header says "via relay <host>" in both windows,
 * the setup window's Connect view and its "Connected" view say it too, and Connect opens the
 * browser on the relay's one-time connect link (never the portal link itself), which the
 * waiting view offers to copy. A real relay node (embedded store), simulator, core and keychain.
 */
const SECRET = 'relay-window-webhook-secret-0123456789ab';
const relayStore = memoryStore();
let relay: RunningRelay;
let app: E2eApp;

test.beforeAll(async () => {
  relay = await startRelay({
    port: 0,
    store: relayStore,
    log: silentLogger,
    webhookSecret: SECRET,
  });
  app = await startApp({ env: { CALLBAR_RELAY_URL: relay.origin } });
  await simRequest(
    app.sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(relay.origin, SECRET, app.sim.tenant_id),
  );
});
test.afterAll(async () => {
  await app?.close();
  await relay?.close();
  await relayStore.close();
});

test('the setup window says via relay, and Connect opens the relay’s one-time link', async ({
  page,
}) => {
  const host = new URL(relay.origin).host;
  await page.goto(app.preview.url.replace('#token=', '#setup&token='));
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(page.getByTestId('via-relay')).toContainText(`Callbar connects via relay ${host}`);
  await expectAccessibleInBothThemes(page, 'setup in relay mode: connect');

  await page.getByRole('button', { name: 'Connect…' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeFocused();
  const opened = await app.preview.nextOpenedUrl();
  expect(opened.startsWith(`${relay.origin}/connect/`)).toBe(true);
  expect(opened).not.toContain('confirmation_key');
  // The same address is offered to copy when no browser opened.
  await expect(page.locator('#portal-link')).toHaveValue(opened);

  const redirect = await fetch(opened, { redirect: 'manual' });
  expect(redirect.status).toBe(303);
  const portalLink = redirect.headers.get('location')!;
  expect(portalLink.startsWith(`${app.sim.portal_url}/`)).toBe(true);
  const user = app.sim.users[0]!;
  const answer = await completePortalFlow(portalLink, {
    username: user.username,
    password: user.password,
    action: 'subscribe',
  });
  expect(answer.status).toBe(303);

  const done = page.getByTestId('setup-done');
  await expect(done.getByRole('heading')).toHaveText(`Connected as Ext. ${user.extension}`);
  await expect(done.getByTestId('via-relay')).toContainText(`via relay ${host}`);
  await expectAccessibleInBothThemes(page, 'setup in relay mode: connected');

  // The main window says it where one looks for whose account it is: in the menu (issue 42: not
  // in the header at all times).
  // A page of its own: from the setup page's address only the fragment would change (no load).
  const main = await page.context().newPage();
  await main.goto(app.preview.url);
  await expect(main.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`);
  await expect(main.getByTestId('account-relay')).toHaveCount(0);
  await main.getByRole('button', { name: 'Menu' }).click();
  await expect(main.getByTestId('account-relay')).toHaveText(`via relay ${host}`);
});

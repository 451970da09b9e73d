import { expect, test, type BrowserContext } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../simulator/index';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { freePort } from '../support/free-port';
import { startPreviewProcess, type PreviewProcess } from '../support/preview-process';
import { profileEnv, registerReceiver } from '../support/sim-harness';
import { showLocale } from '../support/a11y';
import { picture } from '../support/e2e-app';

/**
 * The whole connection journey as a person does it: Connect in Callbar → the portal opens in the
 * browser → sign in → Subscribe → the platform hands the tokens to Callbar's receiver → the
 * browser lands on "Connected" → Callbar's header says who is connected. Real simulator, real
 * core, real keychain (private Secret Service under `npm test`), Debian Chromium.
 */
let sim: RunningSimulator;
let preview: PreviewProcess;
let dataDir: string;

test.beforeAll(async () => {
  sim = await startSimulator({ contacts: 20, autoAnswer: false });
  const port = await freePort();
  await registerReceiver(sim, `http://127.0.0.1:${port}`);
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-e2e-connect-'));
  preview = await startPreviewProcess(profileEnv(sim, dataDir, port), ['--print-opened-urls']);
});

test.afterAll(async () => {
  await preview.stop();
  await openVault({ dataDir }).clear();
  await sim.close();
});

/**
 * The window in a new page (its channel route ends with it: a reused page would keep it for later
 * tests) whose channel to core holds back every answer to `channel` until `release()`; returned
 * once the first such answer is held.
 */
async function windowHoldingAnswers(context: BrowserContext, channel: string) {
  const page = await context.newPage();
  const asked = new Set<number>();
  const held: string[] = [];
  let released = false;
  let send: ((message: string) => void) | undefined;
  await page.routeWebSocket(/\/__callbar\/channel$/, (ws) => {
    const server = ws.connectToServer();
    send = (message) => ws.send(message);
    ws.onMessage((message) => {
      const request = JSON.parse(String(message)) as { id: number; channel: string };
      if (request.channel === channel) asked.add(request.id);
      server.send(message);
    });
    server.onMessage((message) => {
      const answer = JSON.parse(String(message)) as { id: number };
      if (asked.has(answer.id) && !released) held.push(String(message));
      else ws.send(message);
    });
  });
  await page.goto(preview.url);
  await expect.poll(() => held.length).toBeGreaterThan(0);
  return {
    page,
    release: () => {
      released = true;
      for (const message of held.splice(0)) send!(message);
    },
  };
}

test('the first run shows its fields and Connect at once: nothing moves under the pointer', async ({
  context,
}) => {
  const { page, release } = await windowHoldingAnswers(context, 'settings.get');
  await expect(page.getByRole('heading', { name: 'Welcome to Callbar' })).toBeVisible();
  // While the first run's settings are on their way, no Connect to press yet: the fields would
  // arrive above it and move it (a press whose button moved between down and up is no click).
  await expect(page.getByRole('button', { name: 'Connect…' })).toHaveCount(0);
  release();
  const connect = page.getByRole('button', { name: 'Connect…' });
  await expect(connect).toBeFocused();
  await expect(page.getByTestId('first-run-setup').getByLabel('Country')).toBeVisible();
  const at = await connect.boundingBox();
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  expect(await connect.boundingBox()).toEqual(at);
});

test("the first run's Connect is in view in the window's 420×640, in English and German", async ({
  page,
}) => {
  for (const locale of ['en', 'de'] as const) {
    await page.goto(preview.url);
    await showLocale(page, locale);
    await page.reload();
    const connect = page.getByRole('button', { name: locale === 'en' ? 'Connect…' : 'Verbinden…' });
    await expect(connect).toBeFocused();
    // Where the page shows it unscrolled: the first run's one action, above the fold.
    const box = await page.evaluate(() => {
      // Every scrolled box back to its top (the focus scrolled the button into view).
      for (let box: Element | null = document.activeElement; box; box = box.parentElement) {
        box.scrollTop = 0;
      }
      window.scrollTo(0, 0);
      const element = document.activeElement!.getBoundingClientRect();
      return { bottom: element.bottom, height: window.innerHeight };
    });
    expect(box.bottom, locale).toBeLessThanOrEqual(box.height);
  }
  await showLocale(page, 'en');
});

test('Connect answers a press while the window is still reading the account at its start', async ({
  context,
}) => {
  // The channel's answer to the window's status read at its start is held back until released.
  const { page, release } = await windowHoldingAnswers(context, 'account.status');
  await expect(page.getByText('Checking your connection…')).toBeVisible();

  // Status events arrive meanwhile (here: a connect and its cancel, asked by another part of
  // Callbar, as the tray would): the window shows Connect, and a press of it connects.
  await page.evaluate(() => window.callbar.account.connect());
  await preview.nextOpenedUrl();
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeVisible();
  await page.evaluate(() => window.callbar.account.cancelConnect());
  await page.getByRole('button', { name: 'Connect…' }).click();
  expect(await preview.nextOpenedUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\//);
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');

  // The read's answer, older than those events, arrives last: it is not shown over them.
  release();
  // The channel keeps its order: once a later call is answered, the held answer is in too.
  await page.evaluate(() => window.callbar.app.info());
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');
  await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeVisible();

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
});

test('connect through the portal, and the app shows who is connected', async ({
  page,
  context,
}) => {
  await page.goto(preview.url);
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await page.getByRole('button', { name: 'Connect…' }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Connecting…');

  // Callbar asked the system browser to open its one-time loopback address (never the portal
  // link, which holds the confirmation key); a second tab plays that browser.
  const browserUrl = await preview.nextOpenedUrl();
  expect(browserUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\//);
  const portal = await context.newPage();
  await portal.goto(browserUrl);
  expect(portal.url().startsWith(`${sim.portal_url}/`)).toBe(true);
  const user = sim.users[0]!;
  await portal.getByLabel('Username').fill(user.username);
  await portal.getByLabel('Password').fill(user.password);
  await portal.getByRole('button', { name: 'Sign in' }).click();
  await portal.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await expect(
    portal.getByRole('heading', { name: 'Connected — you can close this tab' }),
  ).toBeVisible();
  await picture(portal, 'connected-landing.png');

  // The app learns it from core's event stream, without a reload.
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`);
  // The window moves on to what a connected user does: the search box, focused.
  await expect(
    page.getByRole('combobox', { name: 'Search contacts or type a number' }),
  ).toBeFocused();
  await picture(page, 'connected-app.png');

  // Nothing the renderer can see carries a token.
  const stored = (await openVault({ dataDir }).load())!;
  const visible = await page.evaluate(async () =>
    JSON.stringify(await window.callbar.account.status()),
  );
  expect(visible).not.toContain(stored.access_token);
  expect(await page.content()).not.toContain(stored.access_token);

  // Disconnecting this computer (menu, then confirm) forgets the session.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Disconnect this computer…' }).click();
  await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  expect(await openVault({ dataDir }).load()).toBeUndefined();
});

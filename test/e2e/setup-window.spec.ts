import { expect, test, type Page } from '@playwright/test';
import { endedAttemptWarning } from '../../src-main/core/account/account-service';
import { windowOptions } from '../../src-main/core/desktop/window-security';
import {
  type E2eApp,
  expectAccessibleInBothThemes,
  pictureInBothThemes,
  startApp,
  subscribeInPortal,
  UNREACHABLE_KEYCHAIN,
} from '../support/e2e-app';

/**
 * The first-run setup window: the desktop shell loads the renderer at `#setup` in a small window
 * (src-main/app/windows.ts). It shows the Connect flow and nothing else, then whose account is
 * connected, where Callbar lives from now on, and Open Callbar (app.showMain).
 */

// The setup window's size, less a title bar: everything must fit without scrolling.
const TITLE_BAR = 40;
const setupWindow = windowOptions({ kind: 'setup', preloadFile: '' });
test.use({ viewport: { width: setupWindow.width, height: setupWindow.height - TITLE_BAR } });

/** The preview's address opened as the shell opens the setup window. */
const setupUrl = (app: E2eApp) => app.preview.url.replace('#token=', '#setup&token=');

/**
 * Every channel the page calls, in order (over the preview's channel, or one POST each), and
 * each answer by the call's channel.
 */
function recordInvokes(page: Page): { channels: string[]; answers: Map<string, unknown[]> } {
  const channels: string[] = [];
  const answers = new Map<string, unknown[]>();
  const byId = new Map<number, string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/__callbar/invoke/'))
      channels.push(path.slice('/__callbar/invoke/'.length));
  });
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const call = JSON.parse(String(payload)) as { id: number; channel: string };
      byId.set(call.id, call.channel);
      channels.push(call.channel);
    });
    socket.on('framereceived', ({ payload }) => {
      const answer = JSON.parse(String(payload)) as { id: number; result: unknown };
      const channel = byId.get(answer.id);
      if (channel) answers.set(channel, [...(answers.get(channel) ?? []), answer.result]);
    });
  });
  return { channels, answers };
}

/** Neither the page nor the window's main area (the screen's one scroller) scrolls. */
async function expectNoScrolling(page: Page, what: string) {
  const overflow = await page.evaluate(() =>
    [document.documentElement, document.querySelector('main')!].map(
      (element) => element.scrollHeight - element.clientHeight,
    ),
  );
  expect(overflow, `${what} fits the setup window`).toEqual([0, 0]);
}

/** Nothing of the main window: no menu, no search box, no call bar, no recent calls. */
async function expectSetupOnly(page: Page) {
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveCount(0);
  await expect(
    page.getByRole('combobox', { name: 'Search contacts or type a number' }),
  ).toHaveCount(0);
  await expect(page.getByText('Recent calls')).toHaveCount(0);
}

test.describe('with a keychain', () => {
  let app: E2eApp;
  test.beforeAll(async () => {
    app = await startApp();
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('first run: the country and the shortcut, what comes next, connect, then "Connected as Ext. …" and Open Callbar', async ({
    page,
  }) => {
    const invokes = recordInvokes(page);
    await page.goto(setupUrl(app));
    await expect(page.getByRole('heading', { name: 'Welcome to Callbar' })).toBeVisible();
    // The token left the address; the renderer's part of it stayed.
    expect(new URL(page.url()).hash).toBe('#setup');
    await expect(page.getByRole('button', { name: 'Connect…' })).toBeFocused();
    await expectSetupOnly(page);
    await expectNoScrolling(page, 'the connect view');
    await expectAccessibleInBothThemes(page, 'setup: connect');
    // The country (the region setting, from the system's region until one is chosen), saved as
    // it is chosen; the shortcut; and the steps ahead.
    const country = page.getByLabel('Your country', { exact: true });
    const settings = await page.evaluate(() => window.callbar.settings.get());
    expect(settings.ok).toBe(true);
    if (settings.ok) await expect(country).toHaveValue(settings.value.settings.region);
    await expect(page.getByRole('button', { name: /^Global shortcut: / })).toBeVisible();
    const steps = page.getByRole('list', { name: 'What comes next' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(1)).toHaveText('Sign in there and press Subscribe.');
    await country.selectOption({ label: 'Austria (AT)' });
    await expect(page.getByTestId('field-saved')).toHaveText('Saved');
    await expect
      .poll(async () => {
        const saved = await page.evaluate(() => window.callbar.settings.get());
        return saved.ok && saved.value.settings.region;
      })
      .toBe('AT');
    await country.selectOption(settings.ok ? settings.value.settings.region : 'US');

    await page.getByRole('button', { name: 'Connect…' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await expectSetupOnly(page);
    await expectNoScrolling(page, 'the waiting view');
    await expectAccessibleInBothThemes(page, 'setup: waiting');

    const user = await subscribeInPortal(app);
    const done = page.getByTestId('setup-done');
    await expect(done.getByRole('heading')).toHaveText(`Connected as Ext. ${user.extension}`);
    await expect(page.getByTestId('account-state')).toHaveText(
      `Connected · Ext. ${user.extension}`,
    );
    // The default dial shortcut, as this platform's keyboard names it.
    const key = process.platform === 'darwin' ? 'Cmd+Shift+D' : 'Ctrl+Shift+D';
    await expect(done).toContainText(
      `Callbar lives in the tray and keeps running when you close this window. Press ${key} in any app to find a contact and dial.`,
    );
    const open = page.getByRole('button', { name: 'Open Callbar' });
    await expect(open).toBeFocused();
    await expectSetupOnly(page);
    await expectNoScrolling(page, 'the connected view');
    await expectAccessibleInBothThemes(page, 'setup: connected');
    await pictureInBothThemes(page, 'setup-connected');

    // Open Callbar asks the shell for the main window. The preview has none to show (core
    // answers shown: false), so this page becomes the main window: the search box, focused.
    await page.keyboard.press('Enter');
    await expect
      .poll(() => invokes.answers.get('app.showMain'))
      .toEqual([{ ok: true, value: { shown: false } }]);
    const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
    await expect(search).toBeFocused();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
    expect(new URL(page.url()).hash).toBe('');
    expect(invokes.channels.filter((channel) => channel === 'app.showMain')).toHaveLength(1);

    // Loaded again (this tab keeps its session), it is the main window, not setup.
    await page.reload();
    await expect(search).toBeFocused();
  });

  test('an attempt that ended says its link must not be used, and Connect starts anew', async ({
    page,
  }) => {
    await page.goto(setupUrl(app));
    // The previous test connected this profile; forget it to be on first run again.
    await page.evaluate(() => window.callbar.account.forget());
    await page.reload();
    await page.getByRole('button', { name: 'Connect…' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for the portal…' })).toBeFocused();
    await app.preview.nextOpenedUrl();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await expect(
      page.getByText(`Connecting was cancelled. ${endedAttemptWarning()}`),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Connect…' })).toBeFocused();
    await expectSetupOnly(page);
    await expectNoScrolling(page, 'the ended-attempt warning');
    await expectAccessibleInBothThemes(page, 'setup: ended attempt');
  });
});

test.describe('without a keychain', () => {
  let app: E2eApp;
  test.beforeAll(async () => {
    app = await startApp({ env: UNREACHABLE_KEYCHAIN });
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('the keychain explanation and Try again, no Connect', async ({ page }) => {
    await page.goto(setupUrl(app));
    await expect(
      page.getByRole('heading', { name: 'Callbar cannot use the system keychain' }),
    ).toBeFocused();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Connect/ })).toHaveCount(0);
    await expectSetupOnly(page);
    await expectNoScrolling(page, 'the keychain view');
    await expectAccessibleInBothThemes(page, 'setup: keychain unavailable');
  });
});

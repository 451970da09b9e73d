import { expect, test } from '@playwright/test';
import packageJson from '../../package.json' with { type: 'json' };
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPreviewProcess, type PreviewProcess } from '../support/preview-process';
import { freePort } from '../support/free-port';
import { picture } from '../support/e2e-app';

let preview: PreviewProcess;

test.beforeAll(async () => {
  preview = await startPreviewProcess({
    CALLBAR_DATA_DIR: mkdtempSync(join(tmpdir(), 'callbar-e2e-')),
    CALLBAR_RECEIVER_PORT: String(await freePort()),
  });
});
test.afterAll(async () => {
  await preview.stop();
});

test('the app shell shows app.info that came from core', async ({ page }) => {
  const calls: string[] = [];
  // The window's calls travel over the preview's WebSocket, one message `{id, channel, body}` each.
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const channel = (JSON.parse(String(payload)) as { channel?: string }).channel;
      if (channel) calls.push(channel);
    });
  });
  await page.goto(preview.url);

  // The token left the address bar (it lives in this tab's sessionStorage) and is no cookie.
  await expect(page.getByTestId('account-state')).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  expect(await page.context().cookies()).toEqual([]);
  await expect(page.getByText('Callbar', { exact: true })).toBeVisible();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect…' })).toBeVisible();
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'About Callbar' }).click();
  await expect(page.getByTestId('app-version')).toHaveText(packageJson.version);
  await expect(page.getByTestId('app-runtime')).toHaveText('Web preview');
  expect(calls).toContain('app.info');

  // The renderer sees only the contract's named methods, never a generic invoke.
  const shape = await page.evaluate(() => ({
    domains: Object.keys(window.callbar).sort(),
    app: Object.keys(window.callbar.app),
  }));
  expect(shape).toEqual({
    domains: [
      'account',
      'app',
      'calls',
      'contacts',
      'crm',
      'directory',
      'exports',
      'favourites',
      'imports',
      'onEvent',
      'phonebooks',
      'settings',
    ],
    app: ['info', 'showMain', 'sayAgain'],
  });

  await picture(page, 'app-shell.png', { fullPage: true });
});

test('a page without the session token gets nothing', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(preview.origin);
  await expect(page.getByText('npm run demo')).toBeVisible();
  await expect(page.getByTestId('account-state')).toHaveCount(0);
  const calls = await page.evaluate(async () => {
    const response = await fetch('/__callbar/invoke/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return response.status;
  });
  expect(calls).toBe(401);
  await context.close();
});

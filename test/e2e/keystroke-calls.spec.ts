import { expect, test, type Page } from '@playwright/test';
import { addContact, openConnected, startApp, type E2eApp } from '../support/e2e-app';

/**
 * What the window asks core while a person types (issue 31): one search per key at most, and no
 * call for what the window already holds (favourites, settings) when a view mounts on the way:
 * the star toggle that appears with the first hit, the favourites list and the first-run hint
 * that come back with Esc. Every `window.callbar` call of the preview is one message on its
 * WebSocket (or, when that cannot open, one request to `/__callbar/invoke/<channel>`); the page's
 * `WebSocket.prototype.send` and `fetch` are wrapped before the bridge loads to record each
 * channel at the moment it is asked (the product has no counter of its own).
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 200, autoAnswer: false } });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Grace Hopper',
    company: 'Navy',
    number: '+1 202 555 0143',
    secondary_number: null,
    speed_dial: 7351,
  });
});
test.afterAll(async () => {
  await app.close();
});

declare global {
  interface Window {
    __bridgeCalls: string[];
  }
}

/** Records the channel of every bridge call the page makes from now on (before any script). */
async function recordBridgeCalls(page: Page) {
  await page.addInitScript(() => {
    window.__bridgeCalls = [];
    const fetched = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const path = new URL(String(input instanceof Request ? input.url : input), location.href)
        .pathname;
      const channel = /^\/__callbar\/invoke\/(.+)$/.exec(path)?.[1];
      if (channel) window.__bridgeCalls.push(decodeURIComponent(channel));
      return fetched(input, init);
    };
    // The bridge's channel: one WebSocket message per call (`{"id", "channel", "body"}`).
    const sent = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'send')!
      .value as WebSocket['send'];
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (typeof data === 'string' && data.includes('"channel"')) {
        window.__bridgeCalls.push((JSON.parse(data) as { channel: string }).channel);
      }
      sent.call(this, data);
    };
  });
}

/** The channels asked since the last call, once the page has run its effects after the last render. */
async function callsSince(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Two frames and a task: React's passive effects (a mount's call) have run by then.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await new Promise((done) => setTimeout(done, 50));
    return window.__bridgeCalls.splice(0);
  });
}

function count(calls: string[], channel: string): number {
  return calls.filter((each) => each === channel).length;
}

test('typing a name asks for one search per key at most, and nothing the window holds', async ({
  page,
}) => {
  await recordBridgeCalls(page);
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeFocused();
  // A favourite, so the empty search shows the favourites list that Esc brings back.
  await search.fill('grace hop');
  await page.getByRole('button', { name: 'Star Grace Hopper' }).click();
  await expect(page.getByRole('button', { name: 'Unstar Grace Hopper' })).toBeVisible();
  await search.fill('');
  await expect(page.getByTestId('favourites')).toContainText('Grace Hopper');
  await callsSince(page);

  const typed: string[] = [];
  for (const text of ['grace', 'hopper']) {
    await search.pressSequentially(text);
    await expect(page.getByRole('option').first()).toContainText('Grace Hopper');
    // Esc empties the box: the favourites list (and the first-run hint) mount again.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('favourites')).toContainText('Grace Hopper');
    typed.push(...(await callsSince(page)));
  }

  const keys = 'grace'.length + 'hopper'.length;
  expect(count(typed, 'directory.search')).toBeGreaterThan(0);
  expect(count(typed, 'directory.search')).toBeLessThanOrEqual(keys);
  expect(count(typed, 'favourites.list'), typed.join(', ')).toBe(0);
  expect(count(typed, 'settings.get'), typed.join(', ')).toBe(0);
  expect(typed.filter((each) => each !== 'directory.search')).toEqual([]);
});

test('typing a number asks for one search per key at most, whose answer holds the Dial row', async ({
  page,
}) => {
  await recordBridgeCalls(page);
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeFocused();
  await callsSince(page);

  const number = '2025550143';
  await search.pressSequentially(number);
  await expect(page.getByRole('option').first()).toContainText('Dial');
  await expect(page.getByRole('listbox')).toContainText('Grace Hopper');
  const typed = await callsSince(page);

  // The dial row ("Dial …") is core's reading of the typed text, in the search's own answer: one
  // round trip a key, no calls.parse of its own.
  expect(count(typed, 'directory.search')).toBeLessThanOrEqual(number.length);
  expect(
    typed.filter((each) => each !== 'directory.search'),
    typed.join(', '),
  ).toEqual([]);
});

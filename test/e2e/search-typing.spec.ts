import { expect, test, type Page } from '@playwright/test';
import { addContact, openConnected, startApp, type E2eApp } from '../support/e2e-app';

/**
 * Typing into the search box as fast as a person does (issue 31): the list follows the answer,
 * never the typed text alone; one search is under way at a time and only the latest text waits
 * behind it; an older query's late answer never replaces a newer one; fast typing ends on the
 * last typed text's hits; the list shows the core's hits in its order, and asks for more of them
 * as the selection nears the end of the first answer.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 600, autoAnswer: false } });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ada Lovelace',
    company: 'Analytical Engines',
    number: '+44 20 7123 4567',
    secondary_number: '+44 7700 900123',
    speed_dial: 7341,
  });
});
test.afterAll(async () => {
  await app.close();
});

async function openWithContacts(page: Page) {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeFocused();
  return search;
}

/** A request on the preview's channel (`src-main/preview/request-channel.ts`) and its answer. */
interface ChannelMessage {
  id: number;
  channel?: string;
  body?: { query?: string };
}

/**
 * The search calls the page makes, each held until `release` lets it through. The window's calls
 * travel over the preview's WebSocket, one message each way: the page's socket is routed through
 * Playwright, which passes every message on except the held searches.
 */
async function holdSearches(page: Page, held: (query: string) => boolean) {
  const waiting: { query: string; id: number; send: () => void }[] = [];
  const arrived: string[] = [];
  const answered = new Set<number>();
  // Installed before the page opens its channel (a socket opened earlier is not routed).
  await page.routeWebSocket(/\/__callbar\/channel$/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      const request = JSON.parse(String(message)) as ChannelMessage;
      const query = request.channel === 'directory.search' ? request.body?.query : undefined;
      if (query === undefined) return server.send(message);
      arrived.push(query);
      if (held(query)) waiting.push({ query, id: request.id, send: () => server.send(message) });
      else server.send(message);
    });
    server.onMessage((message) => {
      answered.add((JSON.parse(String(message)) as ChannelMessage).id);
      socket.send(message);
    });
  });
  return {
    arrived,
    /** Lets the held call for `query` through and waits for its answer to reach the page. */
    release: async (query: string) => {
      await expect.poll(() => waiting.some((call) => call.query === query)).toBe(true);
      const call = waiting.splice(
        waiting.findIndex((each) => each.query === query),
        1,
      )[0]!;
      call.send();
      await expect.poll(() => answered.has(call.id)).toBe(true);
      // Two frames: the answer's promise settled and anything it rendered is on screen.
      await page.evaluate(
        () =>
          new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(0)))),
      );
    },
  };
}

/** The names in the list's rows now in the DOM, top to bottom. */
async function shownNames(page: Page): Promise<string[]> {
  return page
    .getByRole('option')
    .locator('.result-name')
    .evaluateAll((names) => names.map((name) => name.textContent ?? ''));
}

test('while a search is under way only the last text typed meanwhile is asked, and a stale answer is never shown', async ({
  page,
}) => {
  const calls = await holdSearches(page, (query) => query === 'lov' || query === 'lovel');
  const search = await openWithContacts(page);
  await page.keyboard.type('lov');
  await expect.poll(() => calls.arrived).toContain('lov');
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(0)))),
  );
  const before = await shownNames(page);
  // "love" and "lovel" are typed while "lov" is under way: only "lovel" is asked after it.
  await page.keyboard.type('el');
  await expect(search).toHaveValue('lovel');
  await calls.release('lov');
  await expect.poll(() => calls.arrived.at(-1)).toBe('lovel');
  expect(calls.arrived).not.toContain('love');
  // The answer to "lov" came after "lovel" was typed: the list still shows what it showed.
  expect(await shownNames(page)).toEqual(before);
  await calls.release('lovel');
  const first = page.getByRole('option').first();
  await expect(first).toContainText('Ada Lovelace');
  await expect(first.locator('mark')).toHaveText(['Lovel']);
});

test('more calls at once than the preview channel carries wait their turn; none fails', async ({
  page,
}) => {
  await openWithContacts(page);
  // The channel's server takes at most 16 requests under way on a socket and closes one that
  // sends more (src-main/preview/request-channel.ts); the bridge holds the rest until answers come.
  const answers = await page.evaluate(() =>
    Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        window.callbar.directory.search({ query: `a${index % 10}`, limit: 5 }),
      ),
    ),
  );
  expect(answers.filter((answer) => answer.ok)).toHaveLength(40);
});

test('while an answer is on its way the list stays as it was; it never says "no match" early', async ({
  page,
}) => {
  const calls = await holdSearches(page, (query) => query === 'l');
  const search = await openWithContacts(page);
  await expect(page.getByRole('region', { name: 'Recent calls' })).toBeVisible();
  await page.keyboard.type('l');
  await expect.poll(() => calls.arrived).toContain('l');
  // The box shows the key at once; the view waits for the answer (no "No contact matches “l”").
  await expect(search).toHaveValue('l');
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(0)))),
  );
  await expect(page.getByRole('status').filter({ hasText: 'No contact matches' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Recent calls' })).toBeVisible();
  await calls.release('l');
  await expect(page.getByRole('option').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent calls' })).toBeHidden();
});

test('typing fast ends on the hits of the last typed text', async ({ page }) => {
  const search = await openWithContacts(page);
  await search.pressSequentially('lovelace');
  const first = page.getByRole('option').first();
  await expect(first.locator('mark')).toHaveText(['Lovelace']);
  await expect(first).toContainText('Ada Lovelace');
  for (let i = 0; i < 5; i++) await page.keyboard.press('Backspace');
  await expect(search).toHaveValue('lov');
  await expect(first.locator('mark')).toHaveText(['Lov']);
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(page.getByRole('listbox')).toBeHidden();
});

test('the list shows the hits the core answers, in its order, more of them near the end', async ({
  page,
}) => {
  const search = await openWithContacts(page);
  for (const query of ['an', 'lovel', 'ma']) {
    await search.fill(query);
    const answer = await page.evaluate(
      (text) => window.callbar.directory.search({ query: text, limit: 200 }),
      query,
    );
    if (!answer.ok) throw new Error(answer.error.message);
    const names = answer.value.hits.map((hit) => hit.contact.display_name);
    await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    const shown = await shownNames(page);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(names.slice(0, shown.length));
    if (names.length <= 60) continue;

    // PageDown to the end: the list asks for the rest of the hits on the way there.
    await expect
      .poll(async () => {
        await page.keyboard.press('PageDown');
        return page.locator(`#result-${names.length - 1}`).getAttribute('aria-selected');
      })
      .toBe('true');
    const last = page.locator(`#result-${names.length - 1}`);
    await expect(last).toHaveAttribute('aria-setsize', String(names.length));
    await expect(last.locator('.result-name')).toHaveText(names.at(-1)!);
    expect(await page.getByRole('option').count()).toBeLessThan(30);
  }
});

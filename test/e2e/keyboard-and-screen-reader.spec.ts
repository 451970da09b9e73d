import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { showLocale } from '../support/a11y';
import { openConnected, placedCallBar, startApp, type E2eApp } from '../support/e2e-app';

/**
 * What a keyboard-only audit with a screen reader's ears found (English and German, both themes,
 * 420 and 1280 px), beside what accessibility.spec.ts covers: the focus never falls to the page
 * when something shown in place closes, and the search says how it went once the typing settles,
 * not once per key.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 30, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await app.close();
});

async function ready(page: Page) {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  return page.getByRole('combobox', { name: 'Search contacts or type a number' });
}

test('a call’s note, written in place and saved or left with the keys, gives the focus back to where it was opened', async ({
  page,
}) => {
  const search = await ready(page);
  await search.fill('+49 30 1234567');
  await expect(page.getByRole('option').first()).toContainText('Dial');
  await search.press('Enter');
  await placedCallBar(page);
  const live = (await control.calls()).find((call) => call.state !== 'ended')!;
  await control.endLeg(live.legs.find((leg) => leg.leg === 'caller')!.id);

  // The ended call's card: Add note, then Esc, then Add note, a note and Enter.
  const ended = page.getByRole('region', { name: 'Call ended' });
  const note = page.getByRole('textbox', { name: 'Note on this call' });
  const addNote = ended.getByRole('button', { name: /^Add note: / });
  await addNote.focus();
  await page.keyboard.press('Enter');
  await expect(note).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(note).toBeHidden();
  await expect(addNote).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(note).toBeFocused();
  await page.keyboard.type('Call back on Monday');
  await page.keyboard.press('Enter');
  await expect(note).toBeHidden();
  const editNote = ended.getByRole('button', { name: /^Edit note: / });
  await expect(editNote).toBeFocused();
  // Close: the focus goes back to the search box (SearchView).
  await page.keyboard.press('Tab');
  await expect(ended.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ended).toBeHidden();
  await expect(search).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');

  // The recent call's row: ⋯ → Edit note, then Esc; ⋯ → Edit note, Cancel; ⋯ → Edit note, Enter.
  const row = page.locator('.recent-call').first();
  const more = row.getByRole('button', { name: /^More actions for / });
  for (const leave of ['Escape', 'Cancel', 'Enter'] as const) {
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Edit note' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(note).toBeFocused();
    if (leave === 'Cancel') {
      await page.keyboard.press('Tab');
      await expect(row.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Enter');
    } else {
      await page.keyboard.press(leave);
    }
    await expect(note).toBeHidden();
    await expect(more, `after ${leave}`).toBeFocused();
  }
  await expect(row.getByTestId('recent-note')).toHaveText('Call back on Monday');
});

const LIVE_REGIONS =
  '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';

/**
 * Starts recording what the page's live regions say: every new, non-empty text any of them
 * takes (a region that appears with text counts), in order. `said()` returns them.
 */
async function recordLiveRegions(page: Page) {
  await page.evaluate((selector) => {
    const said: string[] = [];
    let last = new Map<Element, string>();
    const read = () => {
      const now = new Map<Element, string>();
      for (const region of document.querySelectorAll(selector)) {
        const text = (region.textContent ?? '').trim();
        now.set(region, text);
        if (text !== '' && last.get(region) !== text) said.push(text);
      }
      last = now;
    };
    read();
    said.length = 0;
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    Object.assign(window, { liveSaid: said });
  }, LIVE_REGIONS);
  return {
    said: () => page.evaluate(() => [...(window as unknown as { liveSaid: string[] }).liveSaid]),
    forget: () =>
      page.evaluate(() => {
        (window as unknown as { liveSaid: string[] }).liveSaid.length = 0;
      }),
  };
}

test('the search says what it found once the typing pauses, never once per key', async ({
  browser,
}) => {
  // The page's timers are the test's: the pause after the last key is taken, not waited for. In
  // a context of its own: the worker's shared one would keep the fake clock for the next tests.
  const context = await browser.newContext({ viewport: { width: 420, height: 640 } });
  const page = await context.newPage();
  await page.clock.install();
  try {
    await searchAnnouncedOnce(page);
  } finally {
    await context.close();
  }
});

async function searchAnnouncedOnce(page: Page) {
  const search = await ready(page);
  const live = await recordLiveRegions(page);
  const announcer = page.getByTestId('search-announcer');
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

  // Typed one key at a time, each key's answer shown before the next (a person's pace): nothing
  // is said while the typing goes on; once it pauses, one sentence.
  await search.focus();
  for (const typed of ['z', 'zq', 'zqx', 'zqxw']) {
    await page.keyboard.type(typed.at(-1)!);
    await expect(page.getByText(`No contact matches “${typed}”.`)).toBeVisible();
  }
  expect(await live.said()).toEqual([]);
  await page.clock.runFor(1_000);
  await expect(announcer).toHaveText('No contacts found');
  expect(await live.said()).toEqual(['No contacts found']);

  // A search with hits: how many, once; Esc empties the box, and the announcer goes with the list.
  await page.keyboard.press('Escape');
  await expect(announcer).toHaveCount(0);
  await live.forget();
  for (const typed of ['a', 'an']) {
    await page.keyboard.type(typed.at(-1)!);
    // The rows are this text's answer (the row highlighted stays result-0 from one to the next).
    await expect(page.getByTestId('results')).toHaveAttribute('data-query', typed);
    await expect(search).toHaveAttribute('aria-activedescendant', 'result-0');
  }
  const answer = await page.evaluate(() =>
    window.callbar.directory.search({ query: 'an', limit: 50 }),
  );
  if (!answer.ok) throw new Error(answer.error.message);
  const count = answer.value.hits.length;
  expect(count).toBeGreaterThan(1);
  await expect(page.getByRole('option')).not.toHaveCount(0);
  expect(await live.said()).toEqual([]);
  await page.clock.runFor(1_000);
  await expect(announcer).toHaveText(`${count} contacts found`);
  // Moving through the rows says nothing more (the box's active row is what is read).
  await page.keyboard.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-activedescendant', 'result-1');
  await page.clock.runFor(1_000);
  expect(await live.said()).toEqual([`${count} contacts found`]);
}

test('in German, the same sentences in its words', async ({ page }) => {
  await ready(page);
  await showLocale(page, 'de');
  const search = page.getByRole('combobox', { name: 'Kontakte suchen oder Nummer eingeben' });
  try {
    const live = await recordLiveRegions(page);
    const announcer = page.getByTestId('search-announcer');
    // Real time here (the English test above holds the clock): what is said, not how often.
    await search.pressSequentially('zqxw');
    await expect(page.getByText('Kein Kontakt passt zu „zqxw“.')).toBeVisible();
    await expect(announcer).toHaveText('Keine Kontakte gefunden');
    await search.press('Escape');
    await expect(announcer).toHaveCount(0);
    await search.pressSequentially('an');
    await expect(announcer).toHaveText(/^\d+ Kontakte gefunden$/);
    const said = await live.said();
    expect(said.at(-1)).toMatch(/^\d+ Kontakte gefunden$/);
    expect(said).toContain('Keine Kontakte gefunden');
    expect(said.filter((text) => text.startsWith('Kein Kontakt passt'))).toEqual([]);
  } finally {
    await showLocale(page, 'en');
  }
});

test('a phonebook’s search says how many match once the typing pauses, never once per key', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.clock.install();
  try {
    await ready(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Phonebooks and contacts' }).click();
    await page.getByRole('button', { name: 'Company directory', exact: true }).click();
    await expect(page.getByTestId('contact-row').first()).toBeVisible();
    const filter = page.getByRole('searchbox', { name: 'Search contacts' });
    await filter.focus();
    const count = page.getByTestId('list-count');
    const announcer = page.getByTestId('list-announcer');
    await expect(announcer).toHaveText(/^\d+ contacts?$/);
    const live = await recordLiveRegions(page);
    // Every sentence the visible count shows: each search's count is its own answer's, never the
    // one before it beside the new words ("12 contacts match “an”" where 12 matched "a").
    await page.evaluate(() => {
      const shown: string[] = [];
      (window as unknown as { shownCounts: string[] }).shownCounts = shown;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="list-count"]')?.textContent;
        if (text && shown.at(-1) !== text) shown.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    // One key at a time, each key's count shown before the next.
    for (const typed of ['a', 'an']) {
      await page.keyboard.type(typed.at(-1)!);
      await expect(count).toHaveText(new RegExp(`match “${typed}”`));
    }
    const shown = await page.evaluate(
      () => (window as unknown as { shownCounts: string[] }).shownCounts,
    );
    const countsOf = new Map<string, Set<string>>();
    for (const text of shown) {
      const [, number, search] = /^(\d+) contacts? match “(.*)”$/.exec(text) ?? [];
      if (search !== undefined)
        countsOf.set(search, (countsOf.get(search) ?? new Set()).add(number!));
    }
    expect([...countsOf.keys()], shown.join(' / ')).toEqual(['a', 'an']);
    for (const [search, numbers] of countsOf)
      expect([...numbers], `“${search}”: ${shown.join(' / ')}`).toHaveLength(1);
    expect(await live.said()).toEqual([]);
    await page.clock.runFor(1_000);
    const final = await page.evaluate(
      () => document.querySelector('[data-testid="list-count"]')!.textContent,
    );
    await expect(announcer).toHaveText(final);
    expect(await live.said()).toEqual([final]);
  } finally {
    await context.close();
  }
});

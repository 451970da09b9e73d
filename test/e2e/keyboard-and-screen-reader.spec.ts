import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
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

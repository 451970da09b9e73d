import { expect, test, type Page } from '@playwright/test';
import {
  addContact,
  expectAccessibleInBothThemes,
  openConnected,
  startApp,
  type E2eApp,
} from '../support/e2e-app';

/**
 * The global dial shortcut (default Ctrl/Cmd+Shift+D) brings the window up with the search box
 * focused, prefilled with the clipboard's number when it parses. The desktop shell and the web
 * preview build its app.focusSearch event with the same core function (focusSearchEvent: the
 * clipboard parsed by calls.parse); the preview takes the key press on its standard input
 * (--stdin-shortcut), as a browser tab has no global shortcut. From there on everything is real:
 * core's event, the bridge's event stream, the store, the view.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Grace Hopper',
    company: 'Compilers Inc.',
    number: '+49 30 5550199',
    secondary_number: null,
    speed_dial: 8765,
  });
});
test.afterAll(async () => {
  await app.close();
});

const searchBox = (page: Page) =>
  page.getByRole('combobox', { name: 'Search contacts or type a number' });

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  await expect(searchBox(page)).toHaveCount(0);
}

test('from another view, the shortcut brings the search box, focused, with the clipboard number', async ({
  page,
}) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  await openSettings(page);

  // A number as people copy it: punctuation, spaces and a second line.
  app.preview.pressDialShortcut('  +49 (30) 555-0199\nGrace, Compilers Inc.');
  const search = searchBox(page);
  await expect(search).toBeFocused();
  const query = await search.inputValue();
  expect(query.replace(/\D/g, '')).toBe('49305550199');
  // The prefill is selected, so typing replaces it.
  expect(
    await search.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd]),
  ).toEqual([0, query.length]);
  await expect(page.getByRole('option').first()).toContainText(`Dial ${query}`);
  // The directory knows the number: its contact is the first hit below the Dial row.
  const contact = page.getByRole('option').nth(1);
  await expect(contact).toContainText('Grace Hopper');
  await expect(contact).toContainText('Compilers Inc.');
  await expectAccessibleInBothThemes(page, 'search prefilled by the dial shortcut');

  // Typing replaces the selected prefill.
  await page.keyboard.type('hopper');
  await expect(search).toHaveValue('hopper');
  await expect(page.getByRole('option').first()).toContainText('Grace Hopper');
});

test('a clipboard without a number focuses an empty search box', async ({ page }) => {
  await openConnected(page, app);
  const search = searchBox(page);
  await search.fill('grace');
  await expect(page.getByRole('option').first()).toContainText('Grace Hopper');
  await openSettings(page);

  app.preview.pressDialShortcut('Dear Grace, see you on Monday.');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await expect(page.getByRole('option')).toHaveCount(0);
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SimControl } from '../../simulator/control-client';
import type { WorldSummary } from '../../simulator/control-types';
import {
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  picture,
  placedCallBar,
  startApp,
} from '../support/e2e-app';

/**
 * Issue 27 (items 5, 6, 8) and issue 42 (points 2–4), at the real window size (420×640): a
 * phonebook of 1,500 contacts as one continuous list (no paging, only the rows in view in the
 * page) with initials, name and company, the number, Call and "⋯" on hover or focus, Import,
 * Export and Select in one menu; phonebooks with their counts and shared/personal mark; the same
 * Back control and Esc on every screen; Settings as one flat page that saves each change with a
 * quiet "Saved" and scrolls as a whole, with no test language offered; the first-run hint; an
 * empty phonebook with one next step; recent calls grouped.
 */
let app: E2eApp;
let control: SimControl;
let world: WorldSummary;

test.beforeAll(async () => {
  // Enough for one phonebook of more than 1,500 contacts (Customers takes ~30 % of them).
  app = await startApp({ sim: { contacts: 5200, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
  world = (await (await fetch(`${app.sim.base_url}/__sim/world`)).json()) as WorldSummary;
});
test.afterAll(async () => {
  await app.close();
});

/** A look at the screen for whoever debugs a failure (the docs' pictures: accessibility.spec). */
async function screenshot(page: Page, name: string) {
  await picture(page, `${name}.png`);
}

/** The screens the menu opens: its item, and the screen's heading. */
const MENU_SCREENS = [
  ['Phonebooks and contacts', 'Phonebooks'],
  ['Settings', 'Settings'],
  ['About Callbar', 'About Callbar'],
] as const;

async function fromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: item }).click();
}

/** Nothing scrolls sideways, and `inside` lies within the window's width. */
async function expectFitsWidth(page: Page, inside: Locator) {
  const overflow = await page.evaluate(() => {
    const wide = [...document.querySelectorAll<HTMLElement>('*')].filter(
      (element) => element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0,
    );
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      scrollers: wide
        .filter((element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX))
        .map((element) => element.className),
    };
  });
  expect(overflow).toEqual({ page: 0, scrollers: [] });
  const width = page.viewportSize()!.width;
  for (const box of await inside.evaluateAll((all) =>
    all.map((element) => element.getBoundingClientRect().right),
  )) {
    expect(box).toBeLessThanOrEqual(width);
  }
}

/** Opens the screen's "More" menu and runs its item. */
async function fromMore(page: Page, item: string) {
  await page.getByRole('button', { name: /^More: / }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** The elements inside the main area that scroll on their own (their content taller than them). */
function innerScrollers(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowY))
      .filter((element) => element.scrollHeight > element.clientHeight + 1)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );
}

test('a phonebook of 1,500 contacts is one list: no paging, rows that fit, Call and ⋯ on hover or focus, Import, Export and Select in one menu', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const book = [...world.phonebooks]
    .filter((entry) => entry.tenant_id === app.sim.tenant_id)
    .sort((a, b) => b.contact_count - a.contact_count)[0]!;
  expect(book.contact_count).toBeGreaterThanOrEqual(1500);
  await openConnected(page, app);
  // The counts are the directory's: once it has synced.
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  await fromMenu(page, 'Phonebooks and contacts');
  await expect(page.getByRole('heading', { name: 'Phonebooks' })).toBeFocused();
  // Each phonebook with its count and a shared or personal mark; no "Priority" unless ordered by it.
  const bookRow = page.getByTestId('phonebook-row').filter({ hasText: book.description });
  await expect(bookRow.getByTestId('phonebook-count')).toHaveText(
    `${book.contact_count.toLocaleString('en')} contacts`,
  );
  await expect(bookRow.getByTestId('phonebook-kind')).toHaveText('Shared');
  await expect(
    page.getByTestId('phonebook-row').filter({ hasText: 'personal' }).first(),
  ).toContainText('Personal');
  await expect(page.getByTestId('phonebook-row').filter({ hasText: 'Priority' })).toHaveCount(0);
  await page.getByRole('combobox').selectOption({ label: 'Priority, highest first' });
  await expect(bookRow).toContainText(/Priority \d+/);
  await page.getByRole('combobox').selectOption({ label: 'Name, A to Z' });
  await expectFitsWidth(page, page.getByRole('button', { name: /^More actions for / }));
  await expectAccessibleInBothThemes(page, 'phonebooks as one list');
  await screenshot(page, 'phonebooks');

  await page.getByRole('button', { name: book.description, exact: true }).click();
  const rows = page.getByTestId('contact-row');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText(
    `${book.contact_count.toLocaleString('en')} contacts`,
  );
  // No pages: no Previous or Next, and only the rows in view (and a few beyond) are in the page.
  await expect(page.getByRole('button', { name: /^(Previous|Next)$/ })).toHaveCount(0);
  expect(await rows.count()).toBeLessThan(60);
  // Scrolled to its end, the screen shows the last contact (its page asked for as it came).
  const list = page.getByRole('list', { name: 'Contacts' });
  await expect(list.locator('li').first()).toHaveAttribute(
    'aria-setsize',
    String(book.contact_count),
  );
  await page.locator('main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  const last = list.locator(`li[aria-posinset="${book.contact_count}"]`);
  await expect(last.getByTestId('contact-row')).toBeVisible({ timeout: 15_000 });
  expect(await rows.count()).toBeLessThan(60);
  // One scrollbar: the screen's, not an area of its own.
  expect(await innerScrollers(page)).toEqual([]);
  await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
  await expectFitsWidth(page, page.getByRole('button', { name: /^(Call|More actions for) / }));
  await expectAccessibleInBothThemes(page, 'contacts as one list');

  // Each row: initials, the name and company, the number; Call and ⋯ show on hover.
  const first = rows.first();
  const name = (await first.locator('.row-name').innerText()).trim();
  await expect(first.locator('.avatar')).toHaveText(/^\p{L}{1,2}$/u);
  const call = first.getByRole('button', { name: `Call ${name}` });
  const shown = () =>
    first.locator('.row-actions').evaluate((node) => Number(getComputedStyle(node).opacity));
  await page.mouse.move(0, 0);
  expect(await shown()).toBe(0);
  await first.hover();
  expect(await shown()).toBe(1);
  await screenshot(page, 'contacts-hover');

  // Filtering keeps the actions where they were (no columns to jump).
  const callAt = async () => (await call.boundingBox())!.x;
  const before = await callAt();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(name);
  await expect(page.getByTestId('list-count')).toHaveText(/contacts? match/);
  expect(await callAt()).toBe(before);
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');

  // A click anywhere on the row edits; so does Enter on it.
  await first.click({ position: { x: 200, y: 10 } });
  const editor = page.getByRole('dialog', { name: 'Edit contact' });
  await expect(editor).toBeVisible();
  await expect(editor.getByLabel('Name')).toHaveValue(name);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toBeHidden();
  await first.getByRole('button', { name: `Edit ${name}` }).focus();
  // Focused, the row shows its actions as hovered does.
  await page.mouse.move(0, 0);
  expect(await shown()).toBe(1);
  await page.keyboard.press('Enter');
  await expect(editor).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  // ↓ and ↑ go from row to row, as in the search's results.
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1).locator('.row-main')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first.locator('.row-main')).toBeFocused();

  // The ⋯ menu by keyboard: Enter opens it on Delete, Esc closes it with the focus back.
  const more = first.getByRole('button', { name: `More actions for ${name}` });
  await more.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: `More actions for ${name}` });
  await expect(menu.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  // Deleting asks first: Keep leaves the contact.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const confirmOne = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirmOne).toBeVisible();
  await confirmOne.getByRole('button', { name: 'Keep' }).click();
  await expect(more).toBeFocused();

  // Import, Export and Select: one menu, beside the search.
  await page.getByRole('button', { name: /^More: / }).click();
  await expect(page.getByRole('menuitem')).toHaveText([
    'Import a file…',
    'Export as CSV',
    'Export as vCard',
    'Select',
  ]);
  await expectAccessibleInBothThemes(page, 'the contacts’ More menu');
  await page.keyboard.press('Escape');

  // Selection mode: checkboxes appear; Delete selected is disabled (and looks it) until one is.
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await fromMore(page, 'Select');
  const deleteSelected = page.getByRole('button', { name: /^Delete (selected|\d+ selected)$/ });
  await expect(deleteSelected).toBeDisabled();
  const looks = await deleteSelected.evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, color: style.color };
  });
  const danger = await page.evaluate(() => {
    const probe = document.createElement('button');
    probe.className = 'danger';
    document.body.append(probe);
    const background = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return background;
  });
  expect(looks.background).not.toBe(danger);
  const second = (await rows.nth(1).locator('.row-name').innerText()).trim();
  const third = (await rows.nth(2).locator('.row-name').innerText()).trim();
  await rows
    .nth(1)
    .getByRole('checkbox', { name: `Select ${second}` })
    .check();
  await rows.nth(2).click();
  await expect(rows.nth(2).getByRole('checkbox')).toBeChecked();
  await expectAccessibleInBothThemes(page, 'contacts in selection mode');
  await page.getByRole('button', { name: 'Delete 2 selected' }).click();
  // A bulk delete asks, naming how many.
  const confirm = page.getByRole('dialog', { name: 'Delete 2 contacts?' });
  await confirm.getByRole('button', { name: 'Delete 2 contacts' }).click();
  await expect(confirm).toBeHidden();
  await expect(rows.filter({ hasText: second })).toHaveCount(0);
  await expect(rows.filter({ hasText: third })).toHaveCount(0);
  await expect(page.getByTestId('list-count')).toHaveText(
    `${(book.contact_count - 2).toLocaleString('en')} contacts`,
  );
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('checkbox')).toHaveCount(0);

  // Call: the same dial as the search's, and the call on the search view.
  const number = (await first.locator('.row-detail bdi').first().innerText()).trim();
  await first.hover();
  await call.click();
  const bar = await placedCallBar(page);
  await expect(bar).toContainText(name);
  const live = (await control.calls()).filter((each) => each.state !== 'ended');
  expect(live).toHaveLength(1);
  expect(live[0]!.to.replace(/\D/g, '')).toContain(number.replace(/\D/g, '').slice(-6));
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
});

test('the same Back control at the start of every screen, and Esc goes back from each', async ({
  page,
}) => {
  await openConnected(page, app);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeVisible();
  /** The screen's one Back control: above its heading, at the line's start, named for where it goes. */
  async function expectBack(to: string, heading: string) {
    const back = page.getByTestId('back');
    await expect(back).toHaveCount(1);
    await expect(back).toHaveAccessibleName(`Back to ${to}`);
    const at = (await back.boundingBox())!;
    const title = (await page.getByRole('heading', { name: heading, level: 1 }).boundingBox())!;
    expect(at.y + at.height).toBeLessThanOrEqual(title.y + 1);
    expect(Math.abs(at.x - title.x)).toBeLessThan(8);
  }
  for (const [item, heading] of MENU_SCREENS) {
    await fromMenu(page, item);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeFocused();
    await expectBack('Search', heading);
    await page.keyboard.press('Escape');
    await expect(search).toBeVisible();
    await expect(search).toBeFocused();
  }
  // Contacts go back to Phonebooks, then the search; Esc in a filled list search empties it first.
  await fromMenu(page, 'Phonebooks and contacts');
  await page.getByRole('button', { name: 'Customers', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeFocused();
  await expectBack('Phonebooks', 'Customers');
  const filter = page.getByRole('searchbox', { name: 'Search contacts' });
  await filter.fill('a');
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Phonebooks', level: 1 })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(search).toBeFocused();
  // Back by pointer does the same.
  await fromMenu(page, 'Settings');
  await page.getByTestId('back').click();
  await expect(search).toBeFocused();
});

test('one centred column on every screen at 1280, actions never text links, dialogs with Cancel then the main action', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConnected(page, app);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeVisible();
  /** The screen's column (left edge and width) and any action drawn as a text link. */
  const screen = () =>
    page.evaluate(() => {
      const column = document.querySelector<HTMLElement>('main .column')!.getBoundingClientRect();
      const linkLike = [...document.querySelectorAll<HTMLElement>('main :is(a, button)')]
        .filter((each) => each.getClientRects().length > 0)
        .filter((each) => getComputedStyle(each).textDecorationLine.includes('underline'))
        .map((each) => each.textContent);
      return { left: Math.round(column.left), width: Math.round(column.width), linkLike };
    });
  const seen = [{ name: 'Search', ...(await screen()) }];
  for (const [item, heading] of MENU_SCREENS) {
    await fromMenu(page, item);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeFocused();
    seen.push({ name: heading, ...(await screen()) });
    await page.keyboard.press('Escape');
  }
  await fromMenu(page, 'Phonebooks and contacts');
  await page.getByRole('button', { name: 'Customers', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeFocused();
  await expect(page.getByTestId('contact-row').first()).toBeVisible();
  seen.push({ name: 'Customers', ...(await screen()) });
  for (const each of seen) {
    expect(each, each.name).toMatchObject({ width: seen[0]!.width, linkLike: [] });
    // Centred: as much room on its left as on its right (a scrollbar's width at most apart).
    expect(Math.abs(each.left * 2 + each.width - 1280), each.name).toBeLessThanOrEqual(20);
  }
  expect(seen[0]!.width).toBeLessThan(800);

  /** The dialog's buttons: Cancel (or Keep), then the main action last, apart from each other. */
  async function expectDialogActions(dialog: Locator, main: string, cancel = 'Cancel') {
    const buttons = dialog.getByTestId('dialog-actions').getByRole('button');
    const names = await buttons.evaluateAll((all) => all.map((each) => each.textContent?.trim()));
    expect(names.slice(-2)).toEqual([cancel, main]);
    const [before, action] = await Promise.all([
      buttons.nth(names.length - 2).boundingBox(),
      buttons.nth(names.length - 1).boundingBox(),
    ]);
    expect(action!.x - (before!.x + before!.width)).toBeGreaterThanOrEqual(8);
    await dialog.getByRole('button', { name: cancel }).click();
    await expect(dialog).toBeHidden();
  }
  await page.getByRole('button', { name: 'New contact' }).click();
  await expectDialogActions(page.getByRole('dialog', { name: 'New contact' }), 'Create contact');
  const row = page.getByTestId('contact-row').first();
  const name = (await row.locator('.row-name').first().textContent())!.trim();
  await row.hover();
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expectDialogActions(
    page.getByRole('dialog', { name: `Delete ${name}?` }),
    'Delete',
    'Keep',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Phonebooks', level: 1 })).toBeFocused();
  await page.getByRole('button', { name: 'New phonebook' }).click();
  await expectDialogActions(
    page.getByRole('dialog', { name: 'New phonebook' }),
    'Create phonebook',
  );
});

test('an empty phonebook offers one next step, a file to import; New contact is at the top', async ({
  page,
}) => {
  await openConnected(page, app);
  await fromMenu(page, 'Phonebooks and contacts');
  await page.getByRole('button', { name: 'New phonebook' }).click();
  const editor = page.getByRole('dialog', { name: 'New phonebook' });
  // An empty name is asked for as a name, not as "a description".
  await editor.getByRole('button', { name: 'Create phonebook' }).click();
  await expect(editor.getByLabel('Name')).toHaveAccessibleDescription(
    'Enter a name for the phonebook.',
  );
  await editor.getByLabel('Name').fill('Empty for now');
  await editor.getByRole('button', { name: 'Create phonebook' }).click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: 'Empty for now', exact: true }).click();
  await expect(page.getByText(/^No contacts in this phonebook yet./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New contact' })).toHaveCount(1);
  await expectAccessibleInBothThemes(page, 'an empty phonebook');
  await page.getByRole('button', { name: 'Import a CSV or vCard file…' }).click();
  await expect(page.getByRole('dialog', { name: 'Import contacts' })).toBeVisible();
});

test('settings: one flat page that saves each change with a quiet Saved, no inner scroll, no test language', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  await fromMenu(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  for (const group of ['Calling', 'Links', 'Startup', 'Appearance']) {
    await expect(page.getByRole('group', { name: group })).toBeVisible();
  }
  // No Save button: each change is saved as it is made.
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
  // Flat: no box inside a box; the page scrolls as a whole, nothing inside it on its own.
  const boxed = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.settings-view fieldset, .settings-view details')]
      .filter((element) => getComputedStyle(element).borderLeftStyle !== 'none')
      .map((element) => element.className),
  );
  expect(boxed).toEqual([]);
  expect(await innerScrollers(page)).toEqual([]);
  expect(await page.locator('main').evaluate((main) => main.scrollHeight > main.clientHeight)).toBe(
    true,
  );
  // Advanced is folded: the receiver port (and the environment's notice) are not up front.
  await expect(page.getByLabel('Receiver port')).toBeHidden();
  // The test languages are for developers' builds only.
  const languages = await page
    .getByTestId('language')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(languages).toEqual(['system', 'en', 'de']);
  await expectFitsWidth(page, page.locator('.setting'));
  await expectAccessibleInBothThemes(page, 'settings as one flat page');
  await screenshot(page, 'settings');

  /** The settings file as it is now. */
  const file = () =>
    JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
  const status = page.getByTestId('settings-status');

  // The region by its name: chosen is saved, said quietly beside it.
  const region = page.getByLabel('Your country', { exact: true });
  await region.selectOption({ label: 'Germany (DE)' });
  await expect(status).toHaveText('Saved: Your country');
  await expect(page.getByTestId('field-saved')).toHaveText('Saved');
  expect(file()).toMatchObject({ region: 'DE' });
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The shortcut: pressed, not typed. Esc cancels (and stays here), a plain key is refused.
  const shortcut = page.getByRole('button', { name: /^Global shortcut: / });
  await expect(shortcut).toHaveAccessibleName('Global shortcut: Ctrl+Shift+D');
  await shortcut.click();
  await expect(shortcut).toHaveAccessibleName('Global shortcut: Press the keys…');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(shortcut).toHaveAttribute('data-accelerator', 'CommandOrControl+Shift+D');
  await shortcut.click();
  await page.keyboard.press('k');
  await expect(shortcut).toHaveAccessibleDescription(/K would take that key from every app/);
  await expect(shortcut).toHaveAttribute('data-accelerator', 'CommandOrControl+Shift+D');
  await shortcut.click();
  await page.keyboard.press('Control+Alt+K');
  await expect(shortcut).toHaveAccessibleName('Global shortcut: Ctrl+Alt+K');
  await expect(status).toHaveText('Saved: Global shortcut');
  expect(file()).toMatchObject({ dial_shortcut: 'CommandOrControl+Alt+K' });

  // The dialling policy: no premium-rate numbers, and abroad only Austria, each saved at once.
  const classes = page.getByTestId('allowed-classes');
  await classes.getByLabel('Premium-rate numbers').uncheck();
  await expect(status).toHaveText('Saved: Numbers Callbar dials');
  const countries = page.getByTestId('allowed-countries');
  await expect(countries).toContainText('Every country.');
  await countries.getByLabel('Only dial these countries').selectOption({ label: 'Austria (AT)' });
  await expect(countries.getByRole('button', { name: 'Remove Austria (AT)' })).toBeVisible();
  await expect(status).toHaveText('Saved: Countries Callbar dials abroad');

  // Typed values are saved when left or on Enter; a refusal is said under its field, kept typed.
  await page.getByText('Advanced', { exact: true }).click();
  const interval = page.getByLabel('Refresh contacts every (minutes)');
  const port = page.getByLabel('Receiver port');
  // Letters cannot be typed where a number goes.
  await interval.fill('often');
  await expect(interval).toHaveValue('');
  await interval.fill('0');
  await port.focus();
  await expect(interval).toHaveAttribute('aria-invalid', 'true');
  await expect(interval).toHaveAccessibleDescription(
    /whole number of minutes from 1 to 1440 \(not 0\)/,
  );
  // The focus stays where the person took it (saving on leaving never pulls it back).
  await expect(port).toBeFocused();
  await port.fill('80');
  await port.press('Enter');
  await expect(port).toHaveAttribute('aria-invalid', 'true');
  await expect(port).toHaveAccessibleDescription(/whole number from 1024 to 65535 \(not 80\)/);
  await expect(port).toHaveValue('80');
  const errors = page.locator('.setting-error');
  await expect(errors).toHaveCount(2);
  for (const text of await errors.allInnerTexts()) expect(text).not.toMatch(/[a-z]_[a-z]/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectAccessibleInBothThemes(page, 'settings with errors');
  await screenshot(page, 'settings-errors');

  await interval.fill('30');
  await interval.press('Enter');
  await expect(interval).not.toHaveAttribute('aria-invalid', 'true');
  await port.fill(String(new URL(app.receiverOrigin).port));
  await port.press('Tab');
  await expect(errors).toHaveCount(0);
  expect(file()).toMatchObject({
    region: 'DE',
    dial_shortcut: 'CommandOrControl+Alt+K',
    sync_interval_minutes: 30,
    dial_allowed_countries: ['AT'],
  });
  expect(file().dial_allowed_classes).not.toContain('premium-rate');
  expect(file().dial_allowed_classes).toContain('international');

  // Backspace while recording: no shortcut.
  await shortcut.click();
  await page.keyboard.press('Backspace');
  await expect(shortcut).toHaveAccessibleName('Global shortcut: None');
  await expect(shortcut).toHaveAttribute('data-accelerator', '');
  // Back as the rest of the profile was (the region the other tests read).
  await region.selectOption({ label: 'United States (US)' });
  await expect(status).toHaveText('Saved: Your country');
});

test('after connecting, the three keys that matter until Got it; recent calls grouped', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // This profile's shortcut and countries back to the defaults (the settings test changed them:
  // abroad only Austria, which applies at once, and these calls go to the United Kingdom).
  await page.goto(app.preview.url);
  const reset = await page.evaluate(() =>
    window.callbar.settings.save({
      dial_shortcut: 'CommandOrControl+Shift+D',
      dial_allowed_countries: [],
    }),
  );
  expect(reset.ok, JSON.stringify(reset)).toBe(true);
  // And no recent calls (the contacts test placed one).
  expect((await page.evaluate(() => window.callbar.calls.clearRecent())).ok).toBe(true);
  await page.reload();
  await openConnected(page, app);
  const hint = page.getByRole('region', { name: 'Three keys to know' });
  await expect(hint).toBeVisible();
  await expect(hint).toContainText('Type');
  await expect(hint).toContainText('Enter');
  await expect(hint).toContainText('Ctrl+Shift+D');
  await expectAccessibleInBothThemes(page, 'the first-run hint');
  await screenshot(page, 'first-run');

  // The same contact called twice, and another number once: two lines, one saying 2 calls.
  await control.updateConfig({
    autoAnswer: { userAnswerMs: 50, destinationAnswerMs: 50, hangupAfterMs: 1500 },
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  for (const typed of ['+44 20 7946 0001', '+44 20 7946 0002', '+44 20 7946 0001']) {
    // Enter once the search answered (the dial row is core's answer since the number model).
    await search.fill(typed);
    await expect(page.getByRole('option').first()).toContainText(`Dial ${typed}`);
    await search.press('Enter');
    await placedCallBar(page);
    await expect(page.getByRole('region', { name: 'Current call' })).toBeHidden({
      timeout: 20_000,
    });
  }
  await control.updateConfig({ autoAnswer: false });
  await search.fill('');
  const recent = page.getByRole('region', { name: 'Recent calls' }).getByRole('listitem');
  await expect(recent).toHaveCount(2);
  await expect(recent.first()).toContainText('2 calls');
  await expect(recent.first()).toContainText(/\d:\d\d$|·\s\d:\d\d/);
  await expect(recent.nth(1)).not.toContainText('calls');
  await expectAccessibleInBothThemes(page, 'recent calls grouped');

  await hint.getByRole('button', { name: 'Got it' }).click();
  await expect(hint).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('account-state')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByRole('region', { name: 'Recent calls' })).toBeVisible();
  await expect(hint).toHaveCount(0);
});

import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import {
  addContact,
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  pictureInBothThemes,
  placedCallBar,
  startApp,
} from '../support/e2e-app';

/**
 * Search and dial with the keyboard only, against the local index of the simulator's
 * phonebooks: highlighted matches, ↑/↓, Enter and Alt+Enter, the typed-number row, the caller
 * identified on an incoming call, a virtualized list, and a directory whose refresh fails.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 1500, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
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
}

/** The one call the simulator has not ended, after Callbar asked for it. */
async function liveCall() {
  await expect
    .poll(async () => (await control.calls()).filter((call) => call.state !== 'ended').length)
    .toBe(1);
  return (await control.calls()).find((call) => call.state !== 'ended')!;
}

test('type a name, see it highlighted, Enter dials the number, Alt+Enter the secondary', async ({
  page,
}) => {
  await openWithContacts(page);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await expect(search).toBeFocused();
  await expect(page.getByTestId('sync-status')).toContainText('1,501 contacts');

  await page.keyboard.type('lovel');
  const first = page.getByRole('option').first();
  await expect(first).toContainText('Ada Lovelace');
  await expect(first).toContainText('Analytical Engines');
  await expect(first.locator('mark')).toHaveText(['Lovel']);
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(search).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await expectAccessibleInBothThemes(page, 'search results');

  await page.keyboard.press('Enter');
  const bar = await placedCallBar(page);
  await expect(bar).toContainText('Ada Lovelace');
  const call = await liveCall();
  expect(call.to).toBe('+442071234567');

  // Both phones answer: the README's pictures of a call in progress.
  await control.answerLeg(call.legs.find((leg) => leg.leg === 'caller')!.id);
  await expect.poll(async () => (await control.getCall(call.id)).legs.length).toBe(2);
  const callee = (await control.getCall(call.id)).legs.find((leg) => leg.leg === 'callee')!;
  await control.answerLeg(callee.id);
  await expect(bar.getByTestId('call-state')).toContainText('Connected');
  await pictureInBothThemes(page, 'call-in-progress');
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();

  await search.focus();
  await page.keyboard.press('Alt+Enter');
  // Esc hangs up a placed call (and cancels a dial still on its way: window-calls.spec.ts).
  await placedCallBar(page);
  await expect(bar).toContainText('Ada Lovelace');
  expect((await liveCall()).to).toBe('+447700900123');
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();

  // The README's pictures of the main view while searching.
  await search.fill('an');
  await expect(page.getByRole('option').nth(3)).toBeVisible();
  await pictureInBothThemes(page, 'search');
});

test('↑/↓ move through the hits; a speed dial or a number offers "Dial …" first', async ({
  page,
}) => {
  await openWithContacts(page);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('a');
  const options = page.getByRole('option');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(search).toHaveAttribute('aria-activedescendant', 'result-2');
  await page.keyboard.press('ArrowUp');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');

  // Hundreds of hits, a few rows in the page: the list is virtualized (and asks for the hits
  // beyond the first answer's as the selection nears its end).
  expect(await options.count()).toBeLessThan(30);
  await expect
    .poll(async () => {
      await page.keyboard.press('PageDown');
      return Number(await options.last().getAttribute('aria-setsize'));
    })
    .toBeGreaterThan(100);
  for (let step = 0; step < 40; step += 1) await page.keyboard.press('PageDown');
  const total = Number(await options.last().getAttribute('aria-setsize'));
  await expect(page.locator(`#result-${total - 1}`)).toHaveAttribute('aria-selected', 'true');

  await search.fill('7341');
  await expect(options.first()).toContainText('Dial');
  await expect(options.first()).toContainText('Ada Lovelace');

  await search.fill('(212) 555-0188');
  await expect(options.first()).toContainText('Dial');
  // No US number starts with 0 (the window's region here): Berlin's national "030 1234567" is
  // no number to dial here. Before, "Dial …" rang +1 030 123 4567, a number nobody has.
  await search.fill('030 1234567');
  await expect(page.getByText('No contact matches “030 1234567”.')).toBeVisible();
  await expect(options.filter({ hasText: 'Dial' })).toHaveCount(0);
  await search.fill('zzqxv');
  await expect(page.getByText('No contact matches “zzqxv”.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(page.getByRole('region', { name: 'Recent calls' })).toBeVisible();
});

test('an incoming call shows the caller identified from the directory', async ({ page }) => {
  await openWithContacts(page);
  await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+442071234567',
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar.getByTestId('call-state')).toContainText('Ada Lovelace');
  await expect(bar.getByTestId('call-state')).toContainText('Incoming call');
  await bar.getByRole('button', { name: /Hang up/ }).click();
  await expect(bar).toBeHidden();
});

test('a refresh that fails keeps the contacts searchable and says so', async ({ page }) => {
  test.setTimeout(90_000);
  await openWithContacts(page);
  const fault = await control.addFault({ path: '/v3/phonebook/', match: 'prefix', status: 503 });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const status = page.getByTestId('sync-status');
  await expect(status).toHaveAttribute('data-state', 'stale', { timeout: 30_000 });
  await expect(status).toContainText('1,501 contacts from');
  await expectAccessibleInBothThemes(page, 'stale directory');
  await page.getByRole('combobox', { name: 'Search contacts or type a number' }).fill('lovel');
  await expect(page.getByRole('option').first()).toContainText('Ada Lovelace');

  await control.removeFault(fault.id);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
});

test('a sync in progress shows its progress, and the index keeps answering', async ({ page }) => {
  test.setTimeout(90_000);
  await openWithContacts(page);
  // The platform is slow to hand over the next page of contacts.
  await control.addFault({
    path: '/v3/phonebook/contact/',
    match: 'prefix',
    delay_ms: 3000,
    count: 1,
  });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const status = page.getByTestId('sync-status');
  await expect(status).toHaveAttribute('data-state', 'syncing');
  await expect(status.getByRole('progressbar', { name: 'Loading your contacts' })).toBeVisible();
  await expect(status).toContainText('Loading your contacts…');
  await page.getByRole('combobox', { name: 'Search contacts or type a number' }).fill('lovel');
  await expect(page.getByRole('option').first()).toContainText('Ada Lovelace');
  await expectAccessibleInBothThemes(page, 'sync in progress');
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
});

test('a sync that lands while a row is highlighted keeps that row highlighted', async ({
  page,
}) => {
  await openWithContacts(page);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('Ada Zed');
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ada Zed One',
    number: '+44 20 7946 0991',
    secondary_number: null,
    speed_dial: 7991,
  });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ada Zed Two',
    number: '+44 20 7946 0992',
    secondary_number: null,
    speed_dial: 7992,
  });
  await page.evaluate(() => window.callbar.directory.sync());
  const options = page.getByRole('option');
  await expect(options).toHaveCount(2);
  await search.press('ArrowDown');
  const chosen = options.nth(1);
  await expect(chosen).toHaveAttribute('aria-selected', 'true');
  const name = (await chosen.locator('.result-name').textContent())!;
  // A coworker adds a contact that ranks first; the window's sync lands while the person's
  // choice is highlighted. Before, the new answer highlighted the first row again, and Enter
  // called someone else than the person chose.
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ada Zed Aaron',
    number: '+44 20 7946 0990',
    secondary_number: null,
    speed_dial: 7990,
  });
  await page.evaluate(() => window.callbar.directory.sync());
  await expect(options).toHaveCount(3);
  await expect(page.locator('[role="option"][aria-selected="true"] .result-name')).toHaveText(name);
  await page.keyboard.press('Enter');
  await placedCallBar(page);
  const dialled = (await liveCall()).to;
  expect(dialled).toBe(name.includes('Two') ? '+442079460992' : '+442079460991');
  await page.keyboard.press('Escape');
});

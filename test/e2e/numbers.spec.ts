import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import {
  addContact,
  expectAccessible,
  openConnected,
  picture,
  placedCallBar,
  startApp,
  type E2eApp,
} from '../support/e2e-app';

/**
 * Numbers you can trust (issue 41), in the window against the simulator, each point on the
 * reproduction the issue gives: a stranger is not named as a contact whose number only ends the
 * same; the country set in Settings applies at once (the window dialled with the old one); a
 * fragment of a number is no invented extension; Enter dials the number the search matched;
 * every number is shown one way (national at home, tabular digits, never wrapped); Clear can be
 * undone (asked first, then Undo). The person has not confirmed a country yet: the first run asks
 * for it on the Connect screen, the system's prefilled, and Connect confirms the one shown.
 */
let app: E2eApp;
let control: SimControl;

/** The three contacts whose numbers hold "7946 02" (issue 41, point 3). */
const FRAGMENT_NUMBERS = ['+44 20 7946 0201', '+44 20 7946 0202', '+44 20 7946 0203'];

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 40, autoAnswer: false }, region: null });
  control = new SimControl(app.sim.base_url);
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Hanna Berg',
    number: '+49 30 1234567',
    secondary_number: '+49 171 2345678',
    speed_dial: 4101,
  });
  await addContact(app.sim, {
    phonebook: 2,
    display_name: 'Zoë Zimmer',
    company: 'Zimmer AG',
    number: '+41 44 123 45 67',
    secondary_number: '+49 171 2345678',
    speed_dial: 4102,
  });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ina Raw',
    number: '+49404706540',
    secondary_number: '0301351061',
    speed_dial: 4103,
  });
  for (const [index, number] of FRAGMENT_NUMBERS.entries()) {
    await addContact(app.sim, {
      phonebook: 1,
      display_name: `Fragment ${['One', 'Two', 'Three'][index]!}`,
      number,
      secondary_number: null,
      speed_dial: 4104 + index,
    });
  }
});
test.afterAll(async () => {
  await app.close();
});

async function ready(page: Page) {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
}

const searchBox = (page: Page) =>
  page.getByRole('combobox', { name: 'Search contacts or type a number' });

/** The simulator's call that has not ended, once Callbar asked for it. */
async function liveCall() {
  await expect
    .poll(async () => (await control.calls()).filter((call) => call.state !== 'ended').length)
    .toBe(1);
  return (await control.calls()).find((call) => call.state !== 'ended')!;
}

async function hangUp(page: Page) {
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('call-bar')).toBeHidden();
}

/** Chooses the country in Settings (saved as it is chosen, no restart needed), then back. */
async function setCountry(page: Page, label: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  await page.getByLabel('Your country', { exact: true }).selectOption({ label });
  await expect(page.getByTestId('settings-status')).toHaveText('Saved: Your country');
  await expect(page.getByTestId('restart-needed')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to Search' }).click();
}

test('point 2, first run: the window asks for the country, the system’s prefilled', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  // Never connected here: the welcome asks for the country (none named here: the system's, US).
  const setup = page.getByTestId('first-run-setup');
  await expect(setup).toBeVisible();
  await expect(setup.getByLabel('Your country', { exact: true })).toHaveValue('US');
  await expectAccessible(page, 'the country asked for');
  const unconfirmed = await page.evaluate(() => window.callbar.settings.get());
  expect(unconfirmed.ok && unconfirmed.value.region_confirmed).toBe(false);
  // Connect confirms the country shown: the search does not ask again.
  await ready(page);
  await expect(page.getByTestId('region-ask')).toHaveCount(0);
  const confirmed = await page.evaluate(() => window.callbar.settings.get());
  expect(confirmed.ok && confirmed.value.region_confirmed).toBe(true);
  expect(confirmed.ok && confirmed.value.region).toBe('US');
});

test('point 1: a caller whose number only ends like a contact’s is shown by number', async ({
  page,
}) => {
  await ready(page);
  // +44 20 7123 4567 ends in the same 7 digits as Hanna Berg's +49 30 1234567 (and Zoë
  // Zimmer's +41 44 123 45 67): it is neither's number, and no name is guessed.
  const named = /Hanna Berg|Zoë Zimmer/;
  await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+442071234567',
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar.getByTestId('call-state')).toContainText('Incoming call');
  await expect(bar).toContainText('+44 20 7123 4567');
  await expect(bar).not.toContainText(named);
  // A caller known only by number is never cut short, even 320 px wide (a 640 px window at 200 %).
  await page.setViewportSize({ width: 320, height: 640 });
  const who = bar.locator('.call-who');
  await expect(who).toBeVisible();
  expect(await who.evaluate((line) => line.scrollWidth <= line.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 420, height: 640 });
  await bar.getByRole('button', { name: /Hang up/ }).click();
  await expect(bar).toBeHidden();
  const recent = page.getByRole('region', { name: 'Recent calls' });
  await expect(recent).toContainText('+44 20 7123 4567');
  await expect(recent).not.toContainText(named);

  await searchBox(page).fill('+44 20 7123 4567');
  const first = page.getByRole('option').first();
  await expect(first).toContainText('Dial +44 20 7123 4567');
  // Nobody is offered for it, on any row.
  await expect(page.getByRole('option').filter({ hasText: named })).toHaveCount(0);
});

test('point 2: the country set in Settings applies at once to what Enter dials', async ({
  page,
}) => {
  await ready(page);
  await setCountry(page, 'Germany (DE)');
  await expect(page.getByTestId('region-ask')).toHaveCount(0);
  await searchBox(page).fill('030 1234567');
  const first = page.getByRole('option').first();
  await expect(first).toContainText('Dial 030 1234567');
  await expect(first).not.toContainText('+1');
  await page.keyboard.press('Enter');
  await placedCallBar(page);
  expect((await liveCall()).to).toBe('+49301234567');
  await hangUp(page);

  // A German mobile number is a number at home now, not abroad.
  await searchBox(page).fill('+49 171 9999999');
  await expect(page.getByRole('option').first()).toContainText('This is a number in Germany.');
  await expect(page.getByRole('option').first()).toContainText('Dial 0171 9999999');
});

test('point 3: a fragment of numbers is no extension; Enter calls the first contact', async ({
  page,
}) => {
  await ready(page);
  await searchBox(page).fill('7946 02');
  const options = page.getByRole('option');
  await expect(options.first()).toContainText('7946 02');
  await expect(page.getByText(/Dial Extension/)).toHaveCount(0);
  await expect(options.first()).not.toContainText('Dial');
  await page.keyboard.press('Enter');
  await placedCallBar(page);
  const dialled = (await liveCall()).to;
  expect(dialled).toMatch(/^\+442079460[2]\d\d$/);
  await hangUp(page);
});

test('point 4: Enter dials the number the search matched, and the row says which', async ({
  page,
}) => {
  await ready(page);
  // "0171 2345678" is Zoë's alternative number (and Hanna's: the typed row names nobody).
  await searchBox(page).fill('0171 2345678');
  const zoe = page.getByRole('option').filter({ hasText: 'Zoë Zimmer' });
  await expect(zoe).toContainText('Calls second: 0171 2345678');
  await expect(zoe).toContainText('Main: +41 44 123 45 67');
  await expect(page.getByRole('option').first()).not.toContainText('Zoë Zimmer');
  await zoe.click();
  await expect(zoe).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: /Call main number/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await placedCallBar(page);
  expect((await liveCall()).to).toBe('+491712345678');
  await hangUp(page);
});

test('point 5: every number shown one way, in tabular digits, never wrapped', async ({ page }) => {
  await ready(page);
  // Stored raw ("+49404706540", "0301351061"): shown the national way in Germany.
  await searchBox(page).fill('Ina Raw');
  const row = page.getByRole('option').filter({ hasText: 'Ina Raw' });
  await expect(row).toContainText('040 4706540');
  await expect(row).toContainText('Second: 030 1351061');
  await expect(row).not.toContainText('+49404706540');
  const number = row.locator('.phone-number').first();
  await expect(number).toHaveCSS('white-space', 'nowrap');
  await expect(number).toHaveCSS('font-variant-numeric', 'tabular-nums');
  // The recent calls show the same number the same way.
  await searchBox(page).fill('');
  const recent = page.getByRole('region', { name: 'Recent calls' });
  await expect(recent).toContainText('030 1234567');
  await expect(recent).not.toContainText('+49 30 1234567');
  await expect(recent.locator('.phone-number').first()).toHaveCSS('white-space', 'nowrap');
});

test('a meeting invitation’s number: the number is dialled, the keys after it are shown', async ({
  page,
}) => {
  await page.setViewportSize({ width: 420, height: 720 });
  await ready(page);
  // Before, the reader refused it ("it contains “,”"): no row, nothing to dial.
  await searchBox(page).fill('+1 646-558-8656,,81234567890#');
  const row = page.getByRole('option').first();
  await expect(row).toContainText(/558.8656, then 81234567890#/);
  await expect(row).toContainText('press 81234567890# on your phone’s keypad');
  await picture(page, 'meeting-number-row-420.png');
  // Nothing of it is cut at 420 px: no text wider than its box.
  const cut = await row.evaluate((node) =>
    [node, ...node.querySelectorAll('*')]
      .filter((each) => each.scrollWidth > each.clientWidth + 1)
      .map((each) => each.textContent),
  );
  expect(cut).toEqual([]);
  await page.keyboard.press('Enter');
  const bar = await placedCallBar(page);
  expect((await liveCall()).to).toBe('+16465588656');
  await expect(bar).toContainText(
    'When the call is answered, press 81234567890# on your phone’s keypad.',
  );
  await picture(page, 'meeting-number-call-420.png');
  await hangUp(page);
});

test('point 8: Clear keeps the recent calls until its Undo is over', async ({ page }) => {
  await ready(page);
  // A call of its own to clear (run alone, the file's earlier calls are not there): a caller who
  // hangs up while it rings.
  const incoming = await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+442079460999',
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar.getByTestId('call-state')).toContainText('Incoming call');
  await control.endLeg(incoming.legs[0]!.id);
  await expect(page.getByTestId('call-bar')).toBeHidden();
  const recent = page.getByRole('region', { name: 'Recent calls' });
  await expect(recent.locator('.recent-call', { hasText: '+44 20 7946 0999' })).toBeVisible();
  const before = await recent.locator('.recent-call').count();
  // Clear asks first (the notes go too), then offers Undo.
  await recent.getByRole('button', { name: 'More: export, clear' }).click();
  await page.getByRole('menuitem', { name: 'Clear recent calls…' }).click();
  const ask = page.getByRole('dialog', { name: /^Clear \d+ recent calls?\?$/ });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(ask).toBeHidden();
  const cleared = page.getByTestId('recent-cleared');
  await expect(cleared).toContainText(/calls? cleared\./);
  await expect(recent.locator('.recent-call')).toHaveCount(0);
  await expectAccessible(page, 'recent calls cleared, Undo offered');
  // Core keeps them (and their notes) until Undo is over: test/unit/core/calls/recent-calls.test.ts.
  await cleared.getByRole('button', { name: 'Undo' }).click();
  await expect(recent.locator('.recent-call')).toHaveCount(before);
  await expect(cleared.getByRole('button', { name: 'Undo' })).toHaveCount(0);
});

import { expect, test } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import {
  addContact,
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  pictureInBothThemes,
  startApp,
} from '../support/e2e-app';

/**
 * The risk-aware link confirmation (simulator profile minimal, region US): the dialog shows the
 * destination's class, its country and the exact digits dialled (E.164, left-to-right, isolated
 * from any name); a link to an emergency, premium-rate or foreign number asks even with "dial
 * phone links without asking" on; a service-code link is refused; a coworker's speed dial 911
 * never turns 911 into a call to that contact. README pictures: link-confirmation-premium-*.png.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp({ sim: { profile: 'minimal', contacts: 5, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
  // A coworker's contact with the emergency number as its speed dial (the contract allows it).
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Mallory Speed',
    company: 'Coworkers Inc',
    number: '+1 202 555 0199',
    secondary_number: null,
    speed_dial: 911,
  });
  // A name that turns the text after it around (U+202E RIGHT-TO-LEFT OVERRIDE).
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Bank \u202E9900 555 202 1+',
    number: '+49 900 1234567',
    secondary_number: null,
    speed_dial: 4321,
  });
});
test.afterAll(async () => {
  await app.close();
});

test('a coworker’s speed dial 911 does not hijack 911: the row and tel:911 say emergency', async ({
  page,
}) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('911');
  const first = page.getByRole('option').first();
  await expect(first).toContainText('Dial Emergency 911');
  await expect(first).toContainText('Speed dial 911 (Mallory Speed) is also the emergency number');
  // A typed number's row says what it is, as the CLI does.
  await search.fill('1-900-555-1234');
  // Shown the national way at home (US here).
  await expect(first).toContainText('Dial (900) 555-1234');
  await expect(first).toContainText('This is a premium-rate number in the United States');
  await search.fill('');

  const before = (await control.calls()).length;
  await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:911' }));
  const dialog = page.getByRole('dialog', { name: /^Dial / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('pending-class')).toHaveText('Emergency number');
  await expect(dialog.getByTestId('pending-country')).toHaveText('United States (US)');
  await expect(dialog.getByTestId('pending-digits')).toHaveText('911');
  await expect(dialog.getByTestId('pending-description')).toHaveText(
    'This is an emergency number in the United States: it calls emergency services. A link never dials such a number without asking you.',
  );
  await expect(dialog.getByTestId('pending-note')).toContainText('not Mallory Speed');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await control.calls()).length).toBe(before);
});

test('a link that replaces the one asked about just before the click does not take the click', async ({
  page,
}) => {
  await openConnected(page, app);
  await control.advanceClock(60);
  const before = (await control.calls()).length;
  await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0143' }));
  const dialog = page.getByRole('dialog', { name: /^Dial / });
  const dial = dialog.getByRole('button', { name: 'Dial', exact: true });
  const digits = dialog.getByTestId('pending-digits');
  await expect(digits).toHaveText('+12025550143');
  await expect(dial).toBeEnabled();
  // As the person reaches for Dial, another link replaces the dialog; the click lands on its Dial.
  // Before: that click dialled the second number.
  await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0178' }));
  await expect(digits).toHaveText('+12025550178');
  const box = (await dial.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(500);
  expect((await control.calls()).length).toBe(before);
  await expect(digits).toHaveText('+12025550178');
  // A moment later (1 s after it showed) the dialog takes a yes as before.
  await dial.click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await control.calls()).length).toBe(before + 1);
  expect((await control.calls()).at(-1)!.to).toBe('+12025550178');
  await page.keyboard.press('Escape');
});

test('with links dialling without asking, a premium-rate link still asks and shows what it dials', async ({
  page,
}) => {
  await openConnected(page, app);
  const saved = await page.evaluate(() =>
    window.callbar.settings.save({ confirm_web_links: false }),
  );
  expect(saved.ok).toBe(true);
  await control.advanceClock(60);
  const before = (await control.calls()).length;

  await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+49-900-1234567' }));
  const dialog = page.getByRole('dialog', { name: /^Dial / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('pending-class')).toHaveText('Premium-rate number');
  await expect(dialog.getByTestId('pending-country')).toHaveText('Germany (DE)');
  await expect(dialog.getByTestId('pending-description')).toHaveText(
    'This is a premium-rate number in Germany: calls to it cost more. A link never dials such a number without asking you.',
  );
  // The exact digits, left-to-right in an element of their own, whatever the contact's name does.
  const digits = dialog.getByTestId('pending-digits');
  await expect(digits).toHaveText('+499001234567');
  await expect(digits).toHaveAttribute('dir', 'ltr');
  expect(await digits.evaluate((element) => element.localName)).toBe('bdi');
  await expect(dialog).toContainText('Bank');
  // "Always" would not apply to such a link, so it is not offered.
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  await expectAccessibleInBothThemes(page, 'premium-rate link confirmation');
  await pictureInBothThemes(page, 'link-confirmation-premium', { docs: true });
  await dialog.getByRole('button', { name: 'Dial', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await control.calls()).length).toBe(before + 1);
  expect((await control.calls()).at(-1)!.to).toBe('+499001234567');
  await page.keyboard.press('Escape');

  // A link in the user's own country dials at once, as the setting says.
  await control.advanceClock(60);
  const ordinary = await page.evaluate(() =>
    window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0143' }),
  );
  expect(ordinary.ok && ordinary.value.status).toBe('dialing');
  await page.keyboard.press('Escape');

  // A service code from a link is never dialled, and nothing asks.
  const forward = await page.evaluate(() =>
    window.callbar.calls.openUrl({ url: 'tel:*21*0301234567%23' }),
  );
  expect(forward.ok).toBe(false);
  expect(!forward.ok && forward.error.code).toBe('link_refused');
  await expect(dialog).toBeHidden();
  expect((await control.calls()).map((call) => call.to)).not.toContain('*21*0301234567#');
});

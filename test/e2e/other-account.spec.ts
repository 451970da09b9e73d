import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import {
  connectThroughPortal,
  type E2eApp,
  expectAccessibleInBothThemes,
  pictureInBothThemes,
  placedCallBar,
  startApp,
} from '../support/e2e-app';
import { platformAs } from '../support/platform-as';

/**
 * After disconnecting and connecting another account, the window offers nothing of the first
 * one: not its contacts for dialling (search says "Loading your contacts…" while the new
 * account's directory syncs, at once), not its calls in the recent list.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp();
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await app.close();
});

/** A contact in a phonebook only user `userIndex` sees (private, theirs), through the REST API. */
async function privateContact(userIndex: number, name: string) {
  const post = await platformAs(app.sim, app.sim.users[userIndex]!.extension);
  const book = await post('/v3/phonebook/phonebook/', {
    description: 'Private',
    priority: 1,
    is_shared: false,
  });
  await post('/v3/phonebook/contact/', {
    phonebook: book.id,
    display_name: name,
    number: '+49 30 5550199',
    secondary_number: null,
    speed_dial: 9871,
  });
}

async function fromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: item }).click();
}

test('another account connected after the first offers none of its contacts or calls', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 420, height: 640 });
  await page.goto(app.preview.url);
  await connectThroughPortal(page, app, 0);
  const status = page.getByTestId('sync-status');
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  const recent = page.getByRole('region', { name: 'Recent calls' });
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });

  // Alice's own contact, in her directory; she calls it and hangs up: a recent call.
  await privateContact(0, 'Zebulon Onlyhere');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await search.fill('zebulon');
  await expect(page.getByRole('option').first()).toContainText('Zebulon Onlyhere', {
    timeout: 30_000,
  });
  await search.press('Enter');
  const bar = await placedCallBar(page);
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
  await search.press('Escape');
  await expect(recent).toContainText('Zebulon Onlyhere');

  // Disconnected, then Bob connects (on a platform slow to hand over contacts).
  await fromMenu(page, 'Disconnect this computer…');
  await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByTestId('account-state')).toHaveText('Not connected');
  const fault = await control.addFault({
    path: '/v3/phonebook/contact/',
    match: 'prefix',
    delay_ms: 4000,
    count: 1,
  });
  await connectThroughPortal(page, app, 1);

  // At once: Bob's directory loads, with progress; nothing of Alice's is offered meanwhile.
  await expect(status).toHaveAttribute('data-state', 'syncing');
  await expect(status).toContainText('Loading your contacts…');
  await expect(status.getByRole('progressbar', { name: 'Loading your contacts' })).toBeVisible();
  await expect(recent).not.toContainText('Zebulon');
  await search.fill('zebulon');
  await expect(page.getByTestId('search-loading')).toHaveText(
    'Matches for “zebulon” show once your contacts are in.',
  );
  await expect(page.getByRole('option')).toHaveCount(0);
  await pictureInBothThemes(page, 'loading-contacts');
  await expectAccessibleInBothThemes(page, 'loading another account’s contacts');

  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByText('No contact matches “zebulon”.')).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(0);
  await search.press('Escape');
  await expect(recent).not.toContainText('Zebulon');
  await control.removeFault(fault.id).catch(() => undefined);
});

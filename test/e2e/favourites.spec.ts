import { expect, test } from '@playwright/test';
import {
  addContact,
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  pictureInBothThemes,
  startApp,
} from '../support/e2e-app';

/**
 * Favourites in the window: star a contact from its search result, find it first in the empty
 * search (with one-click Call), unstar it there.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 30, autoAnswer: false } });
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

test('star a contact from the search, see it first in the empty search, unstar it', async ({
  page,
}) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('grace hop');
  const star = page.getByRole('button', { name: 'Star Grace Hopper' });
  await star.click();
  await expect(page.getByRole('button', { name: 'Unstar Grace Hopper' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await search.fill('');
  const favourites = page.getByTestId('favourites');
  await expect(favourites).toContainText('Grace Hopper');
  // Shown the national way at home (US here).
  await expect(favourites).toContainText('(202) 555-0143');
  await expect(page.getByRole('heading', { name: 'Favourites' })).toBeVisible();
  await expectAccessibleInBothThemes(page, 'favourites in the empty search');
  await pictureInBothThemes(page, 'favourites');

  await favourites.getByRole('button', { name: 'Unstar Grace Hopper' }).click();
  await expect(page.getByTestId('favourites')).toHaveCount(0);
});

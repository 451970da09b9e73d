import { expect, test, type Locator, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { showLocale } from '../support/a11y';
import { addContact, type E2eApp, openConnected, startApp } from '../support/e2e-app';

/**
 * A name without a space (140 letters) at the window's narrowest width (340 px, the main window's
 * minWidth in core/desktop/window-security.ts), in English and German: the numbers and counts
 * beside it stay whole and inside their box. Measured on the layout (boxes and scroll widths),
 * never on pixels.
 */
let app: E2eApp;
let control: SimControl;

const NARROWEST = { width: 340, height: 640 };
const LONG_NAME = 'Wolfeschlegelsteinhausenbergerdorff'.repeat(4);
const SPEED_DIAL = '8102';
const SHORT_NAME = 'Ada Short';

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
  await addContact(app.sim, {
    phonebook: 1,
    display_name: LONG_NAME,
    company: 'Acme',
    number: '+1 202 555 0161',
    secondary_number: null,
    speed_dial: Number(SPEED_DIAL),
  });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: SHORT_NAME,
    company: 'Acme',
    number: '+1 202 555 0172',
    secondary_number: null,
    speed_dial: 8173,
  });
});
test.afterAll(async () => {
  await app.close();
});

/** How far `inner` reaches past the right edge of `outer` (0 when it lies inside). */
async function pastRightEdge(inner: Locator, outer: Locator): Promise<number> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  expect(a && b).toBeTruthy();
  return Math.max(0, Math.round(a!.x + a!.width - (b!.x + b!.width)));
}

/** The element's text is wider than its box (cut, with or without an ellipsis). */
function cut(element: Locator): Promise<number> {
  return element.evaluate((node) => Math.max(0, node.scrollWidth - node.clientWidth));
}

async function ready(page: Page) {
  await page.setViewportSize(NARROWEST);
  await openConnected(page, app);
  // A test before this one may have left the window in German.
  await showLocale(page, 'en');
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
}

test('the typed speed dial’s row keeps a long name inside the row', async ({ page }) => {
  await ready(page);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill(SPEED_DIAL);
  const dialRow = page.locator('.result-dial');
  await expect(dialRow).toContainText(LONG_NAME);
  for (const locale of ['en', 'de'] as const) {
    await showLocale(page, locale);
    // The name in "Dial …" ends inside the row, not past its edge (where the row cut it off).
    expect(await pastRightEdge(dialRow.locator('.result-name'), dialRow)).toBe(0);
    expect(await cut(dialRow.locator('.result-name'))).toBe(0);
    // The whole name is there to read (it wraps), and the line below says the number it dials.
    await expect(dialRow.locator('.result-name')).toContainText(LONG_NAME);
    await expect(dialRow.locator('.result-detail')).toHaveText(/\d/);
  }
});

test('a recent call’s count stays whole beside a long name', async ({ page }) => {
  await ready(page);
  // Two calls from the same contact, declined: one row, "2 calls".
  const bar = page.getByRole('region', { name: 'Current call' });
  for (let call = 0; call < 2; call += 1) {
    await control.incomingCall({
      tenant_id: app.sim.tenant_id,
      user_extension: app.sim.users[0]!.extension,
      from: '+12025550161',
    });
    await expect(bar).toContainText(LONG_NAME, { timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
  }
  const row = page.locator('.recent-call[data-count="2"]');
  await expect(row).toBeVisible();
  for (const [locale, words] of [
    ['en', '2 calls'],
    ['de', '2 Anrufe'],
  ] as const) {
    await showLocale(page, locale);
    const badge = row.locator('.count-badge');
    await expect(badge).toHaveText(words);
    // Not squeezed to "2…": the name gives way, the count does not.
    expect(await cut(badge)).toBe(0);
    expect(await pastRightEdge(badge, row.locator('.row-title'))).toBe(0);
  }
});

test('the import preview keeps every column inside the dialog beside a long name', async ({
  page,
}) => {
  await ready(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Phonebooks and contacts' }).click();
  await page.getByRole('button', { name: 'Customers', exact: true }).click();
  await page.getByRole('button', { name: /^More: / }).click();
  await page.getByRole('menuitem', { name: 'Import a file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV or vCard file').setInputFiles({
    name: 'team.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Full Name,Mobile,Business Phone',
        `${LONG_NAME},(202) 555-0531,(202) 555-0532`,
        'Bad Row,not a number,',
      ].join('\n'),
    ),
  });
  // The one dialog, found again by its role alone: its name is in the language shown.
  const shown = page.getByRole('dialog');
  const table = shown.locator('.import-rows');
  await expect(table).toBeVisible();
  for (const locale of ['en', 'de'] as const) {
    await showLocale(page, locale);
    // The table is no wider than the dialog, which never scrolls sideways: what lay past its
    // edge (the numbers, what happens to each row) could not be seen at all.
    expect(await pastRightEdge(table, shown)).toBe(0);
    const numbers = table.locator('tbody td[dir="ltr"]').first();
    await expect(numbers).toContainText('(202) 555-0531');
    await numbers.scrollIntoViewIfNeeded();
    expect(await pastRightEdge(numbers, shown)).toBe(0);
    expect(await pastRightEdge(table.locator('tbody td:last-child').first(), shown)).toBe(0);
    // Each number on one line.
    for (const number of await numbers.locator('.import-secondary').all()) {
      await expect(number).toHaveText('(202) 555-0532');
    }
  }
});

/**
 * The space between each row of the list and the next, top to bottom, px (0: they touch; less:
 * they overlap), after two frames.
 */
function rowGaps(page: Page): Promise<number[]> {
  return page.getByRole('listbox').evaluate(async (list) => {
    for (let frame = 0; frame < 2; frame += 1) {
      await new Promise((next) => requestAnimationFrame(next));
    }
    const rows = [...list.querySelectorAll<HTMLElement>('[role="option"]')].sort(
      (a, b) => Number(a.dataset.index) - Number(b.dataset.index),
    );
    return rows
      .slice(1)
      .map((row, at) =>
        Math.round(row.getBoundingClientRect().top - rows[at]!.getBoundingClientRect().bottom),
      );
  });
}

test('the rows after the typed number’s row start where it ends, however tall it grows or shrinks', async ({
  page,
}) => {
  await ready(page);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  const dialRow = page.locator('.result-dial');
  // The speed dial's row holds the long name (several lines); a typed number's row two lines
  // (the number, its contact's short name), with that contact below. Each typed digit is a new row of its own
  // height; the list lays out the rows below by it.
  for (const [text, shows] of [
    [SPEED_DIAL, LONG_NAME.slice(0, 30)],
    ['2025550172', SHORT_NAME],
    [SPEED_DIAL, LONG_NAME.slice(0, 30)],
    ['2025550172', SHORT_NAME],
  ] as const) {
    await search.fill('');
    await search.pressSequentially(text);
    await expect(dialRow).toContainText(shows);
    const gaps = await rowGaps(page);
    expect(gaps.length, `rows below the typed number's row for ${text}`).toBeGreaterThan(0);
    expect(
      gaps.every((gap) => Math.abs(gap) <= 1),
      `${text}: ${gaps.join(', ')}`,
    ).toBe(true);
  }
});

import { expect, test, type Page } from '@playwright/test';
import {
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  pictureInBothThemes,
  startApp,
} from '../support/e2e-app';
import { showLocale } from '../support/a11y';

/**
 * Importing from the window: pick a CSV, see its columns mapped and what happens to each row
 * (nothing sent yet), import, read the result; the same file again changes nothing.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false } });
});
test.afterAll(async () => {
  await app.close();
});

const CSV = [
  'Full Name,Mobile,Organisation',
  'Alan Turing,(202) 555-0511,Bletchley',
  'Bad Row,not a number,',
  'Katherine Johnson,202 555 0512,NASA',
].join('\n');

/** The phonebook's "More" menu → "Import a file…": the dialog. */
async function openImportDialog(page: Page) {
  await page.getByRole('button', { name: /^More: / }).click();
  await page.getByRole('menuitem', { name: 'Import a file…' }).click();
  return page.getByRole('dialog', { name: 'Import contacts' });
}

/** Opens the window, makes a phonebook of this name and priority, and opens it. */
async function openNewPhonebook(page: Page, name: string, priority: string) {
  await openConnected(page, app);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Phonebooks and contacts' }).click();
  await page.getByRole('button', { name: 'New phonebook' }).click();
  const editor = page.getByRole('dialog', { name: 'New phonebook' });
  await editor.getByLabel('Name').fill(name);
  await editor.getByLabel('Priority').fill(priority);
  await editor.getByRole('button', { name: 'Create phonebook' }).click();
  await page.getByRole('button', { name, exact: true }).click();
}

test('import a CSV into a phonebook: preview, import, result; again skips everything', async ({
  page,
}) => {
  await openNewPhonebook(page, 'Imported team', '2');

  for (const round of [1, 2]) {
    const dialog = await openImportDialog(page);
    // A drop zone, and the buttons at the dialog's foot in view whatever the body holds.
    await expect(dialog.getByTestId('drop-zone')).toBeVisible();
    await dialog.getByLabel('CSV or vCard file').setInputFiles({
      name: 'team.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    const plan = dialog.getByTestId('import-plan');
    if (round === 1) {
      await expect(plan.locator('.outcome')).toHaveText([
        '2 to create',
        '0 to update',
        '0 to skip',
        '1 with a problem',
      ]);
      // Each outcome in its colour: what is created is not what fails.
      const colours = await dialog
        .locator('.import-rows .outcome')
        .evaluateAll((chips) =>
          chips.map((chip) => [
            chip.getAttribute('data-outcome'),
            getComputedStyle(chip).backgroundColor,
          ]),
        );
      const created = colours.find(([outcome]) => outcome === 'created')![1];
      const failed = colours.find(([outcome]) => outcome === 'failed')![1];
      expect(created).not.toBe(failed);
      const actions = dialog.getByTestId('dialog-actions');
      const [actionsBox, dialogBox] = [
        (await actions.boundingBox())!,
        (await dialog.boundingBox())!,
      ];
      expect(actionsBox.y + actionsBox.height).toBeLessThanOrEqual(
        dialogBox.y + dialogBox.height + 1,
      );
      expect(await dialog.evaluate((node) => node.scrollHeight > node.clientHeight)).toBe(true);
      // Cancel first, the main action last.
      await expect(actions.getByRole('button')).toHaveText(['Cancel', 'Import']);
      await expect(dialog.getByRole('combobox', { name: 'Column for Name' })).toHaveValue('0');
      await expect(dialog.getByRole('combobox', { name: 'Column for Company' })).toHaveValue('2');
      await expect(dialog).toContainText('The number "not a number" is not a phone number');
      await expectAccessibleInBothThemes(page, 'import preview');
      await pictureInBothThemes(page, 'import-preview');
    } else {
      await expect(plan.locator('.outcome')).toHaveText([
        '0 to create',
        '0 to update',
        '2 to skip',
        '1 with a problem',
      ]);
    }
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByTestId('import-result')).toHaveText(
      round === 1
        ? 'Imported in part: 2 created, 0 updated, 0 skipped, 1 failed.'
        : 'Imported in part: 0 created, 0 updated, 2 skipped, 1 failed.',
    );
    await expect(dialog.getByRole('link', { name: 'Save the rows not imported' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByText('Alan Turing')).toBeVisible();
  await expect(page.getByText('Katherine Johnson')).toBeVisible();
});

test('a second phone column is the secondary number: mapped, shown under the number, imported', async ({
  page,
}) => {
  await openNewPhonebook(page, 'Two numbers', '3');
  const dialog = await openImportDialog(page);
  await dialog.getByLabel('CSV or vCard file').setInputFiles({
    name: 'outlook.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'First Name,Last Name,Mobile Phone,Business Phone',
        'Grace,Hopper,(202) 555-0521,202 555 0522',
      ].join('\r\n'),
    ),
  });
  await expect(dialog.getByRole('combobox', { name: 'Column for Number' })).toHaveValue('2');
  await expect(dialog.getByRole('combobox', { name: 'Column for Secondary number' })).toHaveValue(
    '3',
  );
  await expect(dialog.locator('.import-rows tbody td[dir="ltr"]')).toHaveText(
    '(202) 555-0521202 555 0522',
  );
  await expect(dialog.locator('.import-secondary')).toHaveText('202 555 0522');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText(
    'Imported: 1 created, 0 updated, 0 skipped, 0 failed.',
  );
});

test('a Windows-1252 file (Outlook’s and Excel’s CSV on Western Windows) is read as written and says so', async ({
  page,
}) => {
  await openNewPhonebook(page, 'Western', '4');
  const dialog = await openImportDialog(page);
  // Before, the window read the bytes as UTF-8 and imported "J�rgen M�ller" without a word.
  await dialog.getByLabel('CSV or vCard file').setInputFiles({
    name: 'outlook-ansi.csv',
    mimeType: 'text/csv',
    // Windows-1252's bytes: ü is 0xFC, € is 0x80.
    buffer: Buffer.from('Name;Telefon\r\nJürgen Müller \x80;(202) 555-0551\r\n', 'latin1'),
  });
  await expect(dialog.getByTestId('import-read')).toContainText(
    'Read as CSV in Windows-1252 (Western Europe). The file is not UTF-8',
  );
  await expect(dialog.locator('.import-rows tbody')).toContainText('Jürgen Müller €');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText(
    'Imported: 1 created, 0 updated, 0 skipped, 0 failed.',
  );
});

test('a file in another encoding (Polish Windows) reads right once its encoding is chosen; a wrong choice imports nothing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 420, height: 640 });
  await openNewPhonebook(page, 'Polska', '5');
  const dialog = await openImportDialog(page);
  // "Łódź Żółć" as a Polish Windows writes it (Windows-1250): the guess, Windows-1252, misreads it.
  await dialog.getByLabel('CSV or vCard file').setInputFiles({
    name: 'polska.csv',
    mimeType: 'text/csv',
    buffer: Buffer.concat([
      Buffer.from('Name;Telefon\r\n'),
      Buffer.from([0xa3, 0xf3, 0x64, 0x9f, 0x20, 0xaf, 0xf3, 0xb3, 0xe6]),
      Buffer.from(';(202) 555-0561\r\n'),
    ]),
  });
  const rows = dialog.locator('.import-rows tbody');
  await expect(rows).toContainText('£ódŸ ¯ó³æ');
  await expect(dialog.getByTestId('import-read')).toContainText('choose the file’s encoding');
  const encoding = dialog.getByLabel('Encoding');
  await expect(encoding).toHaveValue('');
  await expect(encoding.locator('option').first()).toHaveText(
    'As found (Windows-1252 (Western Europe))',
  );
  // A choice the bytes are not: said, and nothing left to import.
  await encoding.selectOption({ label: 'UTF-8' });
  await expect(dialog.getByRole('alert')).toContainText('The file is not UTF-8 text');
  await expect(rows).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
  await encoding.selectOption({ label: 'Windows-1250 (Central Europe)' });
  await expect(rows).toContainText('Łódź Żółć');
  await expect(dialog.getByTestId('import-read')).toHaveText(
    'Read as CSV in Windows-1250 (Central Europe).',
  );
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await pictureInBothThemes(page, 'import-encoding-420', { of: dialog });
  // In German: the choice and the line say the same.
  await showLocale(page, 'de');
  const german = page.getByRole('dialog', { name: 'Kontakte importieren' });
  await expect(german.getByLabel('Kodierung')).toContainText('Windows-1250 (Mitteleuropa)');
  await expect(german.getByTestId('import-read')).toHaveText(
    'Gelesen als CSV in Windows-1250 (Mitteleuropa).',
  );
  await pictureInBothThemes(page, 'import-encoding-420-de', { of: german });
  await showLocale(page, 'en');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText(
    'Imported: 1 created, 0 updated, 0 skipped, 0 failed.',
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  // The phonebook's list, read back from the platform.
  await expect(page.getByText('Łódź Żółć')).toBeVisible();
});

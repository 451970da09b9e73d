import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  addContact,
  type E2eApp,
  openConnected,
  pictureInBothThemes,
  placedCallBar,
  startApp,
} from '../support/e2e-app';

/**
 * A coworker's contact whose name and company carry bidi controls (U+202E turns what follows
 * around; U+2069 tries to close the isolate around it first): wherever the window shows the
 * contact (search results, the call bar, recent calls, the contacts table), each number's digits
 * appear on screen in the order they are dialled. Measured on the rendered glyphs, not the markup.
 */
let app: E2eApp;

// Shown the national way at home (US here): (415) 555-0121.
const NUMBER_DIGITS = '4155550121';
const HOSTILE = {
  display_name: 'Mallory \u2069\u202eYrollam',
  company: '\u2069\u202eAcme Payroll',
  number: '+1 415 555 0121',
  speed_dial: 4321,
};

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false } });
  await addContact(app.sim, { phonebook: 1, secondary_number: null, ...HOSTILE });
});
test.afterAll(async () => {
  await app.close();
});

/**
 * The letters and digits in `element` as the screen shows them (line by line, left to right, by
 * where each glyph is drawn) and as the text holds them: the same when nothing reordered them.
 */
async function glyphOrder(element: Locator): Promise<{ shown: string; written: string }> {
  return element.evaluate((root) => {
    const glyphs: { digit: string; top: number; left: number }[] = [];
    let written = '';
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let at = 0; at < text.length; at++) {
        if (!/[\p{L}\p{N}]/u.test(text[at]!)) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const box = range.getBoundingClientRect();
        glyphs.push({ digit: text[at]!, top: Math.round(box.top), left: box.left });
        written += text[at];
      }
    }
    glyphs.sort((a, b) => a.top - b.top || a.left - b.left);
    return { shown: glyphs.map((glyph) => glyph.digit).join(''), written };
  });
}

/** Every letter and digit in `element` shows where it is written; `digits` among them. */
async function expectInOrder(element: Locator, what: string, digits = NUMBER_DIGITS) {
  const { shown, written } = await glyphOrder(element);
  expect(written.replace(/\D/g, ''), what).toContain(digits);
  expect(shown, what).toBe(written);
}

async function screenshots(page: Page, name: string) {
  await pictureInBothThemes(page, name, { docs: true });
}

test('a name with bidi controls cannot turn a number around, anywhere the window shows it', async ({
  page,
}) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('mallory');
  const row = page.getByRole('option').first();
  await expect(row).toContainText('Mallory');
  await expectInOrder(row.locator('.result-name'), 'search result: name', '');
  await expectInOrder(row.locator('.result-company'), 'search result: company', '');
  await expectInOrder(row.locator('.result-detail'), 'search result: number');
  // The button naming the selected contact: its own words and key stay as written.
  await expectInOrder(page.getByRole('button', { name: /^Call Mallory/ }), 'Call button', '');

  await page.keyboard.press('Enter');
  const bar = await placedCallBar(page);
  await expect(bar).toContainText('Mallory');
  // The number and the company (with its U+202E) share a line in the call bar; the name is above
  // it and the call's state below (beside the initials, a decoration, and the timer).
  await expectInOrder(bar.locator('.call-detail'), 'call bar: number and company');
  await expectInOrder(bar.locator('.call-id'), 'call bar: name, number and state');
  // The README's picture: the search row, its Call button and the call bar, all beside the name.
  await screenshots(page, 'hostile-name-call');

  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
  await search.fill('');
  const recent = page.getByRole('region', { name: 'Recent calls' }).getByRole('listitem');
  await expect(recent).toHaveCount(1);
  await expectInOrder(recent.locator('.row-title'), 'recent calls: name', '');
  await expectInOrder(recent.locator('.row-detail'), 'recent calls: number');
});

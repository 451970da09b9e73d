import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
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
 * Issue 32 in the window (the web preview in Chromium, the real core and simulator): a CRM link
 * set in Settings (a bad one refused under its field), an unknown caller in the call bar with
 * "Add to contacts" (the number filled in as the window shows it, saved as the call keeps it) and
 * the CRM link, the caller named once added (a
 * hostile name shown as text), a note on the recent call, searched and exported with the calls,
 * and a phonebook exported as CSV through the window's download; a caller id's written extension
 * shown, never dialled. Pictures: caller-unknown-*, recent-notes-*, caller-extension-*.
 */
let app: E2eApp;
let control: SimControl;

const CALLER = '+12025550177';
const TEMPLATE = 'https://crm.example.com/search?phone={e164}&who={name}';
const HOSTILE = 'Zed <img src=x onerror=alert(1)> =cmd|calc';

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
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

async function ready(page: Page) {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
}

async function fromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: item }).click();
}

/** Add to contacts from `where`: its phonebook chosen, the new-contact form open. */
async function addToContacts(page: Page, where: Locator) {
  await where.getByRole('button', { name: 'Add to contacts' }).click();
  // The dialog is a chunk of its own: wait for the phonebook choice (several) or the form (one).
  const pick = page.getByTestId('add-to-contacts');
  const editor = page.getByRole('dialog', { name: 'New contact' });
  await expect(pick.getByRole('radio').first().or(editor)).toBeVisible();
  if (await pick.isVisible()) await pick.getByRole('button', { name: 'Continue' }).click();
  return editor;
}

/** The contacts named `name` as the platform has them (read with a token of the first user). */
async function platformContacts(name: string) {
  const { access_token } = await control.issueTokens({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
  });
  const response = await fetch(
    `${app.sim.base_url}/v3/phonebook/contact/?search=${encodeURIComponent(name)}`,
    { headers: { authorization: `Bearer ${access_token}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { display_name: string; number: string }[] })
    .results;
}

/** Pictures of `what` at the window's 420 px and at 1280 px. */
async function pictureAtBothWidths(page: Page, name: string) {
  await pictureInBothThemes(page, `${name}-420`);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 1280, height: 800 });
  await pictureInBothThemes(page, `${name}-1280`);
  await page.setViewportSize(size);
}

/** The text of a file the window saved. */
async function savedText(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8');
}

test('a CRM link set in Settings; an unknown caller added to contacts; a noted, exported call', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await ready(page);

  // Settings: a template that is not https is refused under its field; an https one is saved.
  await fromMenu(page, 'Settings');
  const links = page.getByLabel('CRM links (one address per line)');
  await links.fill('javascript:alert(1)//{e164}');
  await links.press('Tab');
  await expect(page.getByText(/it must start with https:\/\//)).toBeVisible();
  await links.fill(TEMPLATE);
  await links.press('Tab');
  await expect(page.getByTestId('settings-status')).toHaveText(
    'Saved: CRM links (one address per line)',
  );
  await page.getByRole('button', { name: 'Back to Search' }).click();

  // An unknown number calls: shown as a number, with Add to contacts and the CRM link.
  const incoming = await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: CALLER,
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  // Shown the national way at home (US here).
  await expect(bar.getByTestId('call-state')).toContainText('(202) 555-0177');
  await expect(bar.getByRole('button', { name: 'Add to contacts' })).toBeVisible();
  await expectAccessibleInBothThemes(page, 'an unknown caller with Add to contacts');
  await pictureInBothThemes(page, 'caller-unknown', { of: bar });
  await bar.getByRole('button', { name: /^Open in crm\.example\.com/ }).click();
  expect(await app.preview.nextOpenedUrl()).toBe(
    'https://crm.example.com/search?phone=%2B12025550177&who=',
  );

  // Add to contacts: the number is filled in; once created, the call bar names the caller.
  const editor = await addToContacts(page, bar);
  // As the call bar shows it (before, +12025550177); left so, saved as the call keeps it.
  await expect(editor.getByLabel('Number', { exact: true })).toHaveValue('(202) 555-0177');
  await editor.getByLabel('Name').fill(HOSTILE);
  await editor.getByLabel('Speed dial').fill('7177');
  await pictureAtBothWidths(page, 'caller-add-contact');
  await editor.getByRole('button', { name: 'Create contact' }).click();
  await expect(editor).toBeHidden();
  expect((await platformContacts('Zed')).map((contact) => contact.number)).toEqual([CALLER]);
  await expect(bar.getByTestId('call-state')).toContainText(HOSTILE);
  await expect(bar.getByRole('button', { name: 'Add to contacts' })).toHaveCount(0);
  await expect(page.locator('img')).toHaveCount(0);

  // The call ends; a note on it, found by the recent calls' search, exported with the calls.
  await control.endLeg(incoming.legs[0]!.id);
  await expect(bar).toBeHidden({ timeout: 20_000 });
  const recent = page.getByRole('region', { name: 'Recent calls' });
  await recent.getByRole('button', { name: `More actions for ${HOSTILE}` }).click();
  await page.getByRole('menuitem', { name: 'Add note' }).click();
  await recent.getByLabel('Note on this call').fill('=Call back Tuesday about the invoice');
  await recent.getByRole('button', { name: 'Save note' }).click();
  await expect(recent.getByTestId('recent-note')).toHaveText(
    '=Call back Tuesday about the invoice',
  );
  const search = recent.getByRole('searchbox', { name: 'Search recent calls and notes' });
  await search.fill('tuesday invoice');
  await expect(recent.getByTestId('recent-note')).toHaveCount(1);
  await expectAccessibleInBothThemes(page, 'recent calls with a note');
  await pictureInBothThemes(page, 'recent-notes', { of: recent });
  await search.fill('nobody like this');
  await expect(recent.getByTestId('recent-no-match')).toBeVisible();
  await search.fill('');

  await recent.getByRole('button', { name: 'More: export, clear' }).click();
  const [calls] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as CSV' }).click(),
  ]);
  expect(calls.suggestedFilename()).toBe('callbar-recent-calls.csv');
  const csv = await savedText(calls);
  expect(csv.split('\r\n')[0]).toBe(
    '\uFEFFStarted,Direction,State,Name,Company,Number,Talk time (s),Reason,Note',
  );
  // A formula in a coworker's name or a note is written after an apostrophe.
  expect(csv).toContain(`'=Call back Tuesday about the invoice`);
  expect(csv).toContain(CALLER);
});

test('a caller id with a written extension: shown in the call bar and recent calls, never dialled', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await ready(page);
  // Before, the call bar and recent calls showed (202) 555-0199: the extension was dropped.
  const incoming = await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+1 202 555 0199 ext. 12',
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar.getByTestId('call-state')).toContainText('(202) 555-0199 ext. 12');
  // At 420 px the number wraps: before the extension's label, never between it and its digits
  // (it did: "ext." ending one line, "12" alone on the next).
  const lines = await bar.locator('.call-who .phone-number').evaluate((number) => {
    const text = number.firstChild!;
    const range = document.createRange();
    range.setStart(text, text.textContent!.indexOf('ext.'));
    range.setEnd(text, text.textContent!.length);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
  expect(lines, 'lines "ext. 12" takes').toBe(1);
  await pictureInBothThemes(page, 'caller-extension', { of: bar });
  // Added to contacts: the number alone, as shown (the platform's numbers hold no extension).
  const editor = await addToContacts(page, bar);
  await expect(editor.getByLabel('Number', { exact: true })).toHaveValue('(202) 555-0199');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await control.endLeg(incoming.legs[0]!.id);
  await expect(bar).toBeHidden({ timeout: 20_000 });

  const recent = page.getByRole('region', { name: 'Recent calls' });
  const row = recent.locator('li', { hasText: '(202) 555-0199 ext. 12' });
  await expect(row).toHaveCount(1);
  await pictureAtBothWidths(page, 'recent-extension');
  // Called back: the number, without the extension glued on.
  const before = (await control.calls()).length;
  await row.hover();
  await row.getByRole('button', { name: /^Call / }).click();
  await expect
    .poll(async () => (await control.calls()).length, { timeout: 20_000 })
    .toBe(before + 1);
  expect((await control.calls()).at(-1)!.to).toBe('+12025550199');
  await bar.getByRole('button', { name: /^Hang up/ }).click();
  await expect(bar).toBeHidden({ timeout: 20_000 });
});

/**
 * Where each "·" of `line` sits against what follows it: the lines the text takes, and how many
 * dots end a line (the dot was followed by a breakable space, so a narrow window left it alone at
 * a line's end with its fact on the next).
 */
async function separatorsAtLineEnds(line: Locator) {
  return line.evaluate((element) => {
    const placed: { char: string; top: number }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        if (/\s/.test(text[i]!)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) placed.push({ char: text[i]!, top: Math.round(rect.top) });
      }
    }
    return {
      lines: new Set(placed.map((one) => one.top)).size,
      dots: placed.filter((one) => one.char === '\u00B7').length,
      // The text as laid out, a "|" where a line begins: "Incoming·06:51AM|·(202)555-0143".
      text: placed
        .map((one, i) => (i > 0 && placed[i - 1]!.top !== one.top ? '|' : '') + one.char)
        .join(''),
      dotsEndingALine: placed.filter(
        (one, i) => one.char === '\u00B7' && placed[i + 1] && placed[i + 1]!.top !== one.top,
      ).length,
    };
  });
}

test('a recent call\'s facts wrap with their dots: a "·" starts a line with its fact, never ends one', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await ready(page);
  const incoming = await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+1 202 555 0143',
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar).toContainText('Grace Hopper');
  await control.endLeg(incoming.legs[0]!.id);
  await expect(bar).toBeHidden({ timeout: 20_000 });
  const detail = page
    .getByRole('region', { name: 'Recent calls' })
    .locator('li', { hasText: 'Grace Hopper' })
    .first()
    .locator('.row-detail');
  // "Incoming · 10:32 AM · (202) 555-0143": at 420 px and narrower it wraps; each dot stays with
  // the fact after it (before, "Incoming · 10:32 AM ·" ended the first line).
  for (const width of [420, 360, 340]) {
    await page.setViewportSize({ width, height: 640 });
    await expect
      .poll(async () => (await separatorsAtLineEnds(detail)).lines, { message: `${width} px` })
      .toBeGreaterThan(0);
    const placed = await separatorsAtLineEnds(detail);
    expect(placed.dots, `dots at ${width} px`).toBeGreaterThan(0);
    expect(
      placed.dotsEndingALine,
      `dots ending a line at ${width} px (${placed.lines} lines: ${placed.text})`,
    ).toBe(0);
  }
  await pictureInBothThemes(page, 'recent-wrapped-340', {
    of: page.getByRole('region', { name: 'Recent calls' }),
  });
});

test('a caller whose id is a SIP address without a number: the address as text, nothing to dial', async ({
  page,
}) => {
  // Before, it was "Number withheld". Markup in the address stays text.
  const ADDRESS = 'sip:<img src=x onerror=alert(1)>@pbx.example.com';
  await ready(page);
  const incoming = await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: ADDRESS,
  });
  const bar = page.getByRole('region', { name: 'Current call' });
  await expect(bar.getByTestId('call-state')).toContainText(ADDRESS);
  await expect(bar).not.toContainText('Number withheld');
  await expect(bar.getByRole('button', { name: 'Add to contacts' })).toHaveCount(0);
  await expect(bar.getByRole('button', { name: /^Open in / })).toHaveCount(0);
  await control.endLeg(incoming.legs[0]!.id);
  const ended = page.getByTestId('call-ended');
  await expect(ended).toContainText(ADDRESS, { timeout: 20_000 });
  await expect(ended.getByRole('button', { name: /^Call again/ })).toHaveCount(0);
  const recent = page.getByRole('region', { name: 'Recent calls' });
  const row = recent.locator('li', { hasText: ADDRESS });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: /^Call / })).toHaveCount(0);
  await expect(page.locator('img')).toHaveCount(0);
});

test('a phonebook exported as CSV and vCard from the window; the CRM link on a contact', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await ready(page);
  // The CRM link as the first test saves it (this test may run on its own).
  await page.evaluate((crm) => window.callbar.settings.save({ crm_links: [crm] }), TEMPLATE);
  await fromMenu(page, 'Phonebooks and contacts');
  await page.getByRole('button', { name: 'Company directory', exact: true }).click();
  await expect(page.getByTestId('contact-row').first()).toBeVisible();
  // Export is in the screen's More menu; the file is named for the phonebook.
  await page.getByRole('button', { name: /^More: / }).click();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('Company directory.csv');
  const text = await savedText(csv);
  // UTF-8's byte-order mark first, so a spreadsheet reads the names' accents as written.
  expect(text.split('\r\n')[0]).toBe('\uFEFFName,Number,Secondary number,Speed dial,Company');
  expect(text).toContain('Grace Hopper');
  await page.getByRole('button', { name: /^More: / }).click();
  const [vcard] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as vCard' }).click(),
  ]);
  expect(vcard.suggestedFilename()).toBe('Company directory.vcf');
  expect(await savedText(vcard)).toMatch(/^BEGIN:VCARD\r\nVERSION:4\.0/);

  await page.getByLabel('Search contacts', { exact: true }).fill('Grace');
  const row = page.getByTestId('contact-row').filter({ hasText: 'Grace Hopper' });
  await row.getByRole('button', { name: 'More actions for Grace Hopper' }).click();
  await page.getByRole('menuitem', { name: 'Open in crm.example.com' }).click();
  expect(await app.preview.nextOpenedUrl()).toBe(
    'https://crm.example.com/search?phone=%2B12025550143&who=Grace%20Hopper',
  );
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { createI18n } from '../../src-shared/i18n';
import { showLocale } from '../support/a11y';
import {
  addContact,
  type E2eApp,
  openConnected,
  picture,
  pictureInBothThemes,
  startApp,
} from '../support/e2e-app';

/**
 * What a stranger met on the window's screens at its default size (420×640) and wide (1280×800),
 * in English and German, each measured on the layout (boxes, lines, what lies on top), never on
 * pixels: a search result's company and phonebook never a sliver beside a long name; a recent
 * call's actions beside its number, not over it; a hovered contact's name and company end in an
 * ellipsis before Call and ⋯; a row's open menu takes its own clicks; the import preview's
 * numbers each on one line; the import's file button in the window's language.
 */
let app: E2eApp;
let control: SimControl;

const LONG_NAME = 'Maximiliane Schwarzenberger-Hohenlohe';
const LONG_COMPANY = 'Telekommunikationsdienstleistungsgesellschaft mbH';
const SIZES = [
  { width: 420, height: 640 },
  { width: 1280, height: 800 },
] as const;
const LOCALES = ['en', 'de'] as const;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 20, autoAnswer: false }, region: 'DE' });
  control = new SimControl(app.sim.base_url);
  await addContact(app.sim, {
    phonebook: 1,
    display_name: LONG_NAME,
    company: LONG_COMPANY,
    number: '+49 30 1234567',
    secondary_number: null,
    speed_dial: 8104,
  });
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Ida Roth',
    company: 'Acme GmbH',
    number: '+49 30 7654321',
    secondary_number: null,
    speed_dial: 8105,
  });
  // A long number abroad, and a speed dial of the most digits the platform allows.
  await addContact(app.sim, {
    phonebook: 1,
    display_name: 'Wei Zhang',
    company: 'Acme GmbH',
    number: '+86 138 0013 8000',
    secondary_number: null,
    speed_dial: 8106,
  });
});
test.afterAll(async () => {
  await app.close();
});

async function ready(page: Page) {
  await page.setViewportSize(SIZES[0]);
  await openConnected(page, app);
  await showLocale(page, 'en');
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
}

type Size = (typeof SIZES)[number];
type WindowLocale = (typeof LOCALES)[number];

/**
 * Runs `body` at each size and in each language (`where` names the case in a failure: "420 px,
 * de"), then shows the window as {@link ready} left it: in English at 420 px.
 */
async function atEachSizeAndLanguage(
  page: Page,
  body: (at: { size: Size; locale: WindowLocale; where: string }) => Promise<void>,
) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const locale of LOCALES) {
      await showLocale(page, locale);
      await body({ size, locale, where: `${size.width} px, ${locale}` });
    }
  }
  await showLocale(page, 'en');
  await page.setViewportSize(SIZES[0]);
}

/**
 * Each part of a result's name line (name, company, phonebook), or of another `line` (a contact
 * row's name and company), the row shows: its text and the width it has. A part that moved below
 * the line (the row shows one) is not shown.
 */
function shownParts(row: Locator, line = '.result-line') {
  return row
    .locator(line)
    .first()
    .evaluate((line) => {
      const bottom = line.getBoundingClientRect().bottom;
      return [...line.children]
        .filter((part) => part.getBoundingClientRect().top < bottom - 1)
        .map((part) => ({
          text: part.textContent ?? '',
          width: Math.round(part.getBoundingClientRect().width),
        }));
    });
}

test('a result’s company and phonebook are never cut to a sliver beside a long name', async ({
  page,
}) => {
  await ready(page);
  // The one search box, by its role alone: its name is in the language shown.
  const search = page.getByRole('combobox');
  await atEachSizeAndLanguage(page, async ({ size, where }) => {
    await search.fill('Maximiliane');
    const row = page.getByRole('option').filter({ hasText: LONG_NAME });
    await expect(row).toBeVisible();
    const parts = await shownParts(row);
    // The name is shown, and whole where it fits.
    expect(parts[0], where).toEqual({ text: LONG_NAME, width: expect.any(Number) });
    // What else shows has room for a few letters: at 420 px "T" and a stroke were left of the
    // company and the phonebook (7 and 2 px).
    for (const part of parts.slice(1)) {
      expect(part.width, `${where}: "${part.text}"`).toBeGreaterThanOrEqual(30);
    }
    if (size.width === 1280) expect(parts.length, where).toBe(3);
    // A name of usual length keeps its company and phonebook beside it.
    await search.fill('Ida Roth');
    const usual = await shownParts(page.getByRole('option').filter({ hasText: 'Ida Roth' }));
    expect(usual.length, `${where}: ${JSON.stringify(usual)}`).toBe(3);
    for (const part of usual) expect(part.width, where).toBeGreaterThanOrEqual(30);
  });
  await search.fill('Maximiliane');
  await pictureInBothThemes(page, 'fit-result-long-name');
});

/** The texts inside `row` cut short (an ellipsis, or clipped by a part that hides what overflows). */
function cutTexts(row: Locator) {
  return row.evaluate((node) =>
    [node, ...node.querySelectorAll<HTMLElement>('*')]
      .filter((part) => part.scrollWidth > part.clientWidth + 1 && part.clientWidth > 0)
      .filter((part) => getComputedStyle(part).overflowX !== 'visible')
      .map((part) => part.textContent ?? ''),
  );
}

test('the row a typed speed dial offers says whom it calls whole, and the number it dials, at 420 and 1280 px', async ({
  page,
}) => {
  await ready(page);
  const search = page.getByRole('combobox');
  await atEachSizeAndLanguage(page, async ({ where }) => {
    await search.fill('8104');
    const row = page.locator('.result-dial');
    await expect(row).toContainText(LONG_NAME);
    await expect(row).toContainText('8104');
    // Its second line says the number it dials, not the name a second time.
    await expect(row.locator('.result-detail')).toHaveText('030 1234567');
    expect(await cutTexts(row), where).toEqual([]);
    const [box, list] = [
      (await row.boundingBox())!,
      (await page.getByRole('listbox').boundingBox())!,
    ];
    expect(box.x + box.width).toBeLessThanOrEqual(list.x + list.width);
  });
  await pictureInBothThemes(page, 'fit-speed-dial-row');
});

/**
 * How many lines each digit group of `node`'s text spans ("+12025550147" of "tel:+12025550147",
 * "202" of "tel:+1-202-555-0143"), or each match of `pattern` (a regular expression's source), by
 * the characters' boxes, whatever elements hold them.
 */
function linesOfEachDigitGroup(node: Locator, pattern = String.raw`\+?\d+`) {
  return node.evaluate((root, pattern) => {
    const texts: { node: Text; start: number }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let length = 0;
    for (
      let text = walker.nextNode() as Text | null;
      text;
      text = walker.nextNode() as Text | null
    ) {
      texts.push({ node: text, start: length });
      length += text.data.length;
    }
    const at = (offset: number, end: boolean) => {
      const holder = texts.findLast(({ node, start }) =>
        end ? start < offset : start <= offset && offset < start + node.data.length,
      )!;
      return [holder.node, offset - holder.start] as const;
    };
    const lines: Record<string, number> = {};
    for (const group of (root.textContent ?? '').matchAll(new RegExp(pattern, 'g'))) {
      const range = document.createRange();
      range.setStart(...at(group.index, false));
      range.setEnd(...at(group.index + group[0].length, true));
      lines[group[0]] = new Set(
        [...range.getClientRects()].map((rect) => Math.round(rect.top)),
      ).size;
    }
    return lines;
  }, pattern);
}

test('a link to confirm shows its tel: text with no number broken, at 420 and 1280 px', async ({
  page,
}) => {
  await ready(page);
  for (const [url, groups] of [
    ['tel:+12025550147', { '+12025550147': 1 }],
    ['tel:+1-202-555-0143', { '+1': 1, '202': 1, '555': 1, '0143': 1 }],
  ] as const) {
    await page.evaluate((link) => window.callbar.calls.openUrl({ url: link }), url);
    const dialog = page.getByRole('dialog');
    const link = dialog.locator('.pending-link');
    await expect(link).toHaveText(url);
    await atEachSizeAndLanguage(page, async (at) => {
      const where = `${url}, ${at.where}`;
      // "…Webseite: tel:+1202555014" and "7" on the next line.
      expect(await linesOfEachDigitGroup(link), where).toEqual(groups);
      const [shown, box] = [(await link.boundingBox())!, (await dialog.boundingBox())!];
      expect(shown.x + shown.width, where).toBeLessThanOrEqual(box.x + box.width);
    });
    await showLocale(page, 'de');
    await pictureInBothThemes(page, `fit-link-confirmation-${url.length}-de`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await showLocale(page, 'en');
});

test('a number in a sentence core says (a refused dial) stays on one line, at 420 and 1280 px', async ({
  page,
}) => {
  await ready(page);
  const allowed = await page.evaluate(async () => {
    const settings = await window.callbar.settings.get();
    await window.callbar.settings.save({ dial_allowed_classes: ['extension'] });
    return settings.ok ? settings.value.settings.dial_allowed_classes : [];
  });
  const search = page.getByRole('combobox');
  const refusal = page.getByTestId('call-error');
  try {
    await atEachSizeAndLanguage(page, async ({ where: at }) => {
      for (const typed of ['+49 30 / 7654322', '+44 20 7946 0205', '+1 202 555 0147']) {
        await search.fill(typed);
        await expect(page.getByRole('option').first()).toContainText(typed.slice(-4));
        await search.press('Enter');
        const said = await page.evaluate(async (target) => {
          const answer = await window.callbar.calls.dial({ target, source: 'ui' });
          return answer.ok ? '' : answer.error.message;
        }, typed);
        // The sentence stays as core said it; only the line keeps its number whole.
        await expect(refusal).toHaveText(said);
        const shown = await page.evaluate(async (input) => {
          const target = await window.callbar.calls.parse({ input });
          return target.ok ? target.value.display : '';
        }, typed);
        expect(said).toContain(shown);
        const where = `${typed}, ${at}`;
        // "…hat es +49 30 /" and "7654322 nicht gewählt." at 420 px in German.
        expect(
          await linesOfEachDigitGroup(refusal, shown.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
          `${where}: ${said}`,
        ).toEqual({ [shown]: 1 });
      }
    });
    await showLocale(page, 'de');
    await pictureInBothThemes(page, 'fit-refusal-number-de');
  } finally {
    await showLocale(page, 'en');
    await page.evaluate(
      (classes) => window.callbar.settings.save({ dial_allowed_classes: classes }),
      allowed,
    );
  }
});

/** Callers of the recent-call tests: a contact with a long number abroad, and a stranger. */
const CALLERS = ['+8613800138000', '+12025550161'];

/** Declined calls from `numbers`: rows in Recent calls, a stranger's named by the number. */
async function recentCallsFrom(page: Page, numbers: string[]) {
  const bar = page.getByTestId('call-bar');
  for (const from of numbers) {
    await control.incomingCall({
      tenant_id: app.sim.tenant_id,
      user_extension: app.sim.users[0]!.extension,
      from,
    });
    await expect(bar).toBeVisible({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
  }
  // The ended call's card holds the top a few seconds; the list is what these tests look at.
  const rows = page.locator('.recent-call');
  await expect(rows).toHaveCount(numbers.length);
  return rows;
}

test('a recent call’s actions, shown on hover or focus (always, in high contrast), leave its number in view', async ({
  page,
}) => {
  await ready(page);
  const rows = await recentCallsFrom(page, CALLERS);
  for (const locale of LOCALES) {
    await showLocale(page, locale);
    for (const index of [0, 1]) {
      const row = rows.nth(index);
      await row.hover();
      // A stranger's number is the row's title; a contact's ("Wei Zhang") is in its details.
      const number = row.locator('.phone-number');
      const actions = row.locator('.row-actions button').first();
      await expect(actions).toBeVisible();
      const [numberBox, actionsBox] = [
        (await number.boundingBox())!,
        (await actions.boundingBox())!,
      ];
      // In German the actions ("Notiz hinzufügen", "Erneut anrufen") lay over the whole number;
      // at 420 px Call lay over a contact's "+86 138 0013 8000" in its details.
      expect(
        numberBox.x + numberBox.width,
        `${locale}: "${await number.innerText()}" ends under its row's actions`,
      ).toBeLessThanOrEqual(actionsBox.x);
    }
    await page.mouse.move(0, 0);
  }
  // In high contrast they always show, with no hover: over the number and the time they were.
  await page.emulateMedia({ forcedColors: 'active' });
  await atEachSizeAndLanguage(page, async ({ where }) => {
    for (const index of [0, 1]) {
      const row = rows.nth(index);
      const actions = row.locator('.row-actions');
      await expect(actions.getByRole('button').first()).toBeVisible();
      expect(await unreadableEnds(row, actions), `forced colours, ${where}: row ${index}`).toEqual(
        [],
      );
    }
  });
  await page.emulateMedia({ forcedColors: 'none' });
  // The note is the ⋯ menu's first item; written in place, it is saved with the call.
  const first = rows.first();
  await first.getByRole('button', { name: /^More actions for / }).click();
  await page.getByRole('menuitem', { name: 'Add note' }).click();
  await first.getByLabel('Note on this call').fill('Call back on Friday');
  await first.getByRole('button', { name: 'Save note' }).click();
  await expect(first.getByTestId('recent-note')).toHaveText('Call back on Friday');
  await first.getByRole('button', { name: /^More actions for / }).click();
  await expect(page.getByRole('menuitem').first()).toHaveText('Edit note');
  await page.keyboard.press('Escape');
});

test('a recent call’s open menu takes its own clicks, not the next row’s hidden Call again', async ({
  page,
}) => {
  await ready(page);
  const rows = await recentCallsFrom(page, CALLERS);
  for (const locale of LOCALES) {
    await showLocale(page, locale);
    const t = createI18n({ locale }).t;
    const first = rows.first();
    await first.hover();
    await first.getByRole('button', { name: /^(More actions for|Weitere Aktionen für) / }).click();
    const items = page.getByRole('menuitem');
    await expect(items.first()).toBeVisible();
    await items.last().scrollIntoViewIfNeeded();
    // What a click at each item's middle reaches: the item, not a button under the menu.
    const reached = await items.evaluateAll((all) =>
      all.map((item) => {
        const box = item.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return top && item.contains(top) ? 'the item' : (top?.getAttribute('aria-label') ?? '?');
      }),
    );
    expect(reached, locale).toEqual(reached.map(() => 'the item'));
    // Add to contacts (the number has no contact) opens the editor; no call is placed.
    const before = (await control.calls()).length;
    await page.getByRole('menuitem', { name: t('addToContacts.title') }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    expect((await control.calls()).length).toBe(before);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await showLocale(page, 'en');
});

/**
 * Each button of `card` as it reads against the card (or what the card stands on): the contrast of its edge (its border, or
 * its fill where it is filled) with the card's background, and, focused by the keys, its ring's
 * style, width and contrast (WCAG 1.4.11: 3:1 for what identifies a control).
 */
function buttonsAgainst(card: Locator) {
  return card.evaluate((node) => {
    const rgb = (color: string) => {
      const probe = document.createElement('canvas').getContext('2d')!;
      probe.fillStyle = color;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      return { rgb: [r!, g!, b!], alpha: a! / 255 };
    };
    const luminance = ([r, g, b]: number[]) => {
      const [R, G, B] = [r!, g!, b!].map((c) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const contrast = (a: string, b: string) => {
      const [x, y] = [luminance(rgb(a).rgb), luminance(rgb(b).rgb)];
      return Math.round(((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)) * 100) / 100;
    };
    // What the buttons stand on: the nearest background that is painted.
    let holder: Element | null = node;
    while (holder && rgb(getComputedStyle(holder).backgroundColor).alpha < 0.5) {
      holder = holder.parentElement;
    }
    const ground = holder ? getComputedStyle(holder).backgroundColor : 'white';
    const seen = [];
    for (const button of node.querySelectorAll<HTMLButtonElement>('button')) {
      const style = getComputedStyle(button);
      const filled = rgb(style.backgroundColor).alpha > 0.5;
      const edge =
        parseFloat(style.borderTopWidth) > 0 && rgb(style.borderTopColor).alpha > 0.5
          ? Math.max(
              contrast(style.borderTopColor, ground),
              filled ? contrast(style.backgroundColor, ground) : 0,
            )
          : filled
            ? contrast(style.backgroundColor, ground)
            : 1;
      button.focus({ focusVisible: true });
      const focused = getComputedStyle(button);
      seen.push({
        button: button.getAttribute('aria-label') ?? button.textContent ?? '',
        edge: edge >= 3,
        ring: focused.outlineStyle === 'solid' && parseFloat(focused.outlineWidth) >= 2,
        ringContrast: contrast(focused.outlineColor, ground) >= 3,
      });
      button.blur();
    }
    return seen;
  });
}

test('the call bar’s buttons read as buttons, with a ring when focused, in both themes', async ({
  page,
}) => {
  await ready(page);
  await page.evaluate(
    (crm) => window.callbar.settings.save({ crm_links: [crm] }),
    'https://crm.example.com/search?phone={e164}',
  );
  const bar = page.getByTestId('call-bar');
  await control.incomingCall({
    tenant_id: app.sim.tenant_id,
    user_extension: app.sim.users[0]!.extension,
    from: '+12025550177',
  });
  await expect(bar).toBeVisible({ timeout: 20_000 });
  await expect(bar.getByRole('button', { name: /^Open in crm/ })).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const buttons = await buttonsAgainst(bar);
      // Add to contacts and Open in crm.example.com were words on the card, with no edge.
      expect(buttons.length).toBe(3);
      for (const button of buttons) {
        expect(button, `${size.width} px, ${colorScheme}`).toEqual({
          button: button.button,
          edge: true,
          ring: true,
          ringContrast: true,
        });
      }
    }
  }
  await page.setViewportSize(SIZES[0]);
  await pictureInBothThemes(page, 'fit-call-bar-buttons');
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
  await page.evaluate(() => window.callbar.settings.save({ crm_links: [] }));
});

test('the sync status’s Refresh reads as a button, with a ring when focused, in both themes', async ({
  page,
}) => {
  await ready(page);
  const status = page.getByTestId('sync-status');
  await expect(status.getByRole('button', { name: 'Refresh' })).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // "Refresh" was a word beside "30 contacts · updated 04:22": no edge, as text reads.
      expect(await buttonsAgainst(status), `${size.width} px, ${colorScheme}`).toEqual([
        { button: 'Refresh', edge: true, ring: true, ringContrast: true },
      ]);
    }
  }
  await page.setViewportSize(SIZES[0]);
  await pictureInBothThemes(page, 'fit-sync-refresh');
});

/** A phonebook's contacts, Customers by default (from Search, in English). */
async function openCustomers(page: Page, phonebook = 'Customers') {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Phonebooks and contacts' }).click();
  await page.getByRole('button', { name: phonebook, exact: true }).click();
}

/** The phonebook's "More" menu → "Import a file…", in this language. */
async function openImportDialog(page: Page, locale: (typeof LOCALES)[number]) {
  const t = createI18n({ locale }).t;
  await showLocale(page, locale);
  await page.getByRole('button', { name: new RegExp(`^${t('common.more')}: `) }).click();
  await page.getByRole('menuitem', { name: t('import.button') }).click();
  return page.getByRole('dialog', { name: t('import.title') });
}

/**
 * The texts of `row` a person cannot read to their end: cut without an ellipsis (by a part that
 * hides what overflows), or running under `actions`. Each is `text: why`.
 */
async function unreadableEnds(row: Locator, actions: Locator) {
  return (await rowEnds(row, actions)).problems;
}

/**
 * unreadableEnds with the row hovered, hovered again until the measure finds it so: a row that
 * moves from under a still pointer (the window above it changing) loses its hover, and its actions
 * lie hidden over the text as they do when not shown.
 */
async function hoveredUnreadableEnds(row: Locator, actions: Locator) {
  let problems: string[] = [];
  await expect
    .poll(async () => {
      await row.hover();
      const ends = await rowEnds(row, actions);
      problems = ends.problems;
      return ends.hovered;
    })
    .toBe(true);
  return problems;
}

async function rowEnds(row: Locator, actions: Locator) {
  const over = await actions.elementHandle();
  return row.evaluate((node, over) => {
    const rtl = getComputedStyle(node).direction === 'rtl';
    /** How far along the line a box ends (larger: nearer the row's end, in either direction). */
    const end = (element: Element) => {
      const box = element.getBoundingClientRect();
      return rtl ? -box.left : box.right;
    };
    const start = (element: Element) => {
      const box = element.getBoundingClientRect();
      return rtl ? -box.right : box.left;
    };
    const hasText = (part: Element) =>
      [...part.childNodes].some(
        (child) => child.nodeType === Node.TEXT_NODE && (child.textContent ?? '').trim() !== '',
      );
    const problems: string[] = [];
    for (const part of node.querySelectorAll<HTMLElement>('.row-text *')) {
      if (!hasText(part) || part.getClientRects().length === 0) continue;
      const text = part.textContent ?? '';
      // Where it shows to: its own end, or that of a part that hides what overflows it. A part
      // with nothing left to show (a company beside a name that takes the line) is not shown.
      let shown = end(part);
      for (let up = part.parentElement; up && up !== node; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' || shown <= end(up) + 1) continue;
        shown = end(up);
        if (shown <= start(part) + 1) break;
        // Inline text in a block that ends it in an ellipsis (a name in its button) is cut so.
        const inline = getComputedStyle(part).display.startsWith('inline');
        const ellipsis = style.textOverflow === 'ellipsis' && !/flex|grid/.test(style.display);
        if (!(inline && ellipsis)) problems.push(`${text}: clipped without an ellipsis`);
      }
      if (shown <= start(part) + 1) continue;
      const cut = part.scrollWidth > part.clientWidth + 1;
      if (cut && getComputedStyle(part).textOverflow !== 'ellipsis') {
        problems.push(`${text}: cut, no ellipsis`);
      }
      if (shown > start(over) + 1) problems.push(`${text}: under the row's actions`);
    }
    return { problems, hovered: node.matches(':hover') };
  }, over);
}

test('a contact’s Call and ⋯, shown on hover (always, in high contrast), leave its number and speed dial in view, its name and company ended in an ellipsis', async ({
  page,
}) => {
  await ready(page);
  // Phonebook 1, where beforeAll added them.
  await openCustomers(page, 'Company directory');
  // In forced colours they show with no hover: over the name, the company and the speed dial.
  for (const forced of [false, true]) {
    await page.emulateMedia({ forcedColors: forced ? 'active' : 'none' });
    await atEachSizeAndLanguage(page, async ({ size, locale, where: at }) => {
      const t = createI18n({ locale }).t;
      const where = `${forced ? 'forced colours, ' : ''}${at}`;
      for (const name of [LONG_NAME, 'Wei Zhang']) {
        await page.getByLabel(t('contacts.search')).fill(name);
        const row = page.getByTestId('contact-row').filter({ hasText: name });
        if (forced) await page.mouse.move(0, 0);
        else await row.hover();
        const actions = row.locator('.row-actions');
        await expect(actions.getByRole('button').first()).toBeVisible();
        const [detail, actionsBox] = [
          (await row.locator('.row-detail > *').last().boundingBox())!,
          (await actions.boundingBox())!,
        ];
        // In German at 420 px "Anrufen" lay over "Kurzwahl 8104".
        expect(
          detail.x + detail.width,
          `${where}: ${name}'s speed dial ends under the row's actions`,
        ).toBeLessThanOrEqual(actionsBox.x);
        // A long name and company ran on under Call and ⋯, cut off with no ellipsis.
        expect(
          await (forced ? unreadableEnds(row, actions) : hoveredUnreadableEnds(row, actions)),
          `${where}: ${name}`,
        ).toEqual([]);
        if (name === LONG_NAME && !forced) {
          await pictureInBothThemes(page, `fit-contact-hover-long-${size.width}-${locale}`);
        }
        // The Call button keeps its name, whatever it shows.
        await expect(
          actions.getByRole('button', { name: t('contacts.callName', { name }) }),
        ).toBeVisible();
      }
    });
  }
  await page.getByLabel('Search contacts').fill(LONG_NAME);
  await picture(page, 'fit-contact-row-forced-colors.png');
  await page.emulateMedia({ forcedColors: 'none' });
  await page.getByLabel('Search contacts').fill('Wei Zhang');
  await page.getByTestId('contact-row').first().hover();
  await pictureInBothThemes(page, 'fit-contact-row-hover');
});

test('a contact’s company in the contacts list is never cut to a sliver beside a long name, as in the results', async ({
  page,
}) => {
  await ready(page);
  await openCustomers(page, 'Company directory');
  await page.mouse.move(0, 0);
  await atEachSizeAndLanguage(page, async ({ size, locale, where }) => {
    const t = createI18n({ locale }).t;
    for (const name of [LONG_NAME, 'Ida Roth']) {
      await page.getByLabel(t('contacts.search')).fill(name);
      const row = page.getByTestId('contact-row').filter({ hasText: name });
      const parts = await shownParts(row, '.row-title');
      expect(parts[0], where).toEqual({ text: name, width: expect.any(Number) });
      for (const part of parts.slice(1)) {
        expect(part.width, `${where}: "${part.text}"`).toBeGreaterThanOrEqual(30);
      }
      // Wide, or beside a name of usual length, the company shows.
      if (size.width === 1280 || name === 'Ida Roth') {
        expect(parts.length, `${where}: ${JSON.stringify(parts)}`).toBe(2);
      }
    }
  });
  await page.getByLabel('Search contacts').fill('');
  await pictureInBothThemes(page, 'fit-contacts-long-name');
});

test('a favourite’s Unstar and Call, shown on hover, leave its name ended in an ellipsis, not cut under them', async ({
  page,
}) => {
  await ready(page);
  const id = await page.evaluate(async (name) => {
    const found = await window.callbar.directory.search({ query: name, limit: 1 });
    return found.ok ? found.value.hits[0]!.contact.id : 0;
  }, LONG_NAME);
  await page.evaluate(
    (contact) => window.callbar.favourites.set({ contact_id: contact, starred: true }),
    id,
  );
  try {
    const row = page.getByTestId('favourites').locator('.row').filter({ hasText: LONG_NAME });
    await atEachSizeAndLanguage(page, async ({ where }) => {
      const actions = row.locator('.row-actions');
      // "Maximiliane Schwarzen" ran on under "Entfernen" and Call, cut with no ellipsis.
      expect(await hoveredUnreadableEnds(row, actions), where).toEqual([]);
    });
    await showLocale(page, 'de');
    await row.hover();
    await pictureInBothThemes(page, 'fit-favourite-hover-de');
  } finally {
    await showLocale(page, 'en');
    await page.evaluate(
      (contact) => window.callbar.favourites.set({ contact_id: contact, starred: false }),
      id,
    );
  }
});

/**
 * Each dropdown of the page: its width, and the options whose words are wider than the room the
 * closed dropdown gives them (its width less its padding, border and arrow).
 */
function dropdowns(page: Page) {
  return page.locator('form select').evaluateAll((all) => {
    const measure = document.createElement('canvas').getContext('2d')!;
    return all.map((select) => {
      const style = getComputedStyle(select);
      measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room =
        select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return {
        width: Math.round(select.getBoundingClientRect().width),
        cut: [...(select as HTMLSelectElement).options]
          .map((option) => option.text)
          .filter((text) => measure.measureText(text).width > room),
      };
    });
  });
}

test('Settings’ dropdowns are one width, each option whole in it, in English and German', async ({
  page,
}) => {
  await ready(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('form select').first()).toBeVisible();
  await atEachSizeAndLanguage(page, async ({ where }) => {
    const shown = await dropdowns(page);
    // Country, countries to call, tel: links, theme, language: 308, 308, 448, 308, 308 px.
    expect(shown.length, where).toBe(5);
    expect(
      new Set(shown.map((each) => each.width)).size,
      `${where}: ${JSON.stringify(shown)}`,
    ).toBe(1);
    expect(
      shown.flatMap((each) => each.cut),
      where,
    ).toEqual([]);
  });
});

/** How many lines each text of the element's lays on (a number broken in two: 2). */
function linesOfEachText(cell: Locator) {
  return cell.evaluate((node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const lines: Record<string, number> = {};
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      lines[text.textContent ?? ''] = tops.size;
    }
    return lines;
  });
}

test('the import preview shows each number on one line beside a long reason, at 420 and 1280 px', async ({
  page,
}) => {
  await ready(page);
  await openCustomers(page);
  const dialog = await openImportDialog(page, 'en');
  await dialog.getByLabel('CSV or vCard file').setInputFiles({
    name: 'team.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Full Name,Mobile,Business Phone',
        'Alan Turing,(202) 555-0531,(202) 555-0532',
        'Bad Row,not a number,',
        'Ada Lovelace,+49 30 1234567,',
      ].join('\n'),
    ),
  });
  const shown = page.getByRole('dialog');
  const cells = shown.locator('.import-rows tbody td[dir="ltr"]');
  await expect(cells).toHaveCount(3);
  await atEachSizeAndLanguage(page, async ({ where }) => {
    // "(202) 555-" and "0531" were two lines (the reason beside took the room).
    expect(await linesOfEachText(cells.nth(0)), where).toEqual({
      '(202) 555-0531': 1,
      '(202) 555-0532': 1,
    });
    expect(await linesOfEachText(cells.nth(2)), where).toEqual({ '+49 30 1234567': 1 });
    // Not a number (the file's words): it may wrap, inside the dialog.
    const [cell, box] = [(await cells.nth(1).boundingBox())!, (await shown.boundingBox())!];
    expect(cell.x + cell.width).toBeLessThanOrEqual(box.x + box.width);
  });
  await pictureInBothThemes(page, 'fit-import-preview');
});

test('the import’s file button is in the window’s language; the system’s control is not shown', async ({
  page,
}) => {
  await ready(page);
  await openCustomers(page);
  for (const locale of LOCALES) {
    const t = createI18n({ locale }).t;
    const dialog = await openImportDialog(page, locale);
    // The system's file control said "Choose File" in a German window (its button is the
    // system's words), and the file's name a second time.
    const input = dialog.getByLabel(t('import.file'));
    const box = (await input.boundingBox())!;
    expect(box.width * box.height).toBeLessThanOrEqual(1);
    const button = dialog.getByText(t('import.choose'), { exact: true });
    await expect(button).toBeVisible();
    // The input has the focus (keys open it); the button shows the ring.
    await expect(input).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(input).toBeFocused();
    expect(await button.evaluate((node) => getComputedStyle(node).outlineStyle)).toBe('solid');
    await input.setInputFiles({
      name: 'team.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Full Name,Mobile\nAlan Turing,(202) 555-0531\n'),
    });
    await expect(page.getByRole('dialog').locator('.drop-zone strong')).toHaveText('team.csv');
    // The chosen file keeps the focus where it was: it fell to the page while the file was read.
    await expect(input).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  }
  await showLocale(page, 'en');
});

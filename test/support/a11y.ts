/**
 * The accessibility checks of test/e2e/accessibility.spec.ts: axe-core with no violation at all
 * (every impact, WCAG 2.0–2.2 A/AA and axe's best practices) in every locale and both themes,
 * every control named, a visible focus ring, nothing scrolled sideways.
 */
import { expect, type Page } from '@playwright/test';
import { join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * axe-core itself (the version package.json pins), put into the page once per document and run
 * there. @axe-core/playwright put its 650 KB into the page twice per scan and finished each scan
 * in a new blank page: several times the CPU of the scan itself, on every one of the suite's
 * hundreds of scans (docs/development.md, the test suite). The window has no frames, so
 * `axe.run` in the page sees all that the driver's frame walk would.
 */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * The locales every scan runs in (the window starts in the first). A locale is shown in place,
 * on the screen being scanned, by `showLocale`, and English is back before the test goes on
 * (its steps find controls by their English names).
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * Switches the window's language where it stands (dialogs stay open) and waits until every
 * string is in it: the window says its language on <html lang>.
 */
export async function showLocale(page: Page, locale: Locale): Promise<void> {
  // The window shown now, and the language the profile keeps: a window just opened says its
  // first language on <html lang> before the saved one (a test before this one may have saved
  // German) comes in, so the saved one decides too.
  const current = await page.locator('html').getAttribute('lang');
  const saved = await page.evaluate(async () => {
    const settings = await window.callbar.settings.get();
    return settings.ok ? settings.value.settings.language : undefined;
  });
  if (current === locale && (saved === locale || saved === 'system')) return;
  await page.evaluate(async (language) => {
    await window.callbar.settings.save({ language });
  }, locale);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/**
 * The axe rules Callbar does not meet on purpose, each with why. None today: a rule is disabled
 * only for a reason written here, never to make a scan pass.
 */
const DISABLED_RULES: Record<string, string> = {};

/**
 * What every scan checks: WCAG 2.0–2.2 A and AA, and axe's best practices. Every rule runs on
 * every element; `resultTypes` only spares axe writing a selector for each element that passed
 * (or was inapplicable or incomplete), which a scan never reads: every violation keeps all its
 * elements.
 */
const AXE_OPTIONS: RunOptions = {
  runOnly: {
    type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'],
  },
  rules: Object.fromEntries(Object.keys(DISABLED_RULES).map((id) => [id, { enabled: false }])),
  resultTypes: ['violations'],
};

/** axe-core finds no violation at all, of any impact, in what the page shows. */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  type WithAxe = { axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> } };
  // A screen loaded when first shown (its own chunk: the connect screen after a reload, settings)
  // has no heading until the chunk came, and a scan in between sees a page still starting (the
  // headless shell's faster start met that gap). Wait for the level-one heading; a page that
  // never gets one is scanned all the same, and the scan says so.
  await page
    .locator('h1')
    .first()
    .waitFor({ state: 'attached', timeout: 5_000 })
    .catch(() => undefined);
  if (!(await page.evaluate(() => Boolean((window as WithAxe).axe)))) {
    await page.evaluate(AXE_SOURCE);
  }
  const results = await page.evaluate(
    (options) => (window as WithAxe).axe!.run(document, options),
    AXE_OPTIONS,
  );
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary}`),
  }));
  // Soft: one run lists every screen's violations, not only the first screen's.
  expect.soft(violations, `axe: ${what}`).toEqual([]);
}

/** Every control the page shows that a person can operate. */
const CONTROLS =
  'button, input, select, textarea, a[href], summary, [role="option"], [role="menuitem"], [role="tab"], [tabindex]:not([tabindex="-1"])';

/** The attribute that marks, for the time of one check, the visible controls by their place. */
const NAMED_MARK = 'data-name-check';

/**
 * The roles a control may have (and a few a focusable container may): the elements of these
 * roles with a name are found in one query to the page. A control of any other role, or of none
 * (a <summary>), is checked on its own.
 */
const CONTROL_ROLES = [
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'dialog',
  'group',
  'list',
  'region',
] as const;

/**
 * Every visible control has an accessible name that is not empty, as Playwright computes it
 * (`toHaveAccessibleName(/\S/)` is the verdict). Three calls to the page, not one per control:
 * the visible controls are marked by their place; one role query (`getByRole` with a name,
 * which computes the name as `toHaveAccessibleName` does, and leaves out what is hidden from
 * assistive technology, whose name that assertion takes as empty) returns those that have a
 * name with a character that is not a space; every control it did not return is asserted on its
 * own, with the assertion's retries and message. So a pass is the same pass, and a failure the
 * same failure, as asserting each control (which cost a round trip per control and, found by
 * its place, a query of the whole page each; docs/development.md). The marks go afterwards.
 */
export async function expectEveryControlNamed(page: Page, what: string): Promise<void> {
  const count = await page
    .locator(CONTROLS)
    .filter({ visible: true })
    .evaluateAll((controls, mark) => {
      controls.forEach((control, index) => control.setAttribute(mark, String(index)));
      return controls.length;
    }, NAMED_MARK);
  try {
    const named = CONTROL_ROLES.map((role) => page.getByRole(role, { name: /\S/ })).reduce(
      (union, next) => union.or(next),
    );
    const found = await page
      .locator(`[${NAMED_MARK}]`)
      .and(named)
      .evaluateAll(
        (controls, mark) => controls.map((control) => control.getAttribute(mark)),
        NAMED_MARK,
      );
    const covered = new Set(found);
    for (let index = 0; index < count; index += 1) {
      if (covered.has(String(index))) continue;
      const control = page.locator(`[${NAMED_MARK}="${index}"]`);
      try {
        await expect(control).toHaveAccessibleName(/\S/);
      } catch (error) {
        const html = await control.evaluate((node) => node.outerHTML.slice(0, 160));
        throw new Error(`${what}: ${html}\n${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await page.evaluate((mark) => {
      for (const node of document.querySelectorAll(`[${mark}]`)) node.removeAttribute(mark);
    }, NAMED_MARK);
  }
}

/** The window's two sizes the docs show: its own, and a large screen's. */
const SHOT_SIZES = [
  { width: 420, height: 640 },
  { width: 1280, height: 800 },
] as const;

/**
 * The docs' pictures of the screen as it stands, in this locale and theme, at both sizes
 * (docs/screenshots/<shot>-<width>-<theme>[-<locale>].png), when CALLBAR_UPDATE_SCREENSHOTS=1;
 * otherwise nothing (a test run takes no pictures it would not keep).
 */
async function docsScreenshots(page: Page, shot: string, locale: Locale, theme: string) {
  if (process.env.CALLBAR_UPDATE_SCREENSHOTS !== '1') return;
  const before = page.viewportSize();
  for (const size of SHOT_SIZES) {
    await page.setViewportSize(size);
    const suffix = locale === LOCALES[0] ? '' : `-${locale}`;
    await page.screenshot({
      path: join('docs/screenshots', `${shot}-${size.width}-${theme}${suffix}.png`),
    });
  }
  if (before) await page.setViewportSize(before);
}

/**
 * The full check of one screen: axe and the names in every locale, each in the light and the
 * dark theme (the system's preference, as Chromium reports it); English and light afterwards.
 * With `shot`, the docs' pictures of it in each (see docsScreenshots).
 */
export async function expectAccessibleEverywhere(
  page: Page,
  what: string,
  shot?: string,
): Promise<void> {
  for (const locale of LOCALES) {
    await showLocale(page, locale);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page, `${what} (${locale}, ${colorScheme})`);
      if (shot) await docsScreenshots(page, shot, locale, colorScheme);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await expectEveryControlNamed(page, `${what} (${locale})`);
  }
  await showLocale(page, LOCALES[0]);
}

/**
 * How the focused element shows it has the focus: its own outline (or box-shadow) or, for a
 * row's main button that covers the row, the row's outline; undefined when nothing shows it.
 */
export async function focusIndicator(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLElement) || focused === document.body) return 'nothing focused';
    const drawn = (element: Element) => {
      const style = getComputedStyle(element);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1) {
        return `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`;
      }
      if (style.boxShadow !== 'none') return `box-shadow ${style.boxShadow}`;
      return undefined;
    };
    if (!focused.matches(':focus-visible')) return undefined;
    return (
      drawn(focused) ?? (focused.closest('.row') ? drawn(focused.closest('.row')!) : undefined)
    );
  });
}

/** The page itself scrolls sideways. */
export function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
  );
}

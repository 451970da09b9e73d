import { expect, test, type Page } from '@playwright/test';
import { createI18n } from '../../src-shared/i18n';
import { showLocale } from '../support/a11y';
import { type E2eApp, openConnected, pictureInBothThemes, startApp } from '../support/e2e-app';

/**
 * Settings as the eye reads it, at 420 and 1280 px in English and German: Advanced spaced as the
 * other sections are (its settings ran into each other, the next label 4 px under a hint), and
 * its explanations in the hints' small type (the Webhook URL's was in body type, larger than
 * every other explanation on the page). Measured on the layout, never on pixels.
 */
let app: E2eApp;

test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.close();
});

/**
 * Each section's parts (a setting, a hint or notice between them) in order, as the eye sees
 * them: the space between each and the next, and the font size of each explanation that is not
 * a setting's own label, control, error or warning.
 */
function sectionsAsSeen(page: Page) {
  return page.locator('.settings-view').evaluate((view) => {
    const shown = (element: Element) => element.getClientRects().length > 0;
    const sections = [...view.querySelectorAll<HTMLElement>('.settings-section')].map((section) => {
      const heading = section.querySelector(':scope > legend, :scope > summary');
      const body = section.querySelector(':scope > .settings-section-body');
      const parts = [...(body ?? section).children].filter(
        (part) => part !== heading && part.tagName !== 'LEGEND' && shown(part),
      );
      const gaps = parts.slice(1).map((part, index) => {
        const above = parts[index]!.getBoundingClientRect();
        return {
          between: `${(parts[index]!.textContent ?? '').slice(0, 30)} | ${(part.textContent ?? '').slice(0, 30)}`,
          gap: Math.round(part.getBoundingClientRect().top - above.bottom),
        };
      });
      return { section: (heading?.textContent ?? '').trim(), gaps };
    });
    const hint = view.querySelector('.setting-hint')!;
    const small = getComputedStyle(hint).fontSize;
    // Explanations: paragraphs that are not a setting's error, a warning or an alert.
    const explanations = [...view.querySelectorAll<HTMLElement>('.settings-form p')]
      .filter(shown)
      .filter((p) => !p.matches('.setting-error, .warning, .error, [role="alert"]'))
      .filter((p) => getComputedStyle(p).fontSize !== small)
      .map((p) => `${(p.textContent ?? '').slice(0, 40)}: ${getComputedStyle(p).fontSize}`);
    return { sections, explanations, small };
  });
}

test('Advanced is spaced as every other section, its explanations in the hints’ type, at 420 and 1280 px', async ({
  page,
}) => {
  await openConnected(page, app);
  for (const locale of ['en', 'de'] as const) {
    const t = createI18n({ locale }).t;
    await showLocale(page, locale);
    await page.getByRole('button', { name: t('menu.menu'), exact: true }).click();
    await page.getByRole('button', { name: t('menu.settings'), exact: true }).click();
    await page.getByText(t('settings.group.advanced'), { exact: true }).click();
    await expect(page.getByRole('button', { name: t('webhook.show') })).toBeVisible();
    for (const width of [420, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const where = `${width} px, ${locale}`;
      const seen = await sectionsAsSeen(page);
      expect(seen.sections.map((each) => each.section)).toContain(t('settings.group.advanced'));
      for (const { section, gaps } of seen.sections) {
        // The other sections keep 16 px between their settings; Advanced had 4 (and 0).
        for (const { between, gap } of gaps) {
          expect(gap, `${where}, ${section}: ${between}`).toBeGreaterThanOrEqual(12);
        }
      }
      expect(seen.explanations, `${where}: not in the hints' ${seen.small}`).toEqual([]);
    }
    await page.setViewportSize({ width: 420, height: 640 });
    if (locale === 'de') {
      await page
        .locator('.settings-advanced > summary')
        .evaluate((summary) => summary.scrollIntoView());
      await pictureInBothThemes(page, 'settings-advanced-de');
    }
    await page.keyboard.press('Escape');
  }
  await showLocale(page, 'en');
});

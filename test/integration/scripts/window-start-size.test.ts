/**
 * Issue 45: the window starts with at most 100 KB of gzip JavaScript, measured on the renderer's
 * production build (scripts/window-start-size.ts; sizes are deterministic, so this is a test,
 * not a benchmark). At start it loads one locale's catalog, already compiled (no ICU parser),
 * and none of the screens loaded when opened.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  measureWindowStart,
  WINDOW_START_BUDGET_KB,
  type WindowStartSize,
} from '../../../scripts/window-start-size';

let size: WindowStartSize;

beforeAll(async () => {
  size = await measureWindowStart();
}, 120_000);

const startModules = () => size.start.flatMap((chunk) => chunk.modules);

describe("the window's JavaScript at start", () => {
  it(`is at most ${WINDOW_START_BUDGET_KB} KB gzip`, () => {
    const chunks = size.start.map((chunk) => `${chunk.file} ${chunk.gzipKb} KB`).join(', ');
    expect(size.startKb, `start chunks: ${chunks}`).toBeLessThanOrEqual(WINDOW_START_BUDGET_KB);
    expect(size.startKb).toBeGreaterThan(20);
  });

  it('holds one locale of the window catalog, compiled: no ICU parser, no other namespace', () => {
    const modules = startModules();
    const catalogs = modules.filter((id) => id.startsWith('virtual:window-catalog/'));
    expect(catalogs).toHaveLength(1);
    expect(modules.filter((id) => id.includes('icu-messageformat-parser'))).toEqual([
      '@formatjs/icu-messageformat-parser/no-parser.js',
    ]);
    expect(modules.filter((id) => id.includes('skeleton-parser'))).toEqual([]);
    expect(modules.filter((id) => id.includes('/locales/'))).toEqual([]);
    expect(modules.filter((id) => /^i18next|react-i18next/.test(id))).toEqual([]);
  });

  it('leaves the screens opened later (settings, phonebooks, import, about, setup) to later', () => {
    const modules = startModules();
    for (const screen of [
      'SettingsView',
      'PhonebooksView',
      'ImportDialog',
      'AboutView',
      'SetupView',
    ]) {
      expect(
        modules.filter((id) => id.endsWith(`/${screen}.tsx`)),
        screen,
      ).toEqual([]);
      const later = size.later.flatMap((chunk) => chunk.modules);
      expect(
        later.some((id) => id.endsWith(`/${screen}.tsx`)),
        screen,
      ).toBe(true);
    }
  });
});

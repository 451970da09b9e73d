/**
 * The shared i18n layer: which locale is spoken, messages with ICU plurals in each locale, the
 * pseudo-locales, and numbers, lists and durations through Intl.
 */
import { describe, expect, it } from 'vitest';
import {
  CATALOGS,
  createI18n,
  formatClockDuration,
  formatDuration,
  formatList,
  formatNumber,
  localeFromEnv,
  matchLocale,
  pseudoLocalize,
  resolveLocale,
  textDirection,
} from '../../../../src-shared/i18n';

describe('resolveLocale', () => {
  it('takes the setting, then the system, then LC_ALL/LC_MESSAGES/LANG, then English', () => {
    expect(resolveLocale({ setting: 'de', system: 'en-US', env: { LANG: 'en_US.UTF-8' } })).toBe(
      'de',
    );
    expect(resolveLocale({ setting: 'system', system: ['fr-FR', 'de-AT'] })).toBe('de');
    expect(resolveLocale({ setting: 'system', system: 'en-GB', env: { LANG: 'de_DE' } })).toBe(
      'en',
    );
    expect(resolveLocale({ env: { LANG: 'de_DE.UTF-8' } })).toBe('de');
    expect(resolveLocale({ env: { LANG: 'de_DE.UTF-8', LC_ALL: 'en_US.UTF-8' } })).toBe('en');
    expect(resolveLocale({ env: { LANG: 'en_US.UTF-8', LC_MESSAGES: 'de_CH.UTF-8' } })).toBe('de');
    expect(resolveLocale({ env: { LANG: 'C' } })).toBe('en');
    expect(resolveLocale({ setting: 'klingon', system: 'fr', env: { LANG: 'ja_JP' } })).toBe('en');
    expect(resolveLocale()).toBe('en');
  });

  it('best-matches tags, and picks a pseudo-locale only by its own name', () => {
    expect(matchLocale('DE-de')).toBe('de');
    expect(matchLocale('en_XA')).toBe('en-XA');
    expect(matchLocale('ar-XB')).toBe('ar-XB');
    expect(matchLocale('ar-EG')).toBeUndefined();
    expect(matchLocale('')).toBeUndefined();
    expect(localeFromEnv({ LANG: 'de_DE.UTF-8@euro' })).toBe('de-DE');
    expect(localeFromEnv({ LC_ALL: '', LANG: 'POSIX' })).toBeUndefined();
  });
});

describe('createI18n', () => {
  it("keeps what one instance adds to itself: the process's catalogs stay as shipped", () => {
    const i18n = createI18n({ locale: 'en' });
    i18n.addResource('en', 'window', 'added.calls', 'x');
    i18n.addResource('de', 'window', 'added.calls', 'x');
    const table = (locale: 'en' | 'de') => CATALOGS[locale].window as Record<string, unknown>;
    expect([table('en').added, table('de').added]).toEqual([undefined, undefined]);
    expect(createI18n({ locale: 'en' }).exists('added.calls')).toBe(false);
  });

  it('is ready at once, formats ICU plurals per locale and switches language at once', () => {
    const i18n = createI18n({ locale: 'en' });
    i18n.addResource('en', 'window', 'test.calls', '{count, plural, one {# call} other {# calls}}');
    i18n.addResource(
      'de',
      'window',
      'test.calls',
      '{count, plural, one {# Anruf} other {# Anrufe}}',
    );
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.t('test.calls', { count: 1 })).toBe('1 call');
    expect(i18n.t('test.calls', { count: 1234 })).toBe('1,234 calls');
    void i18n.changeLanguage('de');
    expect(i18n.language).toBe('de');
    expect(i18n.t('test.calls', { count: 1234 })).toBe('1.234 Anrufe');
    expect(i18n.t('language.system')).toBe('Wie im System');
  });

  it('falls back to English for a key a locale lacks', () => {
    const i18n = createI18n({ locale: 'de' });
    i18n.addResource('en', 'window', 'test.only', 'Only in English');
    expect(i18n.t('test.only')).toBe('Only in English');
  });
});

describe('pseudo-locales', () => {
  it('en-XA accents the text, keeps placeholders and plurals, is longer and bracketed', () => {
    const message = pseudoLocalize(
      'Call {name}: {count, plural, one {# number} other {# numbers}}',
      'en-XA',
    );
    expect(message).toMatch(
      /^\[Çàļļ \{name\}: \{count,plural,one\{# ñûɱƀéŕ\} other\{# ñûɱƀéŕš\}\} ·+\]$/,
    );
    const i18n = createI18n({ locale: 'en-XA' });
    expect(i18n.t('language.system')).toMatch(/^\[Šàɱé àš ţĥé šýšţéɱ ·+\]$/);
    expect(i18n.t('language.system').length).toBeGreaterThanOrEqual(
      Math.round('Same as the system'.length * 1.4),
    );
  });

  it('ar-XB writes text right to left and isolates every placeholder, so numbers stay left to right', () => {
    expect(pseudoLocalize('{count} calls', 'ar-XB')).toBe('\u2068{count}\u2069\u202e calls\u202c');
    expect(textDirection('ar-XB')).toBe('rtl');
    expect(textDirection('de')).toBe('ltr');
    const i18n = createI18n({ locale: 'ar-XB' });
    i18n.addResource('ar-XB', 'window', 'test.n', pseudoLocalize('{count, number} calls', 'ar-XB'));
    // Latin digits, not Arabic-Indic ones, inside the isolate.
    expect(i18n.t('test.n', { count: 1234 })).toBe('\u20681,234\u2069\u202e calls\u202c');
  });
});

describe('formatting through Intl', () => {
  it('formats numbers, lists and durations in the locale', () => {
    expect(formatNumber('en', 1234.5)).toBe('1,234.5');
    expect(formatNumber('de', 1234.5)).toBe('1.234,5');
    expect(formatNumber('ar-XB', 1234)).toBe('1,234');
    expect(formatList('de', ['A', 'B', 'C'])).toBe('A, B und C');
    expect(formatClockDuration('en', 7_000)).toBe('0:07');
    expect(formatClockDuration('de', 3_723_000)).toBe('1:02:03');
    expect(formatDuration('en', 3_900_000)).toBe('1 hr, 5 min');
    expect(formatDuration('de', 45_000)).toBe('45 Sek.');
  });
});

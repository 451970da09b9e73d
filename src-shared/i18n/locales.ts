/**
 * The locales Callbar speaks, the language setting's choices, and what a locale means for layout
 * (text direction) and for `Intl` (the locale numbers and dates are formatted in).
 */

/** Locales with hand-written catalogs (src-shared/i18n/locales/<locale>/<namespace>.json). */
export const CATALOG_LOCALES = ['en', 'de'] as const;

/**
 * Pseudo-locales, generated from English (pseudo-locale.ts), never written by hand: `en-XA`
 * accented, 40 % longer and bracketed (finds clipped text and strings left in the code);
 * `ar-XB` right to left (finds layout that does not mirror and numbers that turn around).
 */
export const PSEUDO_LOCALES = ['en-XA', 'ar-XB'] as const;

/** Every locale Callbar can show. */
export const SUPPORTED_LOCALES = [...CATALOG_LOCALES, ...PSEUDO_LOCALES] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export type CatalogLocale = (typeof CATALOG_LOCALES)[number];
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];

/** The `language` setting: `system` (the OS's language) or one locale. */
export const LANGUAGE_CHOICES = ['system', ...SUPPORTED_LOCALES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** The locale every other falls back to, and the source of the pseudo-locales. */
export const DEFAULT_LOCALE: CatalogLocale = 'en';

/** Each locale's name in its own language, for the language select. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  'en-XA': '[Ƥšéûðö Éñĝļîšĥ]',
  'ar-XB': 'Pseudo RTL',
};

/** True when `value` is one of SUPPORTED_LOCALES. */
export function isLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** The document's direction in `locale`: `rtl` for right-to-left locales. */
export function textDirection(locale: Locale): 'ltr' | 'rtl' {
  return locale === 'ar-XB' ? 'rtl' : 'ltr';
}

/**
 * The locale `Intl` formats numbers, dates and plural rules in: the pseudo-locales format as
 * English (Latin digits, so a number stays left to right and readable in `ar-XB`).
 */
export function intlLocale(locale: Locale): string {
  return locale === 'en-XA' || locale === 'ar-XB' ? DEFAULT_LOCALE : locale;
}

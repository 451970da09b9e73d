/**
 * An i18next instance speaking one locale, ready at once: every catalog is bundled (catalogs.ts),
 * so `init` is synchronous (no backend, no await) and `changeLanguage` switches at once. Messages
 * are ICU (plural, select, number, date) through i18next-icu; numbers and dates in a message are
 * formatted with `intlLocale(locale)`. Plain ones (text, `{name}` given a string) are put together
 * without ICU (plain-messages.ts).
 */
import i18next, { type i18n, type Resource, type TFunction } from 'i18next';
import { CATALOGS, catalogsOf, NAMESPACES, type Namespace } from './catalogs';
import type { Catalog } from './pseudo-locale';
import { DEFAULT_LOCALE, intlLocale, isLocale, SUPPORTED_LOCALES, type Locale } from './locales';
import { plainFirstIcu } from './plain-messages';

export type { i18n as I18n, TFunction };

/** What createI18n needs: the locale, and the namespace `t('key')` looks in first. */
export interface I18nOptions {
  locale: Locale;
  /** The namespace of keys without `namespace:` (default `window`). */
  defaultNamespace?: Namespace;
}

/**
 * A new i18next instance in `locale` with the hand-written catalogs and `locale`'s loaded:
 * `instance.t(key, values)` formats a message; `speak(instance, locale)` switches (synchronously
 * in effect); a key missing in a locale falls back to English, a key missing everywhere shows as
 * the key.
 */
export function createI18n({ locale, defaultNamespace = 'window' }: I18nOptions): i18n {
  const instance = i18next.createInstance();
  void instance
    .use(
      plainFirstIcu({
        parseLngForICU: (lng) => intlLocale(isLocale(lng) ? lng : DEFAULT_LOCALE),
      }),
    )
    .init({
      initAsync: false,
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...SUPPORTED_LOCALES],
      resources: ownTables({ ...CATALOGS, [locale]: catalogsOf(locale) }),
      ns: [...NAMESPACES],
      defaultNS: defaultNamespace,
      // React and the terminal escape (or need no escaping); the messages are text, never HTML.
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  return instance;
}

/**
 * The catalogs with each namespace's table copied: i18next writes added messages into the tables
 * it is given, and the catalogs are shared by every instance of the process.
 */
function ownTables(catalogs: Partial<Record<string, Record<string, Catalog>>>): Resource {
  return Object.fromEntries(
    Object.entries(catalogs).map(([lng, tables]) => [
      lng,
      Object.fromEntries(Object.entries(tables ?? {}).map(([ns, table]) => [ns, { ...table }])),
    ]),
  );
}

/** Loads `locale`'s catalogs into `instance` when it has not got them yet (a pseudo-locale's). */
export function loadCatalogs(instance: i18n, locale: Locale): void {
  if (instance.hasResourceBundle(locale, NAMESPACES[0])) return;
  const catalogs = catalogsOf(locale);
  for (const namespace of NAMESPACES) {
    instance.addResourceBundle(locale, namespace, { ...catalogs[namespace] });
  }
}

/** Switches `instance` to `locale`, its catalogs loaded first. */
export function speak(instance: i18n, locale: Locale): void {
  loadCatalogs(instance, locale);
  if (instance.language !== locale) void instance.changeLanguage(locale);
}

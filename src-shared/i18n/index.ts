/**
 * Callbar's internationalisation, shared by the window (renderer), the CLI and core: no Electron,
 * no Node (the caller passes the OS locale and the environment in).
 *
 * - Locales (locales.ts): `en` and `de` written by hand, the pseudo-locales `en-XA` (accented,
 *   +40 %, bracketed) and `ar-XB` (right to left) generated from English; `LANGUAGE_CHOICES` are
 *   the `language` setting's values (`system` or a locale); `textDirection(locale)` is the
 *   document's `dir`; `intlLocale(locale)` is the locale `Intl` formats in.
 * - Which locale (resolve-locale.ts): `resolveLocale({ setting, system, env })`: the setting, else
 *   the OS's languages (`navigator.languages`, Electron's `app.getLocale()`), else `LC_ALL` /
 *   `LC_MESSAGES` / `LANG`, else English, best-matched (`de_AT.UTF-8` → `de`).
 * - Messages (create-i18n.ts, catalogs.ts): `createI18n({ locale, defaultNamespace })` gives an
 *   i18next instance, initialised synchronously with every catalog bundled; `t('key', values)`
 *   formats an ICU message (`{count, plural, one {# call} other {# calls}}`), `t('cli:key')` one of
 *   another namespace; `changeLanguage(locale)` switches at once. Catalogs are JSON, one per
 *   locale and namespace: `locales/<en|de>/<window|cli|shell|landing|errors|policy>.json`.
 * - Formatting (format.ts): `formatNumber`, `formatDateTime`, `formatList`, `formatDuration`
 *   (words), `formatClockDuration` (`1:02:03`), each through `Intl` in a locale.
 *
 * How to add a string: add the key with its English text to `locales/en/<namespace>.json` and its
 * German to `locales/de/<namespace>.json` (the same key; test/unit/shared/i18n/catalogs.test.ts
 * fails when a locale lacks a key or has an extra one, or a message is not valid ICU), then use
 * `t('key')` (the window: `const { t } = useTranslation()` from src-renderer/src/i18n.ts, which
 * loads the window catalog compiled at build time). Never a hand-written
 * pseudo-locale catalog: they are generated.
 */
export * from './locales';
export * from './resolve-locale';
export * from './catalogs';
export * from './create-i18n';
export * from './format';
export { pseudoLocalize, type Catalog } from './pseudo-locale';

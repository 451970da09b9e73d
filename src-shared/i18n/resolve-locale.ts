/**
 * Which locale Callbar speaks: the `language` setting when it names one, else the operating
 * system's language (the renderer's `navigator.languages`, Electron's `app.getLocale()`), else the
 * POSIX environment (`LC_ALL` > `LC_MESSAGES` > `LANG`, for the CLI), else English; each
 * candidate best-matched to SUPPORTED_LOCALES (`de-AT` → `de`, `en_GB.UTF-8` → `en`).
 */
import { DEFAULT_LOCALE, isLocale, SUPPORTED_LOCALES, type Locale } from './locales';

/** Where the locale may come from, most important first; every field is optional. */
export interface LocaleSources {
  /** The `language` setting (`system` or a locale); anything else counts as `system`. */
  setting?: string | undefined;
  /** The OS's preferred languages as BCP 47 tags, best first (`navigator.languages`, `app.getLocale()`). */
  system?: readonly string[] | string | undefined;
  /** The process environment, read for LC_ALL, LC_MESSAGES and LANG (the CLI passes `process.env`). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The supported locale closest to `tag` (exact, then by language), or undefined for none. */
export function matchLocale(tag: string | undefined): Locale | undefined {
  if (!tag) return undefined;
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  if (wanted === '') return undefined;
  const exact = SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  // Only a catalog locale matches by language: `en-XA` is chosen by name, never for `en-US`.
  return SUPPORTED_LOCALES.find((locale) => !locale.includes('-') && locale === language);
}

/**
 * The BCP 47 tag of a POSIX locale variable's value (`de_DE.UTF-8@euro` → `de-DE`); undefined
 * for none, `C` and `POSIX` (which say "no language").
 */
export function posixLocaleTag(value: string | undefined): string | undefined {
  const bare = value?.trim().split(/[.@]/)[0];
  if (!bare || bare === 'C' || bare === 'POSIX') return undefined;
  return bare.replace(/_/g, '-');
}

/** The environment's language: the first set of LC_ALL, LC_MESSAGES and LANG (POSIX order). */
export function localeFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value && value.trim() !== '') return posixLocaleTag(value);
  }
  return undefined;
}

/** The locale to speak, from the sources in their order (see the module comment). */
export function resolveLocale(sources: LocaleSources = {}): Locale {
  const { setting, system, env } = sources;
  if (setting && setting !== 'system' && isLocale(setting)) return setting;
  const systemTags = typeof system === 'string' ? [system] : (system ?? []);
  for (const tag of systemTags) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  const fromEnv = env ? matchLocale(localeFromEnv(env)) : undefined;
  return fromEnv ?? DEFAULT_LOCALE;
}

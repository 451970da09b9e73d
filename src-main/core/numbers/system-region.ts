/**
 * The region of the computer Callbar runs on, the default for reading numbers without a country
 * code (before the person confirms or chooses one): the desktop shell gives the operating
 * system's (Electron's `app.getLocaleCountryCode()`); under Node it is read from the locale
 * variables that POSIX gives the telephone category (LC_ALL, then LC_TELEPHONE, then LANG:
 * `de_DE.UTF-8` → DE), else from the locale the JavaScript runtime was started with. Only a
 * region libphonenumber knows counts; with none, Callbar reads numbers as US ones until the person
 * chooses (the window asks).
 */
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';

/** The region when nothing says one (the person is asked to confirm it). */
export const FALLBACK_REGION: CountryCode = 'US';

/** `code` as a region libphonenumber knows ("de" → DE), or undefined. */
export function knownRegion(code: string | undefined): CountryCode | undefined {
  const upper = code?.trim().toUpperCase();
  return upper && /^[A-Z]{2}$/.test(upper) && isSupportedCountry(upper) ? upper : undefined;
}

/** The region of a POSIX locale name ("de_DE.UTF-8@euro" → DE), or undefined (C, POSIX, "de"). */
export function localeRegion(locale: string | undefined): CountryCode | undefined {
  const match = /^[a-z]{2,3}[_-]([A-Za-z]{2})(?:[.@]|$)/i.exec(locale?.trim() ?? '');
  return knownRegion(match?.[1]);
}

/** The region a BCP 47 tag names ("de-AT" → AT), without guessing one for a bare language. */
function tagRegion(tag: string | undefined): CountryCode | undefined {
  if (!tag) return undefined;
  try {
    return knownRegion(new Intl.Locale(tag).region);
  } catch {
    return undefined;
  }
}

/**
 * The system's region: `shell` (the OS's, from the desktop shell) when it is one, else the
 * locale variables of `env`, else the runtime's own locale; undefined when none names a region.
 */
export function systemRegion(
  env: NodeJS.ProcessEnv = process.env,
  shell?: string,
): CountryCode | undefined {
  const fromShell = knownRegion(shell);
  if (fromShell) return fromShell;
  for (const name of ['LC_ALL', 'LC_TELEPHONE', 'LANG'] as const) {
    const value = env[name];
    if (value) return localeRegion(value);
  }
  return tagRegion(Intl.DateTimeFormat().resolvedOptions().locale);
}

/**
 * A sentence by its catalog key and values, as core says it: worded where it is shown (the CLI's
 * printer, the tray, a notification, the landing page) in the reader's language, while core keeps
 * its stable codes. Keys are `namespace:path` into `src-shared/i18n/locales/<locale>/`; a value
 * may itself be a Said (a phrase worded in the same language, e.g. "the contact id").
 */
import type { Locale } from '../../../src-shared/i18n/locales';
import { regionName } from './region-name';

export interface Said {
  key: string;
  values?: Record<string, SaidValue>;
}

/**
 * A value: text as it is, a number, a phrase worded the same way, a country named in the
 * language, several texts and phrases joined (`{ joined: [a, b], by: '; ' }`), or a value with
 * its first letter capitalised (a sentence made of phrases).
 */
export type SaidValue =
  | string
  | number
  | Said
  | { region: string }
  | { joined: readonly (string | Said)[]; by: string }
  | { capitalised: SaidValue };

/** Words a key with values in one language (an i18next `t` bound to a locale and namespace). */
export interface Translate {
  (key: string, values?: Record<string, string | number>): string;
  /** The locale it words in (`en`, `de`, a pseudo-locale). */
  readonly locale: Locale;
  /** Whether the catalog has the key (optional texts, such as a command's longer help). */
  has(key: string): boolean;
}

/** A sentence for later wording. */
export function said(key: string, values?: Record<string, SaidValue>): Said {
  return values ? { key, values } : { key };
}

/** `text` in `t`'s language; a plain string (a platform's own words, a path) as it is. */
export function sayWith(t: Translate, text: string | Said): string {
  if (typeof text === 'string') return text;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {})) values[name] = wordValue(t, value);
  return t(text.key, values);
}

function wordValue(t: Translate, value: SaidValue): string | number {
  if (typeof value !== 'object') return value;
  if ('region' in value) return regionName(value.region, t.locale);
  if ('joined' in value) return value.joined.map((each) => sayWith(t, each)).join(value.by);
  if ('capitalised' in value) {
    const text = String(wordValue(t, value.capitalised));
    return text.charAt(0).toLocaleUpperCase(t.locale) + text.slice(1);
  }
  return sayWith(t, value);
}

/**
 * Wording outside the window, under plain Node: the CLI's human output, the tray and
 * notifications, the receiver's landing page, and core's English messages. One i18next instance
 * (src-shared/i18n's `createI18n`: every catalog bundled, ready at once) per process, made on
 * first use, and `t` functions bound to a locale and a namespace.
 */
import { createI18n, type I18n } from '../../../src-shared/i18n/create-i18n';
import type { Namespace } from '../../../src-shared/i18n/catalogs';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../../src-shared/i18n/locales';
import { sayWith, type Said, type Translate } from './said';

let instance: I18n | undefined;

/**
 * `namespace`'s words in `locale` (`t('tray.open')`; another namespace's as `errors:…`); a
 * locale Callbar does not speak is English, and so is a key missing in `locale`.
 */
export function translatorFor(locale: Locale | string, namespace: Namespace): Translate {
  const lng: Locale = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const words = (instance ??= createI18n({ locale: DEFAULT_LOCALE, defaultNamespace: 'errors' }));
  const fixed = words.getFixedT(lng, namespace);
  const t = (key: string, values?: Record<string, string | number>) => fixed(key, values ?? {});
  return Object.assign(t, {
    locale: lng,
    has: (key: string) => words.exists(key, { lng, ns: namespace }),
  });
}

let english: Translate | undefined;

/** A sentence in English: what an error's `message` holds (logs, `--json`, the IPC answer). */
export function inEnglish(text: Said): string {
  english ??= translatorFor(DEFAULT_LOCALE, 'errors');
  return sayWith(english, text);
}

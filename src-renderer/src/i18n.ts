/**
 * The window's one i18next instance (src-shared/i18n) and the locale it speaks. Views take their
 * text from it through react-i18next (`const { t } = useTranslation()`, keys of the `window`
 * namespace: src-shared/i18n/locales/<locale>/window.json), so a change of language re-renders
 * every view at once; the document's `lang` and `dir` follow.
 */
import {
  createI18n,
  resolveLocale,
  speak,
  textDirection,
  type LanguageChoice,
  type Locale,
} from '../../src-shared/i18n';

/** The OS's languages as the browser (Electron: the app's locale) reports them. */
const systemLanguages = () => globalThis.navigator?.languages ?? [globalThis.navigator?.language];

/** The window's i18n, in the system's language until the `language` setting is read. */
export const i18n = createI18n({ locale: resolveLocale({ system: systemLanguages() }) });

/** The locale the window speaks now. */
export function currentLocale(): Locale {
  return i18n.language as Locale;
}

/** Speaks the locale `choice` resolves to (`system`: the OS's), at once; sets `lang` and `dir`. */
export function applyLanguage(choice: LanguageChoice): Locale {
  const locale = resolveLocale({ setting: choice, system: systemLanguages() });
  speak(i18n, locale);
  followLocale(locale);
  return locale;
}

function followLocale(locale: Locale) {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  root.lang = locale;
  root.dir = textDirection(locale);
}

followLocale(currentLocale());

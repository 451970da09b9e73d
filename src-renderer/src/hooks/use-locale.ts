import { useTranslation } from '../i18n';
import type { Locale } from '../../../src-shared/i18n';

/**
 * The window's text (`t`, keys of the window catalog) and the locale it speaks, for numbers and
 * dates through Intl; the component re-renders in the new language when it changes.
 */
export function useLocale() {
  const { t, i18n } = useTranslation();
  return { t, locale: i18n.language as Locale };
}

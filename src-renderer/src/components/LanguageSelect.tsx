import type { SelectHTMLAttributes } from 'react';
import { useTranslation } from '../i18n';
import { LANGUAGE_CHOICES, LOCALE_NAMES, type LanguageChoice } from '../../../src-shared/i18n';
import { useAppStore } from '../store/app-store';

/**
 * The language: the system's or one of Callbar's (each named in its own language), saved as the
 * `language` setting and spoken at once.
 */
export function LanguageSelect(props: SelectHTMLAttributes<HTMLSelectElement>) {
  const { t } = useTranslation();
  const language = useAppStore((state) => state.language);
  const setLanguage = useAppStore((state) => state.setLanguage);
  return (
    <select
      {...props}
      value={language}
      onChange={(event) => void setLanguage(event.target.value as LanguageChoice)}
    >
      {LANGUAGE_CHOICES.map((choice) => (
        <option key={choice} value={choice} lang={choice === 'system' ? undefined : choice}>
          {choice === 'system' ? t('language.system') : LOCALE_NAMES[choice]}
        </option>
      ))}
    </select>
  );
}

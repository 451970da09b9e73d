import type { SelectHTMLAttributes } from 'react';
import { useTranslation } from '../i18n';
import {
  LANGUAGE_CHOICES,
  LOCALE_NAMES,
  PSEUDO_LOCALES,
  type LanguageChoice,
} from '../../../src-shared/i18n';
import { useAppStore } from '../store/app-store';

/**
 * The languages offered: the system's and Callbar's own; the test languages (the pseudo-locales,
 * for finding clipped text and layout that does not mirror) only in a development build, and
 * otherwise only while one is the setting (a developer or a policy chose it), so it shows.
 */
export function offeredLanguages(current: LanguageChoice, development: boolean): LanguageChoice[] {
  const pseudo: readonly string[] = PSEUDO_LOCALES;
  return LANGUAGE_CHOICES.filter(
    (choice) => development || !pseudo.includes(choice) || choice === current,
  );
}

/**
 * The language: the system's or one of Callbar's (each named in its own language), saved as the
 * `language` setting and spoken at once.
 */
export function LanguageSelect({
  onChosen,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  /** The person chose a language here (not another program or a policy). */
  onChosen?: () => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((state) => state.language);
  const setLanguage = useAppStore((state) => state.setLanguage);
  return (
    <select
      {...props}
      value={language}
      onChange={(event) => {
        onChosen?.();
        void setLanguage(event.target.value as LanguageChoice);
      }}
    >
      {offeredLanguages(language, import.meta.env.DEV).map((choice) => (
        <option key={choice} value={choice} lang={choice === 'system' ? undefined : choice}>
          {choice === 'system' ? t('language.system') : LOCALE_NAMES[choice]}
        </option>
      ))}
    </select>
  );
}

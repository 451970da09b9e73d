import type { SelectHTMLAttributes } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import type { ThemeChoice } from '../store/ui-slice';

/** The theme: the system's, light or dark (kept in this window's storage), applied at once. */
export function ThemeSelect({ onChange, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  const { t } = useTranslation();
  const theme = useAppStore((state) => state.theme);
  const setTheme = useAppStore((state) => state.setTheme);
  return (
    <select
      {...props}
      value={theme}
      onChange={(event) => {
        setTheme(event.target.value as ThemeChoice);
        onChange?.(event);
      }}
    >
      <option value="system">{t('theme.system')}</option>
      <option value="light">{t('theme.light')}</option>
      <option value="dark">{t('theme.dark')}</option>
    </select>
  );
}

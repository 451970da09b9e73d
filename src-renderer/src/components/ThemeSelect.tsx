import type { SelectHTMLAttributes } from 'react';
import { useAppStore } from '../store/app-store';
import type { ThemeChoice } from '../store/ui-slice';

/** The theme: the system's, light or dark (kept in this window's storage). */
export function ThemeSelect(props: SelectHTMLAttributes<HTMLSelectElement>) {
  const theme = useAppStore((state) => state.theme);
  const setTheme = useAppStore((state) => state.setTheme);
  return (
    <select
      {...props}
      value={theme}
      onChange={(event) => setTheme(event.target.value as ThemeChoice)}
    >
      <option value="system">Same as the system</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}

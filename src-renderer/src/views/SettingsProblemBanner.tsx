import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';

/**
 * Over every view while a change to the settings file (a hand edit, another program) is not
 * applied: core's sentence says that Callbar runs with the settings it had, which setting is
 * wrong and why. Gone once the file is fixed.
 */
export function SettingsProblemBanner() {
  const { t } = useTranslation();
  const problem = useAppStore((state) => state.settingsProblem);
  if (!problem) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="settings-problem">
      <p>
        <strong>{t('settingsProblem.title')}</strong> {problem}
      </p>
    </div>
  );
}

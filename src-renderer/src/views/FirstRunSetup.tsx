import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import type { EditableSettings, SettingsView } from '../../../src-shared/contract';
import { SettingField } from '../components/SettingField';
import { ShortcutRecorder } from '../components/ShortcutRecorder';
import { useAppStore } from '../store/app-store';
import { CountrySelect } from './CountrySelect';

/**
 * What a first run asks before connecting: the country (how numbers without a country code are
 * read; the `region` setting, which starts as the system's region) and the global shortcut, each
 * saved as it is chosen; then `children` (the Connect button: in view in the window's 420×640, in
 * German too), and what comes next, step by step.
 * All of it appears at once, when the settings have come (or could not be read): the fields
 * arriving above a button already shown moved it under the pointer, and a press whose button
 * moved between mouse down and up is no click at all.
 */
export function FirstRunSetup({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const loadSettings = useAppStore((state) => state.loadSettings);
  // undefined until the settings' answer; null when they could not be read (no fields then).
  const [view, setView] = useState<SettingsView | null>();
  const [errors, setErrors] = useState<Partial<Record<keyof EditableSettings, string>>>({});
  const [saved, setSaved] = useState<keyof EditableSettings | undefined>();
  const [shortcutProblem, setShortcutProblem] = useState<string | undefined>();
  useEffect(() => {
    void window.callbar.settings.get().then((result) => {
      setView(result.ok ? result.value : null);
    });
  }, []);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(undefined), 3000);
    return () => clearTimeout(timer);
  }, [saved]);
  const save = async (patch: Partial<EditableSettings>) => {
    const name = Object.keys(patch)[0] as keyof EditableSettings;
    if (view) setView({ ...view, settings: { ...view.settings, ...patch } });
    const result = await window.callbar.settings.save(patch);
    if (!result.ok) return setErrors({ [name]: result.error.message });
    setView(result.value);
    setErrors({});
    setSaved(name);
    // The window's own copy (the shortcut the hints name).
    void loadSettings();
  };
  const status = (name: keyof EditableSettings) =>
    saved === name ? t('settings.savedShort') : undefined;
  if (view === undefined) return null;
  return (
    <div className="first-run-setup" data-testid="first-run-setup">
      {view ? (
        <div className="first-run-fields">
          <SettingField
            label={t('settings.label.region')}
            hint={t('connect.countryHint')}
            error={errors.region}
            locked={view.locked.region}
            status={status('region')}
          >
            <CountrySelect
              countries={view.countries}
              value={view.settings.region}
              onChange={(region) => void save({ region })}
            />
          </SettingField>
          <SettingField
            label={t('settings.label.dial_shortcut')}
            hint={t('settings.hint.dial_shortcut')}
            error={shortcutProblem ?? errors.dial_shortcut}
            locked={view.locked.dial_shortcut}
            status={status('dial_shortcut')}
          >
            <ShortcutRecorder
              name={t('settings.label.dial_shortcut')}
              value={view.settings.dial_shortcut}
              onChange={(dial_shortcut) => void save({ dial_shortcut })}
              onProblem={setShortcutProblem}
            />
          </SettingField>
        </div>
      ) : null}
      <p className="visually-hidden" role="status">
        {saved ? t('settings.savedWhat', { setting: t(`settings.label.${saved}`) }) : ''}
      </p>
      {children}
      <h2 id="next-steps-title">{t('connect.nextTitle')}</h2>
      <ol className="next-steps" aria-labelledby="next-steps-title">
        <li>{t('connect.next1')}</li>
        <li>{t('connect.next2')}</li>
        <li>{t('connect.next3')}</li>
      </ol>
    </div>
  );
}

import { useEffect, useRef, useState, type ReactNode } from 'react';
import type {
  DestinationClass,
  EditableSettings,
  SettingsView as Saved,
} from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { FormActions } from '../components/FormActions';
import { CountryPicker, countriesByName, countryLabel } from '../components/CountryPicker';
import { formatList } from '../../../src-shared/i18n';
import { useLocale } from '../hooks/use-locale';
import { SettingField } from '../components/SettingField';
import { ShortcutRecorder } from '../components/ShortcutRecorder';
import { LanguageSelect } from '../components/LanguageSelect';
import { ThemeSelect } from '../components/ThemeSelect';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { WebhookRegistration } from './WebhookRegistration';

type Draft = {
  [Name in keyof EditableSettings]: EditableSettings[Name] extends number
    ? string
    : EditableSettings[Name];
};

/** Every setting the view shows (its label: the catalog's `settings.label.<name>`). */
const SETTING_NAMES: (keyof EditableSettings)[] = [
  'region',
  'receiver_port',
  'handle_links',
  'confirm_web_links',
  'open_at_login',
  'start_minimized',
  'dial_shortcut',
  'sync_interval_minutes',
  'dial_allowed_classes',
  'dial_allowed_countries',
  'relay_url',
  'language',
];

/**
 * The kinds of numbers a person may keep Callbar from dialling (emergency numbers always go);
 * their words: the catalog's `settings.class.<kind>`.
 */
const CLASSES: DestinationClass[] = [
  'extension',
  'national',
  'international',
  'toll-free',
  'shared-cost',
  'premium-rate',
  'service-code',
  'unknown',
];

/** Where each setting is shown; a refused one in Advanced opens it. */
const ADVANCED: (keyof EditableSettings)[] = [
  'relay_url',
  'sync_interval_minutes',
  'receiver_port',
];

function draftOf(settings: EditableSettings): Draft {
  return {
    ...settings,
    receiver_port: String(settings.receiver_port),
    sync_interval_minutes: String(settings.sync_interval_minutes),
  };
}

/** The settings typed as numbers: digits only (core says which range). */
const NUMBERS = ['sync_interval_minutes', 'receiver_port'] as const;
const digitsOf = (text: string) => text.replace(/\D/g, '');

/** A titled group of settings. */
function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

/**
 * Callbar's everyday settings in groups (Calling, Links, Startup, Appearance; Advanced folded),
 * saved at once into the settings file (all or nothing); each refused value is said under its
 * own field.
 */
export function SettingsView() {
  const { t, locale } = useLocale();
  const label = (name: keyof EditableSettings) => t(`settings.label.${name}`);
  const back = useAppStore((state) => state.show);
  const languageError = useAppStore((state) => state.languageError);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const form = useRef<HTMLFormElement>(null);
  const [saved, setSaved] = useState<Saved | undefined>();
  const [draft, setDraft] = useState<Draft | undefined>();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [shortcutProblem, setShortcutProblem] = useState<string | undefined>();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const [status, setStatus] = useState<string | undefined>();
  useEffect(() => {
    void window.callbar.settings.get().then((result) => {
      if (result.ok) {
        setSaved(result.value);
        setDraft(draftOf(result.value.settings));
      } else setErrors({ fields: {}, form: result.error.message });
    });
  }, []);
  const change = <Name extends keyof Draft>(name: Name, value: Draft[Name]) => {
    setDraft((current) => (current ? { ...current, [name]: value } : current));
    setStatus(undefined);
  };
  /** Shows `refused` under the fields (opening Advanced for one there) and focuses the first. */
  const refuse = (refused: FormErrors) => {
    setErrors(refused);
    setStatus(undefined);
    if (ADVANCED.some((name) => refused.fields[name])) setAdvancedOpen(true);
    setRefusals((count) => count + 1);
  };
  // After a refusal is shown (and Advanced opened), the first refused field takes the focus.
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const save = async () => {
    if (!draft) return;
    const empty = NUMBERS.filter((name) => draft[name] === '');
    if (empty.length > 0) {
      return refuse({
        fields: Object.fromEntries(empty.map((name) => [name, t('settings.enterNumber')])),
        form: undefined,
      });
    }
    const patch: Partial<EditableSettings> = {
      ...draft,
      receiver_port: Number(draft.receiver_port),
      sync_interval_minutes: Number(draft.sync_interval_minutes),
    };
    // The language select saves its setting itself, at once.
    delete patch.language;
    // What the organisation locked is not the user's to save.
    for (const name of Object.keys(saved?.locked ?? {})) delete patch[name as keyof typeof patch];
    const result = await window.callbar.settings.save(patch);
    if (result.ok) {
      setSaved(result.value);
      setDraft(draftOf(result.value.settings));
      setErrors(NO_ERRORS);
      setStatus(t('settings.saved'));
      return;
    }
    refuse(formErrors(result.error, SETTING_NAMES));
  };
  const portChanged =
    saved && draft && draft.receiver_port !== String(saved.settings.receiver_port);
  const named = (names: readonly string[]) =>
    formatList(
      locale,
      names.map((name) =>
        SETTING_NAMES.includes(name as keyof EditableSettings)
          ? label(name as keyof EditableSettings)
          : name,
      ),
    );
  const allowed = new Set(draft?.dial_allowed_classes);
  return (
    <section className="panel settings-view" aria-labelledby="settings-title">
      <div className="manage-head">
        <h1 id="settings-title" ref={heading} tabIndex={-1}>
          {t('menu.settings')}
        </h1>
        <button type="button" onClick={() => back('main')}>
          {t('common.backToSearch')}
        </button>
      </div>
      {draft && saved ? (
        <form
          ref={form}
          className="settings-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Group title={t('settings.group.calling')}>
            <SettingField
              label={label('region')}
              error={errors.fields.region}
              hint={t('settings.hint.region')}
              locked={saved.locked.region}
            >
              <select
                className="setting-medium"
                value={draft.region}
                onChange={(event) => change('region', event.target.value)}
              >
                {countriesByName(saved.countries, locale).map((code) => (
                  <option key={code} value={code}>
                    {countryLabel(code, locale)}
                  </option>
                ))}
              </select>
            </SettingField>
            <SettingField
              label={label('dial_shortcut')}
              error={shortcutProblem ?? errors.fields.dial_shortcut}
              hint={t('settings.hint.dial_shortcut')}
              locked={saved.locked.dial_shortcut}
            >
              <ShortcutRecorder
                name={label('dial_shortcut')}
                value={draft.dial_shortcut}
                onChange={(accelerator) => change('dial_shortcut', accelerator)}
                onProblem={setShortcutProblem}
              />
            </SettingField>
            <fieldset
              className="settings-choices"
              data-testid="allowed-classes"
              disabled={'dial_allowed_classes' in saved.locked}
            >
              <legend>{label('dial_allowed_classes')}</legend>
              {'dial_allowed_classes' in saved.locked ? (
                <p className="setting-hint locked">{t('common.locked')}</p>
              ) : null}
              <div className="settings-choice-grid">
                {CLASSES.map((kind) => (
                  <SettingField key={kind} label={t(`settings.class.${kind}`)} check>
                    <input
                      type="checkbox"
                      checked={allowed.has(kind)}
                      onChange={(event) =>
                        change(
                          'dial_allowed_classes',
                          event.target.checked
                            ? [...draft.dial_allowed_classes, kind]
                            : draft.dial_allowed_classes.filter((other) => other !== kind),
                        )
                      }
                    />
                  </SettingField>
                ))}
              </div>
              <p className="setting-hint">{t('settings.hint.emergency')}</p>
              {errors.fields.dial_allowed_classes ? (
                <p className="setting-error">{errors.fields.dial_allowed_classes}</p>
              ) : null}
            </fieldset>
            <fieldset
              className="settings-plain"
              disabled={'dial_allowed_countries' in saved.locked}
            >
              {'dial_allowed_countries' in saved.locked ? (
                <p className="setting-hint locked">{t('common.locked')}</p>
              ) : null}
              <CountryPicker
                label={label('dial_allowed_countries')}
                countries={saved.countries}
                value={draft.dial_allowed_countries}
                onChange={(codes) => change('dial_allowed_countries', codes)}
                error={errors.fields.dial_allowed_countries}
              />
            </fieldset>
          </Group>
          <Group title={t('settings.group.links')}>
            <SettingField
              label={label('handle_links')}
              error={errors.fields.handle_links}
              locked={saved.locked.handle_links}
            >
              <select
                className="setting-wide"
                value={draft.handle_links}
                onChange={(event) =>
                  change('handle_links', event.target.value as Draft['handle_links'])
                }
              >
                <option value="ask">{t('settings.handleLinks.ask')}</option>
                <option value="yes">{t('settings.handleLinks.yes')}</option>
                <option value="no">{t('settings.handleLinks.no')}</option>
              </select>
            </SettingField>
            <SettingField
              label={label('confirm_web_links')}
              error={errors.fields.confirm_web_links}
              hint={t('settings.hint.confirm_web_links')}
              check
              locked={saved.locked.confirm_web_links}
            >
              <input
                type="checkbox"
                checked={!draft.confirm_web_links}
                onChange={(event) => change('confirm_web_links', !event.target.checked)}
              />
            </SettingField>
          </Group>
          <Group title={t('settings.group.startup')}>
            <SettingField
              label={label('open_at_login')}
              error={errors.fields.open_at_login}
              locked={saved.locked.open_at_login}
              check
            >
              <input
                type="checkbox"
                checked={draft.open_at_login}
                onChange={(event) => change('open_at_login', event.target.checked)}
              />
            </SettingField>
            <SettingField
              label={label('start_minimized')}
              error={errors.fields.start_minimized}
              check
              locked={saved.locked.start_minimized}
            >
              <input
                type="checkbox"
                checked={draft.start_minimized}
                onChange={(event) => change('start_minimized', event.target.checked)}
              />
            </SettingField>
          </Group>
          <Group title={t('settings.group.appearance')}>
            <SettingField label={t('menu.theme.title')} hint={t('settings.hint.atOnce')}>
              <ThemeSelect className="setting-medium" />
            </SettingField>
            <SettingField
              label={label('language')}
              hint={t('settings.hint.atOnce')}
              error={languageError?.message}
              locked={saved.locked.language}
            >
              <LanguageSelect className="setting-medium" data-testid="language" />
            </SettingField>
          </Group>
          <details
            className="settings-group settings-advanced"
            open={advancedOpen}
            onToggle={(event) => setAdvancedOpen(event.currentTarget.open)}
          >
            <summary>{t('settings.group.advanced')}</summary>
            <SettingField
              label={label('relay_url')}
              error={errors.fields.relay_url}
              hint={t('settings.hint.relay_url')}
              locked={saved.locked.relay_url}
            >
              <input
                className="setting-wide"
                value={draft.relay_url}
                onChange={(event) => change('relay_url', event.target.value)}
              />
            </SettingField>
            <SettingField
              label={label('sync_interval_minutes')}
              error={errors.fields.sync_interval_minutes}
              hint={t('settings.hint.sync_interval_minutes', { min: 1, max: 1440 })}
              locked={saved.locked.sync_interval_minutes}
            >
              <input
                className="setting-narrow"
                inputMode="numeric"
                value={draft.sync_interval_minutes}
                onChange={(event) => change('sync_interval_minutes', digitsOf(event.target.value))}
              />
            </SettingField>
            <SettingField
              label={label('receiver_port')}
              error={errors.fields.receiver_port}
              hint={t('settings.hint.receiver_port', { min: 1024, max: 65535 })}
              locked={saved.locked.receiver_port}
            >
              <input
                className="setting-narrow"
                inputMode="numeric"
                value={draft.receiver_port}
                onChange={(event) => change('receiver_port', digitsOf(event.target.value))}
              />
            </SettingField>
            {portChanged ? (
              <p className="warning" data-testid="port-warning">
                {t('settings.portWarning', { origin: `http://127.0.0.1:${draft.receiver_port}` })}
              </p>
            ) : (
              <>
                <p className="setting-hint">
                  {t('settings.registered', {
                    activation: saved.receiver_urls.activation,
                    deactivation: saved.receiver_urls.deactivation,
                  })}
                </p>
                <WebhookRegistration />
              </>
            )}
          </details>
          {saved.policy_problems.length > 0 ? (
            <p className="warning" data-testid="policy-problems">
              {t('settings.policyProblems', { problems: saved.policy_problems.join(' ') })}
            </p>
          ) : null}
          {saved.overridden.length > 0 ? (
            <p className="setting-hint">
              {t('settings.overridden', { settings: named(saved.overridden) })}
            </p>
          ) : null}
          {saved.restart_needed.length > 0 ? (
            <p className="setting-hint" data-testid="restart-needed">
              {t('settings.restartNeeded', { settings: named(saved.restart_needed) })}
            </p>
          ) : null}
          <FormActions error={errors.form} submit={t('settings.save')}>
            <span role="status">{status}</span>
          </FormActions>
        </form>
      ) : errors.form ? (
        <p role="alert" className="error">
          {errors.form}
        </p>
      ) : (
        <p aria-busy="true">{t('common.loading')}</p>
      )}
    </section>
  );
}

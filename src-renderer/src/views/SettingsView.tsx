import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type {
  DestinationClass,
  EditableSettings,
  SettingsView as Saved,
} from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { CountryPicker } from '../components/CountryPicker';
import { formatList } from '../../../src-shared/i18n';
import { useLocale } from '../hooks/use-locale';
import { SettingField } from '../components/SettingField';
import { ShortcutRecorder } from '../components/ShortcutRecorder';
import { LanguageSelect } from '../components/LanguageSelect';
import { ThemeSelect } from '../components/ThemeSelect';
import { ScreenHeader } from '../components/ScreenHeader';
import { useHomeName } from '../hooks/use-home-name';
import { formErrors, type FormErrors } from './form-errors';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { CountrySelect } from './CountrySelect';
import { WebhookRegistration } from './WebhookRegistration';
import { CoreAlert, CoreText } from '../components/CoreText';

type Name = keyof EditableSettings;
type Draft = {
  [Key in Name]: EditableSettings[Key] extends number ? string : EditableSettings[Key];
};

/** Every setting the view shows (its label: the catalog's `settings.label.<name>`). */
const SETTING_NAMES: Name[] = [
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
  'crm_links',
  'crm_open_on_connect',
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
const ADVANCED: Name[] = ['relay_url', 'sync_interval_minutes', 'receiver_port'];
/** The settings typed as numbers: digits only (core says which range). */
const NUMBERS = ['sync_interval_minutes', 'receiver_port'] as const;
const digitsOf = (text: string) => text.replace(/\D/g, '');

function draftOf(settings: EditableSettings): Draft {
  return {
    ...settings,
    receiver_port: String(settings.receiver_port),
    sync_interval_minutes: String(settings.sync_interval_minutes),
  };
}

/**
 * The draft once the saved settings changed from `before` to `after` elsewhere (another process,
 * a hand edit, a policy): each setting shows its new value, unless the person is typing another.
 */
function followed(current: Draft, before: Draft, after: Draft): Draft {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return Object.fromEntries(
    (Object.keys(after) as Name[]).map((name) => [
      name,
      same(current[name], before[name]) ? after[name] : current[name],
    ]),
  ) as Draft;
}

/** A titled part of the page: a heading and its settings, no box around them. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="settings-section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

/**
 * Settings as one flat page that saves each change as it is made (a choice at once, typed text
 * when the field is left or Enter is pressed), with a quiet "Saved" beside it; a refused value
 * is said under its field and kept as typed. Theme and language apply at once as well. What only
 * an administrator sets up (the relay, refresh interval, receiver port, environment variables)
 * is under Advanced.
 */
export function SettingsView() {
  const { t, locale } = useLocale();
  const label = (name: Name) => t(`settings.label.${name}`);
  const back = useAppStore((state) => state.show);
  const home = useHomeName();
  const language = useAppStore((state) => state.language);
  const languageError = useAppStore((state) => state.languageError);
  // The store's, not this view's read of the settings: read again in a new language.
  const policyProblems = useAppStore((state) => state.policyProblems);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [saved, setSaved] = useState<Saved | undefined>();
  const [draft, setDraft] = useState<Draft | undefined>();
  const [errors, setErrors] = useState<FormErrors>({ fields: {}, form: undefined });
  const [shortcutProblem, setShortcutProblem] = useState<string | undefined>();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [lastSaved, setLastSaved] = useState<{ name: string; seq: number } | undefined>();
  const markSaved = (name: string) =>
    setLastSaved((before) => ({ name, seq: (before?.seq ?? 0) + 1 }));
  const [firstPort, setFirstPort] = useState<number | undefined>();
  useEffect(() => {
    void window.callbar.settings.get().then((result) => {
      if (!result.ok) return setErrors({ fields: {}, form: result.error.message });
      setSaved(result.value);
      setDraft(draftOf(result.value.settings));
      setFirstPort(result.value.settings.receiver_port);
    });
  }, []);
  // Read again whenever the settings change (here, in another process, by hand, by a policy).
  const settingsRead = useAppStore((state) => state.settingsRead);
  const shownRead = useRef(settingsRead);
  useEffect(() => {
    if (shownRead.current === settingsRead || !saved) return;
    shownRead.current = settingsRead;
    const before = saved;
    void window.callbar.settings.get().then((result) => {
      if (!result.ok) return;
      setSaved(result.value);
      setDraft((current) =>
        current
          ? followed(current, draftOf(before.settings), draftOf(result.value.settings))
          : current,
      );
    });
  }, [settingsRead, saved]);
  // The language saves itself (LanguageSelect): chosen here, it says Saved like the rest (a
  // language another program or a policy set is no save of the person's).
  const shownLanguage = useRef(language);
  const languageChosen = useRef(false);
  useEffect(() => {
    if (shownLanguage.current === language) return;
    shownLanguage.current = language;
    if (!languageChosen.current) return;
    languageChosen.current = false;
    setLastSaved((before) => ({ name: 'language', seq: (before?.seq ?? 0) + 1 }));
  }, [language]);
  // "Saved" stays a few seconds, then goes quietly.
  useEffect(() => {
    if (!lastSaved) return;
    const timer = setTimeout(() => setLastSaved(undefined), 3000);
    return () => clearTimeout(timer);
  }, [lastSaved]);

  /** Saves `patch` now: "Saved" beside it, or its refusal under its field (and the focus there). */
  const commit = async (patch: Partial<EditableSettings>) => {
    const names = Object.keys(patch) as Name[];
    if (!saved || names.some((name) => saved.locked[name] !== undefined)) return;
    const result = await window.callbar.settings.save(patch);
    if (result.ok) {
      setSaved(result.value);
      // The saved values replace what was typed for them; what is typed elsewhere stays.
      setDraft((current) => {
        const fresh = draftOf(result.value.settings);
        return current
          ? { ...current, ...Object.fromEntries(names.map((name) => [name, fresh[name]])) }
          : fresh;
      });
      setErrors((current) => ({
        fields: Object.fromEntries(
          Object.entries(current.fields).filter(([name]) => !names.includes(name as Name)),
        ),
        form: undefined,
      }));
      markSaved(names[0]!);
      return;
    }
    const refused = formErrors(result.error, SETTING_NAMES);
    setErrors((current) => ({
      fields: { ...current.fields, ...refused.fields },
      form: refused.form,
    }));
    setLastSaved(undefined);
    // Said under its field, marked invalid; the focus stays where the person took it.
    if (ADVANCED.some((name) => refused.fields[name])) setAdvancedOpen(true);
  };
  /** A choice: shown and saved at once. */
  const choose = <Key extends Name>(name: Key, value: EditableSettings[Key]) => {
    setDraft((current) => (current ? { ...current, [name]: value } : current));
    void commit({ [name]: value });
  };
  /** Typed text: shown as typed, saved when the field is left or Enter is pressed. */
  const type = <Key extends Name>(name: Key, value: Draft[Key]) =>
    setDraft((current) => (current ? { ...current, [name]: value } : current));
  const commitTyped = (name: Name) => {
    if (!draft || !saved) return;
    if ((NUMBERS as readonly string[]).includes(name)) {
      const text = draft[name as (typeof NUMBERS)[number]];
      if (text === '') {
        setErrors((current) => ({
          ...current,
          fields: { ...current.fields, [name]: t('settings.enterNumber') },
        }));
        return;
      }
      if (Number(text) === saved.settings[name]) return;
      return void commit({ [name]: Number(text) });
    }
    if (name === 'crm_links') {
      const lines = draft.crm_links.map((line) => line.trim()).filter((line) => line !== '');
      if (lines.join('\n') === saved.settings.crm_links.join('\n')) return;
      return void commit({ crm_links: lines });
    }
    if (draft[name] === saved.settings[name]) return;
    void commit({ [name]: draft[name] });
  };
  /** Enter in a typed field saves it, as leaving it does. */
  const enterSaves = (event: KeyboardEvent<HTMLInputElement>, name: Name) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    commitTyped(name);
  };
  const savedNow = (name: Name | 'theme') =>
    lastSaved?.name === name ? t('settings.savedShort') : undefined;
  const named = (names: readonly string[]) =>
    formatList(
      locale,
      names.map((name) => (SETTING_NAMES.includes(name as Name) ? label(name as Name) : name)),
    );
  const allowed = new Set(draft?.dial_allowed_classes);
  const portChanged =
    saved && firstPort !== undefined && saved.settings.receiver_port !== firstPort;
  return (
    <section className="screen settings-view" aria-labelledby="settings-title">
      <ScreenHeader
        titleId="settings-title"
        title={t('menu.settings')}
        headingRef={heading}
        back={{ to: home, onClick: () => back('main') }}
      />
      {/* Said once to screen readers; the visible "Saved" is beside the field. */}
      <p className="visually-hidden" role="status" data-testid="settings-status">
        {lastSaved
          ? t('settings.savedWhat', {
              setting:
                lastSaved.name === 'theme' ? t('menu.theme.title') : label(lastSaved.name as Name),
            })
          : ''}
      </p>
      {draft && saved ? (
        <form className="settings-form" noValidate onSubmit={(event) => event.preventDefault()}>
          {saved.restart_needed.length > 0 ? (
            <p className="quiet-notice" data-testid="restart-needed">
              {t('settings.restartNeeded', { settings: named(saved.restart_needed) })}
            </p>
          ) : null}
          {policyProblems.length > 0 ? (
            <p className="warning" data-testid="policy-problems">
              {t('settings.policyProblems', { problems: policyProblems.join(' ') })}
            </p>
          ) : null}
          <Section title={t('settings.group.calling')}>
            <SettingField
              label={label('region')}
              error={errors.fields.region}
              hint={t('settings.hint.region')}
              locked={saved.locked.region}
              status={savedNow('region')}
            >
              <CountrySelect
                countries={saved.countries}
                value={draft.region}
                onChange={(code) => choose('region', code)}
              />
            </SettingField>
            <SettingField
              label={label('dial_shortcut')}
              error={shortcutProblem ?? errors.fields.dial_shortcut}
              hint={t('settings.hint.dial_shortcut')}
              locked={saved.locked.dial_shortcut}
              status={savedNow('dial_shortcut')}
            >
              <ShortcutRecorder
                name={label('dial_shortcut')}
                value={draft.dial_shortcut}
                onChange={(accelerator) => choose('dial_shortcut', accelerator)}
                onProblem={setShortcutProblem}
              />
            </SettingField>
            <fieldset
              className="settings-choices"
              data-testid="allowed-classes"
              disabled={'dial_allowed_classes' in saved.locked}
            >
              <legend>
                {label('dial_allowed_classes')}
                {savedNow('dial_allowed_classes') ? (
                  <span className="field-status" aria-hidden="true">
                    {savedNow('dial_allowed_classes')}
                  </span>
                ) : null}
              </legend>
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
                        choose(
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
                <p className="setting-error">
                  <CoreText>{errors.fields.dial_allowed_classes}</CoreText>
                </p>
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
                onChange={(codes) => choose('dial_allowed_countries', codes)}
                error={errors.fields.dial_allowed_countries}
                status={savedNow('dial_allowed_countries')}
              />
            </fieldset>
          </Section>
          <Section title={t('settings.group.links')}>
            <SettingField
              label={label('handle_links')}
              error={errors.fields.handle_links}
              locked={saved.locked.handle_links}
              status={savedNow('handle_links')}
            >
              <select
                className="setting-wide"
                value={draft.handle_links}
                onChange={(event) =>
                  choose('handle_links', event.target.value as Draft['handle_links'])
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
              status={savedNow('confirm_web_links')}
            >
              <input
                type="checkbox"
                checked={!draft.confirm_web_links}
                onChange={(event) => choose('confirm_web_links', !event.target.checked)}
              />
            </SettingField>
          </Section>
          <Section title={t('settings.group.crm')}>
            <SettingField
              label={label('crm_links')}
              error={errors.fields.crm_links}
              hint={t('settings.hint.crm_links')}
              locked={saved.locked.crm_links}
              status={savedNow('crm_links')}
            >
              <textarea
                className="setting-wide"
                rows={3}
                spellCheck={false}
                data-testid="crm-links"
                value={draft.crm_links.join('\n')}
                onChange={(event) => type('crm_links', event.target.value.split('\n'))}
                onBlur={() => commitTyped('crm_links')}
              />
            </SettingField>
            <SettingField
              label={label('crm_open_on_connect')}
              error={errors.fields.crm_open_on_connect}
              hint={t('settings.hint.crm_open_on_connect')}
              check
              locked={saved.locked.crm_open_on_connect}
              status={savedNow('crm_open_on_connect')}
            >
              <input
                type="checkbox"
                checked={draft.crm_open_on_connect}
                onChange={(event) => choose('crm_open_on_connect', event.target.checked)}
              />
            </SettingField>
          </Section>
          <Section title={t('settings.group.startup')}>
            <SettingField
              label={label('open_at_login')}
              error={errors.fields.open_at_login}
              locked={saved.locked.open_at_login}
              check
              status={savedNow('open_at_login')}
            >
              <input
                type="checkbox"
                checked={draft.open_at_login}
                onChange={(event) => choose('open_at_login', event.target.checked)}
              />
            </SettingField>
            <SettingField
              label={label('start_minimized')}
              error={errors.fields.start_minimized}
              check
              locked={saved.locked.start_minimized}
              status={savedNow('start_minimized')}
            >
              <input
                type="checkbox"
                checked={draft.start_minimized}
                onChange={(event) => choose('start_minimized', event.target.checked)}
              />
            </SettingField>
          </Section>
          <Section title={t('settings.group.appearance')}>
            <SettingField label={t('menu.theme.title')} status={savedNow('theme')}>
              <ThemeSelect className="setting-wide" onChange={() => markSaved('theme')} />
            </SettingField>
            <SettingField
              label={label('language')}
              error={languageError?.message}
              locked={saved.locked.language}
              status={savedNow('language')}
            >
              <LanguageSelect
                className="setting-wide"
                data-testid="language"
                onChosen={() => (languageChosen.current = true)}
              />
            </SettingField>
          </Section>
          <details
            className="settings-section settings-advanced"
            open={advancedOpen}
            onToggle={(event) => setAdvancedOpen(event.currentTarget.open)}
          >
            <summary>{t('settings.group.advanced')}</summary>
            {/* Its own column: a <details> lays out what it holds as a block, not as a flex. */}
            <div className="settings-section-body">
              {saved.overridden.length > 0 ? (
                <p className="setting-hint" data-testid="overridden">
                  {t('settings.overridden', { settings: named(saved.overridden) })}
                </p>
              ) : null}
              <SettingField
                label={label('relay_url')}
                error={errors.fields.relay_url}
                hint={t('settings.hint.relay_url')}
                locked={saved.locked.relay_url}
                status={savedNow('relay_url')}
              >
                <input
                  className="setting-wide"
                  value={draft.relay_url}
                  onChange={(event) => type('relay_url', event.target.value)}
                  onBlur={() => commitTyped('relay_url')}
                  onKeyDown={(event) => enterSaves(event, 'relay_url')}
                />
              </SettingField>
              <SettingField
                label={label('sync_interval_minutes')}
                error={errors.fields.sync_interval_minutes}
                hint={t('settings.hint.sync_interval_minutes', { min: 1, max: 1440 })}
                locked={saved.locked.sync_interval_minutes}
                status={savedNow('sync_interval_minutes')}
              >
                <input
                  className="setting-narrow"
                  inputMode="numeric"
                  value={draft.sync_interval_minutes}
                  onChange={(event) => type('sync_interval_minutes', digitsOf(event.target.value))}
                  onBlur={() => commitTyped('sync_interval_minutes')}
                  onKeyDown={(event) => enterSaves(event, 'sync_interval_minutes')}
                />
              </SettingField>
              <SettingField
                label={label('receiver_port')}
                error={errors.fields.receiver_port}
                hint={t('settings.hint.receiver_port', { min: 1024, max: 65535 })}
                locked={saved.locked.receiver_port}
                status={savedNow('receiver_port')}
              >
                <input
                  className="setting-narrow"
                  inputMode="numeric"
                  value={draft.receiver_port}
                  onChange={(event) => type('receiver_port', digitsOf(event.target.value))}
                  onBlur={() => commitTyped('receiver_port')}
                  onKeyDown={(event) => enterSaves(event, 'receiver_port')}
                />
              </SettingField>
              {portChanged ? (
                <p className="warning" data-testid="port-warning">
                  {t('settings.portWarning', {
                    origin: `http://127.0.0.1:${saved.settings.receiver_port}`,
                  })}
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
            </div>
          </details>
          <CoreAlert text={errors.form} />
        </form>
      ) : errors.form ? (
        <p role="alert" className="error">
          <CoreText>{errors.form}</CoreText>
        </p>
      ) : (
        <p aria-busy="true">{t('common.loading')}</p>
      )}
    </section>
  );
}

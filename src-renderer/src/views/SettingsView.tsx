import { useEffect, useState } from 'react';
import type { EditableSettings, SettingsView as Saved } from '../../../src-preload/contract';
import { useAppStore } from '../store/app-store';
import { Field } from './Field';
import { FormActions } from './FormActions';
import { ThemeSelect } from './ThemeSelect';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';
import { useFocusOnMount } from './use-focus-on-mount';
import { WebhookRegistration } from './WebhookRegistration';

type Draft = {
  [Name in keyof EditableSettings]: EditableSettings[Name] extends number
    ? string
    : EditableSettings[Name];
};

const LABELS: Record<keyof EditableSettings, string> = {
  region: 'Default region',
  receiver_port: 'Receiver port',
  handle_links: 'Phone links',
  confirm_web_links: 'Dial phone links without asking',
  open_at_login: 'Start Callbar when I log in',
  dial_shortcut: 'Global shortcut',
  sync_interval_minutes: 'Refresh the directory every',
  relay_url: 'Relay address',
};

function draftOf(settings: EditableSettings): Draft {
  return {
    ...settings,
    receiver_port: String(settings.receiver_port),
    sync_interval_minutes: String(settings.sync_interval_minutes),
  };
}

/** A typed number as a number when it is one (else as typed, for core to name the field). */
const asNumber = (text: string): number | string =>
  /^\d+$/.test(text.trim()) ? Number(text) : text;

/** Callbar's everyday settings, saved at once into the settings file (all or nothing). */
export function SettingsView() {
  const back = useAppStore((state) => state.show);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [saved, setSaved] = useState<Saved | undefined>();
  const [draft, setDraft] = useState<Draft | undefined>();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
  const save = async () => {
    if (!draft) return;
    const result = await window.callbar.settings.save({
      ...draft,
      receiver_port: asNumber(draft.receiver_port) as number,
      sync_interval_minutes: asNumber(draft.sync_interval_minutes) as number,
    });
    if (result.ok) {
      setSaved(result.value);
      setDraft(draftOf(result.value.settings));
      setErrors(NO_ERRORS);
      setStatus('Settings saved.');
    } else {
      setErrors(formErrors(result.error, Object.keys(LABELS)));
      setStatus(undefined);
    }
  };
  const portChanged =
    saved && draft && draft.receiver_port !== String(saved.settings.receiver_port);
  return (
    <section className="panel manage" aria-labelledby="settings-title">
      <div className="manage-head">
        <h1 id="settings-title" ref={heading} tabIndex={-1}>
          Settings
        </h1>
        <button type="button" onClick={() => back('main')}>
          Back to search
        </button>
      </div>
      <Field label="Theme">
        <ThemeSelect />
      </Field>
      {draft && saved ? (
        <form
          className="editor settings"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Field
            label={LABELS.region}
            error={errors.fields.region}
            hint="Two letters (US, GB, DE): how numbers without a country code are read."
          >
            <input
              value={draft.region}
              maxLength={10}
              onChange={(event) => change('region', event.target.value)}
            />
          </Field>
          <Field label={LABELS.handle_links} error={errors.fields.handle_links}>
            <select
              value={draft.handle_links}
              onChange={(event) =>
                change('handle_links', event.target.value as Draft['handle_links'])
              }
            >
              <option value="ask">Ask whether Callbar should open tel: links</option>
              <option value="yes">Always open tel: links with Callbar</option>
              <option value="no">Never open tel: links</option>
            </select>
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={!draft.confirm_web_links}
              onChange={(event) => change('confirm_web_links', !event.target.checked)}
            />
            {LABELS.confirm_web_links}
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.open_at_login}
              onChange={(event) => change('open_at_login', event.target.checked)}
            />
            {LABELS.open_at_login}
          </label>
          <Field
            label={LABELS.dial_shortcut}
            error={errors.fields.dial_shortcut}
            hint="Opens Callbar from any app, e.g. CommandOrControl+Shift+D; empty for none."
          >
            <input
              value={draft.dial_shortcut}
              onChange={(event) => change('dial_shortcut', event.target.value)}
            />
          </Field>
          <Field
            label={LABELS.relay_url}
            error={errors.fields.relay_url}
            hint="Your organisation's relay (https://…); empty: this computer receives the platform's calls itself. A restart applies it."
          >
            <input
              value={draft.relay_url}
              onChange={(event) => change('relay_url', event.target.value)}
            />
          </Field>
          <Field
            label={`${LABELS.sync_interval_minutes} (minutes)`}
            error={errors.fields.sync_interval_minutes}
            hint="1 to 1440."
          >
            <input
              inputMode="numeric"
              value={draft.sync_interval_minutes}
              onChange={(event) => change('sync_interval_minutes', event.target.value)}
            />
          </Field>
          <Field
            label={LABELS.receiver_port}
            error={errors.fields.receiver_port}
            hint="1024 to 65535. The platform sends activation and call events to this port on this computer."
          >
            <input
              inputMode="numeric"
              value={draft.receiver_port}
              onChange={(event) => change('receiver_port', event.target.value)}
            />
          </Field>
          {portChanged ? (
            <p className="warning" data-testid="port-warning">
              After changing the port, have the integration&apos;s Activation, Deactivation and
              Webhook URLs on the platform changed to http://127.0.0.1:{draft.receiver_port}
              /activate, /deactivate and /events/ followed by the same secret, or Callbar cannot
              connect or follow calls.
            </p>
          ) : (
            <>
              <p className="hint">
                Registered on the platform: {saved.receiver_urls.activation},{' '}
                {saved.receiver_urls.deactivation} and the Webhook URL.
              </p>
              <WebhookRegistration />
            </>
          )}
          {saved.overridden.length > 0 ? (
            <p className="hint">
              Set by an environment variable for this run:{' '}
              {saved.overridden
                .map((name) => LABELS[name as keyof EditableSettings] ?? name)
                .join(', ')}{' '}
              (what you save here applies when it is not set).
            </p>
          ) : null}
          {saved.restart_needed.length > 0 ? (
            <p className="hint" data-testid="restart-needed">
              Applies when Callbar starts again:{' '}
              {saved.restart_needed
                .map((name) => LABELS[name as keyof EditableSettings] ?? name)
                .join(', ')}
              .
            </p>
          ) : null}
          <FormActions error={errors.form} submit="Save settings">
            <span role="status">{status}</span>
          </FormActions>
        </form>
      ) : errors.form ? (
        <p role="alert" className="error">
          {errors.form}
        </p>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
    </section>
  );
}

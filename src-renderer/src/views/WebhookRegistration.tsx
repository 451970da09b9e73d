import { useState } from 'react';
import type { ReceiverRegistration } from '../../../src-shared/contract';

/**
 * The exact Webhook URL (and headers) to register with the platform's integration. The URL ends
 * in this computer's secret, so the window asks core for it only when the person presses Show,
 * and keeps it only while the Settings view is open.
 */
export function WebhookRegistration() {
  const [registration, setRegistration] = useState<ReceiverRegistration | undefined>();
  const [error, setError] = useState<string | undefined>();
  const show = async () => {
    const result = await window.callbar.account.receiverRegistration();
    if (result.ok) {
      setRegistration(result.value);
      setError(undefined);
    } else setError(result.error.message);
  };
  if (!registration) {
    return (
      <p className="hint">
        The Webhook URL ends in a secret of this computer, so that no other program can send Callbar
        fake calls.{' '}
        <button type="button" onClick={() => void show()}>
          Show the Webhook URL
        </button>
        {error ? <span className="error"> {error}</span> : null}
      </p>
    );
  }
  const headers = Object.entries(registration.headers);
  return (
    <div className="hint" data-testid="webhook-registration">
      <p>Register on the platform (keep the Webhook URL to yourself and the platform):</p>
      <dl>
        <dt>Webhook URL</dt>
        <dd>
          <code data-testid="webhook-url">{registration.webhook_url}</code>
        </dd>
        {headers.length > 0 ? <dt>Extra headers</dt> : null}
        {headers.map(([name, value]) => (
          <dd key={name}>
            <code>
              {name}: {value}
            </code>
          </dd>
        ))}
      </dl>
      {registration.problem ? <p className="warning">{registration.problem}</p> : null}
      {registration.accepts_unauthenticated ? (
        <p className="warning">
          Callbar also accepts call events without it (the setting accept_unauthenticated_events is
          on).
        </p>
      ) : null}
    </div>
  );
}

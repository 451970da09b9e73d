import { useState } from 'react';
import { useTranslation } from '../i18n';
import type { ReceiverRegistration } from '../../../src-shared/contract';
import { CoreText } from '../components/CoreText';

/**
 * The exact Webhook URL (and headers) to register with the platform's integration. The URL ends
 * in this computer's secret, so the window asks core for it only when the person presses Show,
 * and keeps it only while the Settings view is open.
 */
export function WebhookRegistration() {
  const { t } = useTranslation();
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
      <div className="setting">
        <p className="setting-hint">{t('webhook.explained')}</p>
        <div>
          <button type="button" onClick={() => void show()}>
            {t('webhook.show')}
          </button>
          {error ? (
            <span className="error">
              {' '}
              <CoreText>{error}</CoreText>
            </span>
          ) : null}
        </div>
      </div>
    );
  }
  const headers = Object.entries(registration.headers);
  return (
    <div className="setting-hint" data-testid="webhook-registration">
      <p>{t('webhook.register')}</p>
      <dl>
        <dt>{t('webhook.url')}</dt>
        <dd>
          <code data-testid="webhook-url">{registration.webhook_url}</code>
        </dd>
        {headers.length > 0 ? <dt>{t('webhook.headers')}</dt> : null}
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
        <p className="warning">{t('webhook.unauthenticated')}</p>
      ) : null}
    </div>
  );
}

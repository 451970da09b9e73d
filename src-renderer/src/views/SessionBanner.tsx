import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';

/** A banner over the main view when the session needs the user: ended, or platform unreachable. */
export function SessionBanner() {
  const { t } = useTranslation();
  const account = useAppStore((state) => state.account);
  const connect = useAppStore((state) => state.connect);
  const busy = useAppStore((state) => state.accountBusy);
  const error = useAppStore((state) => state.accountError);
  if (account?.state === 'needs-activation') {
    return (
      <div className="banner banner-error" role="alert" data-testid="session-banner">
        <p>
          <strong>{account.title ?? t('session.ended')}</strong>{' '}
          {account.message ?? t('session.endedExplained')}
          {error ? <span className="error"> {error.message}</span> : null}
        </p>
        <button type="button" className="primary" disabled={busy} onClick={() => void connect()}>
          {t('session.reconnect')}
        </button>
      </div>
    );
  }
  if (account?.state === 'offline') {
    return (
      <div className="banner banner-warning" role="status" data-testid="session-banner">
        <p>
          <strong>{t('session.offline')}</strong> {account.message ?? t('session.offlineExplained')}
        </p>
      </div>
    );
  }
  return null;
}

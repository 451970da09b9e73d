import { useLocale } from '../hooks/use-locale';
import { useAppStore } from '../store/app-store';
import { formatTime } from './format-time';
import { CoreText } from '../components/CoreText';

/**
 * A banner over the main view when the session needs the user (ended), or the platform or the
 * relay's stream is out of reach (offline; connected but unreachable, or call events delayed).
 */
export function SessionBanner() {
  const { t, locale } = useLocale();
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
          {error ? (
            <span className="error">
              {' '}
              <CoreText>{error.message}</CoreText>
            </span>
          ) : null}
        </p>
        <button type="button" className="primary" disabled={busy} onClick={() => void connect()}>
          {t('session.reconnect')}
        </button>
      </div>
    );
  }
  // Connected, but what Callbar needs is away: since when, what it means, that it keeps trying.
  const outage =
    account?.state === 'connected'
      ? account.platform_unreachable
        ? { title: 'session.unreachableSince' as const, ...account.platform_unreachable }
        : account.events_delayed
          ? { title: 'session.eventsDelayedSince' as const, ...account.events_delayed }
          : undefined
      : undefined;
  if (outage) {
    return (
      <div
        className="banner banner-warning"
        role="status"
        data-testid="session-banner"
        data-outage={account?.platform_unreachable ? 'platform' : 'relay'}
      >
        <p>
          <strong>{t(outage.title, { time: formatTime(outage.since, locale) })}</strong>{' '}
          {outage.message}
        </p>
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

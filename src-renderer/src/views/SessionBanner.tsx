import { useAppStore } from '../store/app-store';

/** A banner over the main view when the session needs the user: ended, or platform unreachable. */
export function SessionBanner() {
  const account = useAppStore((state) => state.account);
  const connect = useAppStore((state) => state.connect);
  const busy = useAppStore((state) => state.accountBusy);
  const error = useAppStore((state) => state.accountError);
  if (account?.state === 'needs-activation') {
    return (
      <div className="banner banner-error" role="alert" data-testid="session-banner">
        <p>
          <strong>Your session ended.</strong>{' '}
          {account.message ??
            'The platform no longer accepts Callbar’s connection; reconnect to place calls.'}
          {error ? <span className="error"> {error.message}</span> : null}
        </p>
        <button type="button" className="primary" disabled={busy} onClick={() => void connect()}>
          Reconnect…
        </button>
      </div>
    );
  }
  if (account?.state === 'offline') {
    return (
      <div className="banner banner-warning" role="status" data-testid="session-banner">
        <p>
          <strong>Offline.</strong>{' '}
          {account.message ?? 'Callbar cannot reach the platform; it keeps trying by itself.'}
        </p>
      </div>
    );
  }
  return null;
}

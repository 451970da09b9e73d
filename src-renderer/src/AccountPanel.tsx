import type { AccountStatus } from '../../src-preload/contract';
import { useAppStore } from './store';

/** One line for the header: who Callbar is connected as, or why it is not. */
export function accountSummary(account: AccountStatus | undefined): string {
  if (!account) return 'Checking…';
  const who = account.user_extension ? `Ext. ${account.user_extension}` : '';
  switch (account.state) {
    case 'connected':
      return `Connected · ${who}`;
    case 'activating':
      return 'Connecting…';
    case 'offline':
      return `Offline · ${who}`;
    case 'needs-activation':
      return 'Session ended';
    case 'vault-unavailable':
      return 'Keychain unavailable';
    case 'not-connected':
      return 'Not connected';
  }
}

/** Connect / cancel / forget, with the reason when something needs the user. */
export function AccountPanel() {
  const account = useAppStore((state) => state.account);
  const error = useAppStore((state) => state.accountError);
  const connect = useAppStore((state) => state.connect);
  const cancelConnect = useAppStore((state) => state.cancelConnect);
  const forget = useAppStore((state) => state.forget);
  if (!account) return null;

  return (
    <section className="account-panel" aria-label="Account">
      {account.state === 'activating' ? (
        <>
          <p>Confirm the connection in the portal page that opened in your browser.</p>
          <button type="button" onClick={() => void cancelConnect()}>
            Cancel
          </button>
        </>
      ) : account.state === 'connected' || account.state === 'offline' ? (
        <p>
          Connected to extension {account.user_extension} ({account.tenant_id}).{' '}
          <button type="button" className="link" onClick={() => void forget()}>
            Disconnect this computer
          </button>
        </p>
      ) : (
        <>
          <p>
            {account.state === 'not-connected'
              ? 'Connect Callbar to your phone account to search contacts and dial.'
              : 'Callbar needs to be connected again.'}
          </p>
          <button type="button" className="primary" onClick={() => void connect()}>
            Connect…
          </button>
        </>
      )}
      {account.message ? <p className="hint">{account.message}</p> : null}
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
    </section>
  );
}

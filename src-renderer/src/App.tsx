import { useEffect } from 'react';
import { AccountPanel, accountSummary } from './AccountPanel';
import { useAppStore } from './store';

export function App() {
  const { info, infoError, account, notices, loadInfo, loadAccount, receive } = useAppStore();

  useEffect(() => {
    const unsubscribe = window.callbar.onEvent(receive);
    void loadInfo();
    void loadAccount();
    return unsubscribe;
  }, [loadInfo, loadAccount, receive]);

  return (
    <div className="shell">
      <header className="header">
        <span className="brand">Callbar</span>
        <span className="account" data-testid="account-state" data-state={account?.state}>
          {accountSummary(account)}
        </span>
      </header>
      <main className="main">
        <AccountPanel />
        {infoError ? (
          <p role="alert" className="error">
            {infoError.message}
          </p>
        ) : info ? (
          <dl className="about" data-testid="app-info">
            <dt>Version</dt>
            <dd data-testid="app-version">{info.version}</dd>
            <dt>Platform</dt>
            <dd>{info.platform}</dd>
            <dt>Running in</dt>
            <dd data-testid="app-runtime">
              {info.runtime === 'electron' ? 'Electron' : 'Web preview'}
            </dd>
            <dt>Node</dt>
            <dd>{info.versions.node}</dd>
          </dl>
        ) : (
          <p aria-busy="true">Connecting to Callbar…</p>
        )}
        <ul className="notices" aria-live="polite">
          {notices.map((notice, index) => (
            <li key={index} className={`notice notice-${notice.level}`}>
              {notice.message}
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}

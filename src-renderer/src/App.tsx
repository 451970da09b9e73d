import { useEffect } from 'react';
import { useAppStore } from './store';

export function App() {
  const { info, infoError, notices, loadInfo, receive } = useAppStore();

  useEffect(() => {
    void loadInfo();
    return window.callbar.onEvent(receive);
  }, [loadInfo, receive]);

  return (
    <div className="shell">
      <header className="header">
        <span className="brand">Callbar</span>
        <span className="account" data-testid="account-state">
          Not connected
        </span>
      </header>
      <main className="main">
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

import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation, withScreenTexts, type Translate } from './i18n';
import { Message } from './components/Message';
import type { AccountStatus } from '../../src-shared/contract';
import { useAppStore } from './store/app-store';
import { showsMainView } from './store/selectors';
import { AccountSwitchBanner } from './views/AccountSwitchBanner';
import { EventsWarningBanner } from './views/EventsWarningBanner';
import { CallBar } from './views/CallBar';
import { CallAnnouncer } from './views/CallAnnouncer';
import { DisconnectDialog } from './views/DisconnectDialog';
import { Menu } from './views/Menu';
import { Notices } from './views/Notices';
import { PendingDialDialog } from './views/PendingDialDialog';
import { SearchView } from './views/SearchView';
import { SessionBanner } from './views/SessionBanner';
import { Name } from './components/Isolated';

// Screens the window does not show at start load when first opened (each its own chunk), with
// their texts (i18n.ts).
const AboutView = lazy(() =>
  withScreenTexts(import('./views/AboutView')).then((m) => ({ default: m.AboutView })),
);
const ConnectView = lazy(() =>
  withScreenTexts(import('./views/ConnectView')).then((m) => ({ default: m.ConnectView })),
);
const PhonebooksView = lazy(() =>
  withScreenTexts(import('./views/PhonebooksView')).then((m) => ({ default: m.PhonebooksView })),
);
const SettingsView = lazy(() =>
  withScreenTexts(import('./views/SettingsView')).then((m) => ({ default: m.SettingsView })),
);
const SetupView = lazy(() =>
  withScreenTexts(import('./views/SetupView')).then((m) => ({ default: m.SetupView })),
);

/**
 * One line for the header: who Callbar is connected as, or why it is not, still naming whose
 * session it is when the status knows (offline, ended).
 */
export function accountSummary(account: AccountStatus | undefined, t: Translate): string {
  if (!account) return t('account.checking');
  const withWho = (state: string) =>
    account.user_extension
      ? t('account.withExtension', { state, extension: account.user_extension })
      : state;
  switch (account.state) {
    case 'connected':
      return withWho(t('account.connected'));
    case 'activating':
      return t('account.activating');
    case 'offline':
      return withWho(t('account.offline'));
    case 'needs-activation':
      return withWho(t('account.sessionEnded'));
    case 'vault-unavailable':
      return t('account.vaultUnavailable');
    case 'not-connected':
      return t('account.notConnected');
  }
}

/**
 * Callbar's name, whose account it is and, in relay mode, through which relay, above every view
 * of both windows.
 */
function Header({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const account = useAppStore((state) => state.account);
  return (
    <header className="header">
      <span className="brand">Callbar</span>
      <span className="account" data-testid="account-state" data-state={account?.state}>
        {accountSummary(account, t)}
      </span>
      {account?.tenant_id && account.user_extension ? (
        <span className="account-tenant" data-testid="account-tenant" title={t('account.tenant')}>
          <Name>{account.tenant_id}</Name>
        </span>
      ) : null}
      {account?.relay ? (
        <span className="account-relay" data-testid="account-relay">
          <Message id="account.viaRelay" values={{ relay: <Name>{account.relay}</Name> }} />
        </span>
      ) : null}
      {children}
    </header>
  );
}

export function App() {
  const start = useAppStore((state) => state.start);
  const view = useAppStore((state) => state.view);
  const theme = useAppStore((state) => state.theme);
  const windowKind = useAppStore((state) => state.windowKind);
  const main = useAppStore(showsMainView);

  useEffect(() => start(), [start]);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);

  if (windowKind === 'setup') {
    return (
      <div className="shell">
        <Header />
        <AccountSwitchBanner />
        <main className="main">
          <Suspense fallback={null}>
            <SetupView />
          </Suspense>
        </main>
        <Notices />
      </div>
    );
  }
  return (
    <div className="shell">
      <Header>
        <Menu />
      </Header>
      <AccountSwitchBanner />
      <EventsWarningBanner />
      {view === 'main' ? <SessionBanner /> : null}
      {view === 'main' && main ? <CallBar /> : null}
      <main className="main">
        <Suspense fallback={null}>
          {view === 'about' ? (
            <AboutView />
          ) : view === 'settings' ? (
            <SettingsView />
          ) : view === 'phonebooks' && main ? (
            <PhonebooksView />
          ) : main ? (
            <SearchView />
          ) : (
            <ConnectView />
          )}
        </Suspense>
      </main>
      <Notices />
      <CallAnnouncer />
      <PendingDialDialog />
      <DisconnectDialog />
    </div>
  );
}

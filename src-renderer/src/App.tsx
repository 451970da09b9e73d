import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation, withScreenTexts, type Translate } from './i18n';
import type { AccountStatus } from '../../src-shared/contract';
import { useAppStore } from './store/app-store';
import { showsMainView } from './store/selectors';
import { AccountSwitchBanner } from './views/AccountSwitchBanner';
import { EventsWarningBanner } from './views/EventsWarningBanner';
import { CallBar } from './views/CallBar';
import { CallAnnouncer } from './views/CallAnnouncer';
import { Menu } from './views/Menu';
import { Notices } from './views/Notices';
import { SettingsProblemBanner } from './views/SettingsProblemBanner';
import { SearchView } from './views/SearchView';
import { SessionBanner } from './views/SessionBanner';

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
// Dialogs load when first asked for (their texts are the start's): "Disconnect this computer?"
// and "Dial this number?" (a tel: link that waits for a yes).
const DisconnectDialog = lazy(() =>
  import('./views/DisconnectDialog').then((m) => ({ default: m.DisconnectDialog })),
);
const PendingDialDialog = lazy(() =>
  import('./views/PendingDialDialog').then((m) => ({ default: m.PendingDialDialog })),
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
      // Connected, yet the platform or the relay's stream is away: said first, in a few words.
      return withWho(
        t(
          account.platform_unreachable
            ? 'account.unreachable'
            : account.events_delayed
              ? 'account.eventsDelayed'
              : 'account.connected',
        ),
      );
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
 * Callbar's name and whose account it is (or why it is not connected), above every view of both
 * windows; the tenant and the relay are in the menu and About, not in everyone's way.
 */
function Header({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const account = useAppStore((state) => state.account);
  return (
    <header className="header">
      <div className="header-inner">
        <span className="brand">Callbar</span>
        <span className="account" data-testid="account-state" data-state={account?.state}>
          {accountSummary(account, t)}
        </span>
        {children}
      </div>
    </header>
  );
}

/** The screen the main window shows, by the view chosen and the account's state. */
function Screen() {
  const view = useAppStore((state) => state.view);
  const main = useAppStore(showsMainView);
  if (view === 'about') return <AboutView />;
  if (view === 'settings') return <SettingsView />;
  if (view === 'phonebooks' && main) return <PhonebooksView />;
  return main ? <SearchView /> : <ConnectView />;
}

export function App() {
  const start = useAppStore((state) => state.start);
  const confirmingDisconnect = useAppStore((state) => state.confirmingDisconnect);
  const dialPending = useAppStore((state) => Boolean(state.calls.pending));
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
        <main className="main">
          <div className="column">
            <AccountSwitchBanner />
            <Suspense fallback={null}>
              <SetupView />
            </Suspense>
          </div>
        </main>
        <Notices />
      </div>
    );
  }
  // One centred column on every screen; the call first in it while there is one (on every
  // screen: Esc hangs up only on the search, elsewhere it goes back).
  return (
    <div className="shell">
      <Header>
        <Menu />
      </Header>
      <main className="main">
        <div className="column">
          <AccountSwitchBanner />
          <EventsWarningBanner />
          <SettingsProblemBanner />
          {view === 'main' ? <SessionBanner /> : null}
          {main ? <CallBar hangUpWithEsc={view === 'main'} /> : null}
          <Suspense fallback={null}>
            <Screen />
          </Suspense>
        </div>
      </main>
      <Notices />
      <CallAnnouncer />
      {dialPending ? (
        <Suspense fallback={null}>
          <PendingDialDialog />
        </Suspense>
      ) : null}
      {confirmingDisconnect ? (
        <Suspense fallback={null}>
          <DisconnectDialog />
        </Suspense>
      ) : null}
    </div>
  );
}

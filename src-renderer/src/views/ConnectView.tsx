import { useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import { useAppStore } from '../store/app-store';
import { connectedBefore } from '../store/account-slice';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name } from '../components/Isolated';
import { FirstRunSetup } from './FirstRunSetup';
import { CoreText } from '../components/CoreText';

/** The words and the one right action for every state in which Callbar is not connected. */
export function ConnectView() {
  const { t } = useTranslation();
  const account = useAppStore((state) => state.account);
  if (!account) return <p aria-busy="true">{t('connect.checking')}</p>;
  switch (account.state) {
    case 'activating':
      return <WaitingForPortal />;
    case 'vault-unavailable':
      return <KeychainUnavailable message={account.message} />;
    case 'not-connected':
    case 'needs-activation':
    case 'connected':
    case 'offline':
      return <NotConnected />;
  }
}

/**
 * In relay mode: which relay the portal's answer and the call events come through (nothing on
 * this computer listens for the platform).
 */
export function ViaRelay() {
  const relay = useAppStore((state) => state.account?.relay);
  return relay ? (
    <p className="hint" data-testid="via-relay">
      <Message id="connect.viaRelay" values={{ relay: <Name>{relay}</Name> }} />
    </p>
  ) : null;
}

function ErrorLine() {
  const error = useAppStore((state) => state.accountError);
  return error ? (
    <p role="alert" className="error">
      <CoreText>{error.message}</CoreText>
    </p>
  ) : null;
}

/**
 * Not connected. The first time (no session was ever here, or it was forgotten): a welcome that
 * asks for the country and the shortcut and says what comes next, then Connect. After the portal's
 * Unsubscribe, or a session that ended: what happened, and Connect again.
 */
function NotConnected() {
  const { t } = useTranslation();
  const unsubscribed = useAppStore((state) => state.unsubscribedInPortal);
  const account = useAppStore((state) => state.account);
  const busy = useAppStore((state) => state.accountBusy);
  const connect = useAppStore((state) => state.connect);
  const region = useAppStore((state) => state.region);
  const confirmRegion = useAppStore((state) => state.confirmRegion);
  // The first run: never connected here before (a returning person is not welcomed again).
  const [before] = useState(connectedBefore);
  const firstRun = !unsubscribed && account?.state === 'not-connected' && !before;
  const actions = (
    <div className="screen-actions">
      <ConnectButton
        onPress={() => {
          // Not `disabled` while busy: a disabled button could not take the focus on arrival.
          if (busy) return;
          // The first run asked for the country: the one shown is the person's from now on (the
          // search does not ask again after connecting; RegionAsk.tsx).
          if (firstRun && region && !region.confirmed) void confirmRegion(region.code);
          void connect();
        }}
      >
        {unsubscribed ? t('connect.again') : t('connect.connect')}
      </ConnectButton>
    </div>
  );
  return (
    <section className="screen panel connect" aria-labelledby="connect-title">
      <h1 id="connect-title">
        {unsubscribed
          ? t('connect.unsubscribedTitle')
          : firstRun
            ? t('connect.welcome')
            : t('connect.title')}
      </h1>
      <p id="connect-explained" className="lead">
        {unsubscribed
          ? t('connect.unsubscribedExplained')
          : firstRun
            ? t('connect.welcomeExplained')
            : t('connect.explained')}
      </p>
      {account?.message ? <p className="hint">{account.message}</p> : null}
      <ViaRelay />
      {firstRun ? <FirstRunSetup>{actions}</FirstRunSetup> : actions}
      <ErrorLine />
    </section>
  );
}

/** The one action of a screen that is not connected; it has the focus when it appears. */
function ConnectButton({ onPress, children }: { onPress: () => void; children: ReactNode }) {
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <button
      ref={button}
      type="button"
      className="primary large"
      aria-describedby="connect-explained"
      onClick={onPress}
    >
      {children}
    </button>
  );
}

function WaitingForPortal() {
  const { t } = useTranslation();
  const link = useAppStore((state) => state.account?.connect_link);
  // Set when the platform's activation call arrived but was refused, and why.
  const refusal = useAppStore((state) => state.account?.message);
  const cancel = useAppStore((state) => state.cancelConnect);
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="screen panel" aria-labelledby="waiting-title" aria-busy="true">
      <h1 id="waiting-title" ref={heading} tabIndex={-1}>
        {t('connect.waitingTitle')}
      </h1>
      <p>
        <Message
          id="connect.waitingExplained"
          values={{ subscribe: <strong>{t('connect.subscribe')}</strong> }}
        />
      </p>
      {refusal ? (
        <p role="alert" className="error">
          {refusal}
        </p>
      ) : null}
      {link ? (
        <div className="copy-link">
          <label htmlFor="portal-link">{t('connect.openYourself')}</label>
          <div className="copy-row">
            <input
              id="portal-link"
              type="text"
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" onClick={() => void copy()}>
              {t('connect.copy')}
            </button>
          </div>
          <p className="hint" role="status">
            {copied === 'yes'
              ? t('connect.copied')
              : copied === 'failed'
                ? t('connect.copyFailed')
                : ''}
          </p>
        </div>
      ) : (
        <p className="hint">{t('connect.noBrowser')}</p>
      )}
      <div className="screen-actions">
        <button type="button" onClick={() => void cancel()}>
          {t('common.cancel')}
        </button>
      </div>
      <ErrorLine />
    </section>
  );
}

function KeychainUnavailable({ message }: { message: string | undefined }) {
  const { t } = useTranslation();
  const retry = useAppStore((state) => state.recheckAccount);
  const busy = useAppStore((state) => state.accountBusy);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="screen panel" aria-labelledby="keychain-title">
      <h1 id="keychain-title" ref={heading} tabIndex={-1}>
        {t('connect.keychainTitle')}
      </h1>
      <p>{message ?? t('connect.keychainExplained')}</p>
      {/* Never `disabled`: the focus would fall off the button while it checks. */}
      <button
        type="button"
        className="primary"
        aria-disabled={busy}
        onClick={() => {
          if (!busy) void retry();
        }}
      >
        {busy ? t('connect.checkingShort') : t('connect.tryAgain')}
      </button>
      <ErrorLine />
    </section>
  );
}

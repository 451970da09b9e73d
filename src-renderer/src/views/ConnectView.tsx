import { useState } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import { useAppStore } from '../store/app-store';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name } from '../components/Isolated';

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
      {error.message}
    </p>
  ) : null;
}

function NotConnected() {
  const { t } = useTranslation();
  const unsubscribed = useAppStore((state) => state.unsubscribedInPortal);
  const message = useAppStore((state) => state.account?.message);
  const busy = useAppStore((state) => state.accountBusy);
  const connect = useAppStore((state) => state.connect);
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <section className="panel" aria-labelledby="connect-title">
      <h1 id="connect-title">
        {unsubscribed ? t('connect.unsubscribedTitle') : t('connect.title')}
      </h1>
      <p id="connect-explained">
        {unsubscribed ? t('connect.unsubscribedExplained') : t('connect.explained')}
      </p>
      {message ? <p className="hint">{message}</p> : null}
      <ViaRelay />
      <button
        ref={button}
        type="button"
        className="primary"
        aria-describedby="connect-explained"
        onClick={() => {
          // Not `disabled` while busy: a disabled button could not take the focus on arrival.
          if (!busy) void connect();
        }}
      >
        {unsubscribed ? t('connect.again') : t('connect.connect')}
      </button>
      <ErrorLine />
    </section>
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
    <section className="panel" aria-labelledby="waiting-title" aria-busy="true">
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
      <button type="button" onClick={() => void cancel()}>
        {t('common.cancel')}
      </button>
      <ErrorLine />
    </section>
  );
}

function KeychainUnavailable({ message }: { message: string | undefined }) {
  const { t } = useTranslation();
  const retry = useAppStore((state) => state.loadAccount);
  const busy = useAppStore((state) => state.accountBusy);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="panel" aria-labelledby="keychain-title">
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

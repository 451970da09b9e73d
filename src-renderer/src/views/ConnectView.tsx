import { useState } from 'react';
import { useAppStore } from '../store/app-store';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name } from '../components/Isolated';

/** The words and the one right action for every state in which Callbar is not connected. */
export function ConnectView() {
  const account = useAppStore((state) => state.account);
  if (!account) return <p aria-busy="true">Checking your connection…</p>;
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
      Callbar connects via relay <Name>{relay}</Name>, your organisation’s server: nothing on this
      computer listens for the platform.
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
  const unsubscribed = useAppStore((state) => state.unsubscribedInPortal);
  const message = useAppStore((state) => state.account?.message);
  const busy = useAppStore((state) => state.accountBusy);
  const connect = useAppStore((state) => state.connect);
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <section className="panel" aria-labelledby="connect-title">
      <h1 id="connect-title">
        {unsubscribed
          ? 'You disconnected Callbar in the portal.'
          : 'Connect Callbar to your phone account'}
      </h1>
      <p id="connect-explained">
        {unsubscribed
          ? 'Callbar no longer has access to your phone account. Connect it again to search contacts and dial.'
          : 'Callbar opens your phone system’s portal in your browser. Sign in there and press Subscribe; Callbar then finds your contacts and places calls from your own phone.'}
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
        {unsubscribed ? 'Connect again…' : 'Connect…'}
      </button>
      <ErrorLine />
    </section>
  );
}

function WaitingForPortal() {
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
        Waiting for the portal…
      </h1>
      <p>
        Callbar asked your browser to open the portal. Sign in there and press{' '}
        <strong>Subscribe</strong>; this window continues by itself.
      </p>
      {refusal ? (
        <p role="alert" className="error">
          {refusal}
        </p>
      ) : null}
      {link ? (
        <div className="copy-link">
          <label htmlFor="portal-link">If no browser opened, open this address yourself:</label>
          <div className="copy-row">
            <input
              id="portal-link"
              type="text"
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" onClick={() => void copy()}>
              Copy
            </button>
          </div>
          <p className="hint" role="status">
            {copied === 'yes'
              ? 'Copied. Paste it into your browser’s address bar.'
              : copied === 'failed'
                ? 'Could not copy: select the address and copy it yourself.'
                : ''}
          </p>
        </div>
      ) : (
        <p className="hint">
          If no browser opened, check that your computer has a default browser, then Cancel and
          connect again.
        </p>
      )}
      <button type="button" onClick={() => void cancel()}>
        Cancel
      </button>
      <ErrorLine />
    </section>
  );
}

function KeychainUnavailable({ message }: { message: string | undefined }) {
  const retry = useAppStore((state) => state.loadAccount);
  const busy = useAppStore((state) => state.accountBusy);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="panel" aria-labelledby="keychain-title">
      <h1 id="keychain-title" ref={heading} tabIndex={-1}>
        Callbar cannot use the system keychain
      </h1>
      <p>
        {message ??
          'Callbar keeps your connection only in the system keychain, never in a file. Unlock the keychain, or start it (on Linux: GNOME Keyring or KWallet, reached over D-Bus), then try again.'}
      </p>
      {/* Never `disabled`: the focus would fall off the button while it checks. */}
      <button
        type="button"
        className="primary"
        aria-disabled={busy}
        onClick={() => {
          if (!busy) void retry();
        }}
      >
        {busy ? 'Checking…' : 'Try again'}
      </button>
      <ErrorLine />
    </section>
  );
}

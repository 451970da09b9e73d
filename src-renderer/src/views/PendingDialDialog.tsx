import { useState } from 'react';
import type { CallSource } from '../../../src-preload/contract';
import { useAppStore } from '../store/app-store';
import { Name, PhoneNumber } from './Isolated';
import { Modal } from './Modal';

const SOURCE_WORDS: Record<CallSource, string> = {
  'tel-link': 'a phone link in another app or web page',
  tray: 'the tray menu',
  shortcut: 'the keyboard shortcut',
  cli: 'the command line',
  ui: 'this window',
};

/** "Dial this number?" for a dial that core holds until the user says yes (a tel: link). */
export function PendingDialDialog() {
  const pending = useAppStore((state) => state.calls.pending);
  if (!pending) return null;
  // A new pending dial is a new dialog (fresh checkbox, focus moved again).
  return <PendingDial key={pending.id} />;
}

function PendingDial() {
  const pending = useAppStore((state) => state.calls.pending)!;
  const confirm = useAppStore((state) => state.confirmPending);
  const error = useAppStore((state) => state.callError);
  const [always, setAlways] = useState(false);
  const [busy, setBusy] = useState(false);
  const answer = async (accept: boolean) => {
    setBusy(true);
    await confirm(accept, accept && always);
    setBusy(false);
  };
  const { target } = pending;
  return (
    <Modal titleId="pending-title" onCancel={() => void answer(false)}>
      <h2 id="pending-title">
        Dial{' '}
        {target.contact ? (
          <Name>{target.contact.display_name}</Name>
        ) : (
          <PhoneNumber>{target.display}</PhoneNumber>
        )}
        ?
      </h2>
      <p className="pending-number" data-testid="pending-number">
        <PhoneNumber>{target.display}</PhoneNumber>
        {target.contact?.company ? (
          <>
            {' · '}
            <Name>{target.contact.company}</Name>
          </>
        ) : null}
      </p>
      <p className="hint">
        Asked by {SOURCE_WORDS[pending.source]}
        {pending.link ? (
          <>
            :{' '}
            <code className="pending-link" dir="ltr">
              {pending.link}
            </code>
          </>
        ) : (
          '.'
        )}
      </p>
      <p className="hint">Your phone rings first, then the number.</p>
      {pending.source === 'tel-link' ? (
        <label className="check">
          <input
            type="checkbox"
            checked={always}
            onChange={(event) => setAlways(event.target.checked)}
          />
          Always dial phone links without asking
        </label>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
      <div className="dialog-actions">
        {/* Cancel has the focus: a link may arrive while you are typing and pressing Enter. */}
        <button type="button" data-autofocus disabled={busy} onClick={() => void answer(false)}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void answer(true)}>
          Dial
        </button>
      </div>
    </Modal>
  );
}

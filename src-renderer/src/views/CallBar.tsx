import { useEffect } from 'react';
import { useAppStore } from '../store/app-store';
import { activeCall } from '../store/selectors';
import { callStateWords } from './call-words';
import { Name, Party, PhoneNumber } from './Isolated';
import { formatDuration } from './format-time';
import { useNow } from './use-now';

/**
 * The call in progress: its state (announced to screen readers), who is on the other side,
 * how long it has lasted, and Hang up (the button, or Esc anywhere in the window).
 */
export function CallBar() {
  const call = useAppStore(activeCall);
  const hangup = useAppStore((state) => state.hangup);
  const error = useAppStore((state) => state.callError);
  const dialing = useAppStore((state) => state.dialing);
  const now = useNow(call !== undefined);

  useEffect(() => {
    if (!call) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      void hangup(call.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [call, hangup]);

  if (!call) {
    if (dialing === undefined) return null;
    // The dial is on its way to the platform (which may take a while): said at once.
    return (
      <section
        className="call-bar"
        aria-label="Current call"
        data-testid="call-bar"
        data-state="sending"
      >
        <div className="call-info">
          <p className="call-state" role="status" aria-live="polite" aria-atomic="true">
            <span className="call-words">Calling </span>
            <strong className="call-party">
              <Name>{dialing}</Name>
            </strong>
            <span className="call-words">…</span>
          </p>
        </div>
      </section>
    );
  }
  const since = call.connected_at ?? (call.state === 'in-progress' ? call.started_at : undefined);
  return (
    <section
      className="call-bar"
      aria-label="Current call"
      data-testid="call-bar"
      data-state={call.state}
    >
      <div className="call-info">
        <p className="call-state" role="status" aria-live="polite" aria-atomic="true">
          {call.direction === 'incoming' ? 'From ' : ''}
          <strong className="call-party">
            <Party party={call.party} />
          </strong>
          <span className="call-words"> · {callStateWords(call)}</span>
        </p>
        <p className="call-detail">
          {/* The number first: a long company is cut short, the number never. */}
          {call.party.name ? <PhoneNumber>{call.party.display}</PhoneNumber> : null}
          {call.party.company && call.party.name ? ' · ' : null}
          {call.party.company ? <Name>{call.party.company}</Name> : null}
        </p>
        {call.state === 'in-progress' ? (
          // The platform's events carried only leg ids: nothing will say when the call ends.
          <p className="hint" data-testid="call-end-hint">
            The platform does not tell Callbar when this call ends: Hang up ends it, or clears it
            here if it has already ended on your phone.
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="error">
            {error.message}
          </p>
        ) : null}
      </div>
      {since ? (
        <span className="call-duration" data-testid="call-duration">
          {formatDuration(now - Date.parse(since))}
        </span>
      ) : null}
      <button type="button" className="danger" onClick={() => void hangup(call.id)}>
        Hang up <kbd>Esc</kbd>
      </button>
    </section>
  );
}

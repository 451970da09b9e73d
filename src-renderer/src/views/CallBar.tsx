import { useEffect, type ReactNode } from 'react';
import type { CallState } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { Message } from '../components/Message';
import { activeCall } from '../store/selectors';
import { callStateChip, callStateNote } from './call-words';
import { Name, Party, PhoneNumber } from '../components/Isolated';
import { ErrorDetails } from '../components/ErrorDetails';
import { formatDuration } from './format-time';
import { useNow } from '../hooks/use-now';
import { CrmLinkButtons } from '../components/CrmLinkButtons';
import { crmParty } from '../hooks/use-crm-links';
import { AddToContacts } from './AddToContacts';

/**
 * The call in progress: who is on the other side (the only text cut short), the call's state on
 * a line of its own as a chip, with how long it has lasted (CallAnnouncer, not the bar, tells
 * screen readers what changed), notes and errors that wrap, and Hang up (the button, or Esc
 * anywhere in the window). While the dial is on its way to the platform: "Calling …" and Cancel.
 */
export function CallBar() {
  const { t, locale } = useLocale();
  const call = useAppStore(activeCall);
  const hangup = useAppStore((state) => state.hangup);
  const error = useAppStore((state) => state.callError);
  const dialing = useAppStore((state) => state.dialing);
  const cancelling = useAppStore((state) => state.cancelling);
  const cancelDial = useAppStore((state) => state.cancelDial);
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
      <CallBarFrame
        state="sending"
        who={<Name>{dialing}</Name>}
        chip={cancelling ? t('callBar.cancelling') : t('call.chip.dialing')}
        action={
          <button type="button" disabled={cancelling} onClick={() => void cancelDial()}>
            {t('common.cancel')}
          </button>
        }
      />
    );
  }
  const since = call.connected_at ?? (call.state === 'in-progress' ? call.started_at : undefined);
  const note = callStateNote(call);
  return (
    <CallBarFrame
      state={call.state}
      who={
        call.direction === 'incoming' ? (
          <Message id="callBar.from" values={{ party: <Party party={call.party} /> }} />
        ) : (
          <Party party={call.party} />
        )
      }
      detail={
        call.party.name || call.party.company ? (
          <>
            {/* The number first: a long company is cut short, the number never. */}
            {call.party.name ? <PhoneNumber>{call.party.display}</PhoneNumber> : null}
            {call.party.company && call.party.name ? ' · ' : null}
            {call.party.company ? <Name>{call.party.company}</Name> : null}
          </>
        ) : undefined
      }
      chip={callStateChip(call)}
      duration={since ? formatDuration(now - Date.parse(since), locale) : undefined}
      action={
        <button type="button" className="danger" onClick={() => void hangup(call.id)}>
          {t('callBar.hangUp')} <kbd>{t('keys.esc')}</kbd>
        </button>
      }
    >
      {call.party.number ? (
        // Who is calling: the CRM's page about them, or, for a number nobody knows, a contact.
        <p className="call-links" data-testid="call-links">
          {call.party.name ? null : <AddToContacts number={call.party.number} />}
          <CrmLinkButtons
            who={call.party.name ?? call.party.display}
            party={crmParty(call.party.number, call.party.name, call.party.company)}
          />
        </p>
      ) : null}
      {note ? <p className="call-note">{note}</p> : null}
      {call.state === 'in-progress' ? (
        // The platform's events carried only leg ids: nothing will say when the call ends.
        <p className="call-note hint" data-testid="call-end-hint">
          {t('callBar.endHint')}
        </p>
      ) : null}
      {error ? (
        <div role="alert" className="call-note error" data-testid="call-error">
          {error.message}
          <ErrorDetails details={error.details} />
        </div>
      ) : null}
    </CallBarFrame>
  );
}

/** The bar's layout, the same while sending and during the call. */
function CallBarFrame({
  state,
  who,
  detail,
  chip,
  duration,
  action,
  children,
}: {
  state: CallState | 'sending';
  who: ReactNode;
  detail?: ReactNode;
  chip: string;
  duration?: string | undefined;
  action: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useLocale();
  return (
    <section
      className="call-bar"
      aria-label={t('callBar.label')}
      data-testid="call-bar"
      data-state={state}
    >
      <div className="call-info">
        {/* Not a live region: CallAnnouncer says each change once, as a sentence. */}
        <div className="call-state" data-testid="call-state">
          <p className="call-who">
            <strong className="call-party">{who}</strong>
          </p>
          {detail ? <p className="call-detail">{detail}</p> : null}
          <p className="call-chip-line">
            <span className="call-chip" data-testid="call-chip" data-state={state}>
              {chip}
              {duration ? (
                // A timer: a live region that is silent by default, never read out every second.
                <span className="call-duration" role="timer" data-testid="call-duration">
                  {duration}
                </span>
              ) : null}
            </span>
          </p>
        </div>
        {children}
      </div>
      <div className="call-actions">{action}</div>
    </section>
  );
}

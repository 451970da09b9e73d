import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import type { Call, CallState } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { activeCall } from '../store/selectors';
import { callStateChip, callStateNote } from './call-words';
import { Name, Party, PhoneNumber } from '../components/Isolated';
import { formatDuration } from './format-time';
import { useNow } from '../hooks/use-now';
import { CrmLinkButtons } from '../components/CrmLinkButtons';
import { crmParty } from '../hooks/use-crm-links';
import { AddToContacts } from './AddToContacts';
import { Avatar } from '../components/Avatar';
import { Icon, type IconName } from '../components/Icon';
import { CallRefusal } from './CallRefusal';
import { SEPARATOR } from '../components/separator';

// The ended call loads when a call first ends (its own chunk; the window's start budget).
const EndedCall = lazy(() => import('./EndedCall').then((m) => ({ default: m.EndedCall })));

/** The state's icon beside its word (the word says it; the icon is for the glance). */
const STATE_ICONS: Record<CallState | 'sending', IconName> = {
  sending: 'waiting',
  dialing: 'waiting',
  'calling-you': 'ringing',
  ringing: 'ringing',
  connected: 'live',
  'in-progress': 'live',
  ended: 'done',
  failed: 'failed',
};

/**
 * The call, first on every screen while it lasts, as a phone shows it: who (large; the only
 * text cut short), the number and company, the state as a word with its icon, a large timer,
 * and Hang up, the one main action (or Esc on the search). While the dial is on its way: "Calling
 * …" and Cancel (Esc too). When it ends: "Ended · 0:12" for a few seconds, with Call again and Add note
 * (EndedCall). CallAnnouncer, not the card, tells screen readers what changed.
 */
export function CallBar({ hangUpWithEsc }: { hangUpWithEsc: boolean }) {
  const { t, locale } = useLocale();
  const call = useAppStore(activeCall);
  const hangup = useAppStore((state) => state.hangup);
  const dialing = useAppStore((state) => state.dialing);
  const cancelling = useAppStore((state) => state.cancelling);
  const cancelDial = useAppStore((state) => state.cancelDial);
  const ended = useAppStore((state) => state.ended);
  const now = useNow(call !== undefined);

  // Esc on the search ends what the card offers to end: the call (Hang up), or the dial on its
  // way (Cancel).
  const busy = call !== undefined || dialing !== undefined;
  useEffect(() => {
    if (!busy || !hangUpWithEsc) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      if (call) void hangup(call.id);
      else void cancelDial();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, call, hangup, cancelDial, hangUpWithEsc]);

  if (!call) {
    if (dialing === undefined) {
      return ended ? (
        <Suspense fallback={null}>
          <EndedCall call={ended} />
        </Suspense>
      ) : null;
    }
    // The dial is on its way to the platform (which may take a while): said at once.
    return (
      <CallCard
        state="sending"
        avatar={dialing}
        who={<Name whole>{dialing}</Name>}
        chip={cancelling ? t('callBar.cancelling') : t('call.chip.dialing')}
        action={
          <button type="button" disabled={cancelling} onClick={() => void cancelDial()}>
            {t('common.cancel')}
            {hangUpWithEsc ? <kbd>{t('keys.esc')}</kbd> : null}
          </button>
        }
      />
    );
  }
  const since = call.connected_at ?? (call.state === 'in-progress' ? call.started_at : undefined);
  const note = callStateNote(call);
  return (
    <CallCard
      state={call.state}
      avatar={call.party.name ?? ''}
      who={<Party party={call.party} whole />}
      detail={<PartyDetail call={call} />}
      chip={callStateChip(call)}
      duration={since ? formatDuration(now - Date.parse(since), locale) : undefined}
      action={
        <button type="button" className="danger hang-up" onClick={() => void hangup(call.id)}>
          <Icon name="hangUp" />
          {t('callBar.hangUp')}
          {hangUpWithEsc ? <kbd>{t('keys.esc')}</kbd> : null}
        </button>
      }
      links={
        call.party.number ? (
          // Who is calling: the CRM's page about them, or, for a number nobody knows, a contact.
          <p className="call-links" data-testid="call-links">
            {call.party.name ? null : <AddToContacts party={call.party} />}
            <CrmLinkButtons
              who={call.party.name ?? call.party.display}
              party={crmParty(call.party.number, call.party.name, call.party.company)}
            />
          </p>
        ) : null
      }
    >
      {note ? <p className="call-note">{note}</p> : null}
      {call.state === 'in-progress' ? (
        // The platform's events carried only leg ids: nothing will say when the call ends.
        <p className="call-note" data-testid="call-end-hint">
          {t('callBar.endHint')}
        </p>
      ) : null}
      <CallRefusal />
    </CallCard>
  );
}

/** The number (never cut) and the company under the name; nothing when the name is the number. */
export function PartyDetail({ call }: { call: Call }) {
  const { party } = call;
  if (!party.name && !party.company) return null;
  return (
    <>
      {party.name ? (
        <PhoneNumber className="call-number" whole>
          {party.display}
        </PhoneNumber>
      ) : null}
      {party.company && party.name ? <span aria-hidden="true">{SEPARATOR}</span> : null}
      {party.company ? (
        <Name className="call-company" whole>
          {party.company}
        </Name>
      ) : null}
    </>
  );
}

/** The card's layout, the same while sending, during the call and after it. */
export function CallCard({
  state,
  label,
  testId = 'call-bar',
  avatar,
  who,
  detail,
  chip,
  duration,
  action,
  links,
  children,
}: {
  state: CallState | 'sending';
  /** The region's name (default: "Current call"). */
  label?: string;
  testId?: string;
  /** The name the initials come from ('' for a number). */
  avatar: string;
  who: ReactNode;
  detail?: ReactNode;
  chip: ReactNode;
  duration?: string | undefined;
  action: ReactNode;
  links?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useLocale();
  return (
    <section
      className="call-card"
      aria-label={label ?? t('callBar.label')}
      data-testid={testId}
      data-state={state}
    >
      {/* Not a live region: CallAnnouncer says each change once, as a sentence. */}
      <div className="call-state" data-testid="call-state">
        <Avatar name={avatar} size="large" />
        <div className="call-id">
          <p className="call-who">
            <strong className="call-party">{who}</strong>
          </p>
          {detail ? <p className="call-detail">{detail}</p> : null}
          <p className="call-status">
            <span className="call-chip" data-testid="call-chip" data-state={state}>
              <Icon name={STATE_ICONS[state]} />
              {chip}
            </span>
          </p>
        </div>
        {duration ? (
          // A timer: a live region that is silent by default, never read out every second.
          <span className="call-duration" role="timer" data-testid="call-duration">
            {duration}
          </span>
        ) : null}
      </div>
      {children}
      <div className="call-actions">
        {links}
        {action}
      </div>
    </section>
  );
}

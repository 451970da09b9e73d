import { useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { i18n } from '../i18n';
import { useAppStore } from '../store/app-store';
import { activeCall } from '../store/selectors';
import { callStateWords, partyName } from './call-words';

/**
 * The one place a call is announced: a polite live region, always in the window and visually
 * hidden, that says each change of the call as a sentence: the dial on its way ("Calling Ada
 * Lovelace…"), the call's start ("Incoming call from …", "Ada Lovelace: Your phone is ringing…"),
 * each state after ("Ada Lovelace: Connected") and its end ("Call with Ada Lovelace ended. You
 * hung up.").
 *
 * The call bar shows the same state but is not a live region: a screen reader would otherwise
 * say every change twice, and the bar's region would read all of it again (who, number, company,
 * chip) where one sentence says what changed. The bar also appears with its text already written
 * and goes with the call, which live regions do not announce reliably; this one stays.
 */
export function CallAnnouncer() {
  const call = useAppStore(activeCall);
  const dialing = useAppStore((state) => state.dialing);
  const recent = useAppStore((state) => state.calls.recent);
  const [followed, setFollowed] = useState<Followed>({ call, dialing });
  const [said, setSaid] = useState('');
  // Derived from the previous render's call (React's "adjusting state when a prop changes").
  if (
    call?.id !== followed.call?.id ||
    call?.state !== followed.call?.state ||
    dialing !== followed.dialing
  ) {
    setFollowed({ call, dialing });
    const words = announcement(followed, { call, dialing }, recent);
    if (words !== undefined) setSaid(words);
  }
  return (
    <div
      className="visually-hidden"
      aria-live="polite"
      aria-atomic="true"
      data-testid="call-announcer"
    >
      {said}
    </div>
  );
}

/** What the announcer follows: the active call, and a dial on its way to the platform. */
interface Followed {
  call: Call | undefined;
  dialing: string | undefined;
}

/** The sentence for a change from `before` to `now`, or undefined when nothing is to be said. */
function announcement(before: Followed, now: Followed, recent: Call[]): string | undefined {
  const { call, dialing } = now;
  if (call) {
    return call.id !== before.call?.id || call.state !== before.call.state
      ? stateWords(call)
      : undefined;
  }
  if (before.call) {
    // Its end was said already when the call was shown ended.
    if (isOver(before.call)) return undefined;
    return endWords(recent.find(({ id }) => id === before.call?.id) ?? before.call);
  }
  if (dialing !== undefined && before.dialing === undefined) {
    return i18n.t('call.announce.calling', { who: dialing });
  }
  return undefined;
}

function isOver(call: Call): boolean {
  return call.state === 'ended' || call.state === 'failed';
}

/**
 * "Ada Lovelace: Connected"; "Incoming call from Ada Lovelace" until it is answered (the same
 * sentence whichever state the platform reports first, so it is said once); the end in full.
 */
function stateWords(call: Call): string {
  if (isOver(call)) return endWords(call);
  const name = partyName(call.party);
  if (call.direction === 'incoming' && call.state !== 'connected' && call.state !== 'in-progress') {
    return i18n.t('call.announce.incoming', { name });
  }
  return i18n.t('call.announce.placed', { name, state: callStateWords(call) });
}

/** "Call with Ada Lovelace ended. You hung up.", "Call with +49 30 1234567 failed. Busy." */
function endWords(call: Call): string {
  const name = partyName(call.party);
  const said =
    call.state === 'failed'
      ? i18n.t('call.announce.failed', { name })
      : i18n.t('call.announce.ended', { name });
  return call.reason ? `${said} ${call.reason}` : said;
}

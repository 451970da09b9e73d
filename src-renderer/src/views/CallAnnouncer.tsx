import { useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { i18n } from '../i18n';
import { useAppStore } from '../store/app-store';
import { activeCall } from '../store/selectors';
import { callStateWords, partyName } from './call-words';

/**
 * Says, politely, what the call bar's own live region cannot: a call's start (the bar appears
 * with it already written, which screen readers do not reliably read) and its end (the bar goes
 * with the call). The bar's region says every change in between. This region is always in the
 * window, visually hidden.
 */
export function CallAnnouncer() {
  const call = useAppStore(activeCall);
  const dialing = useAppStore((state) => state.dialing);
  const recent = useAppStore((state) => state.calls.recent);
  const [followed, setFollowed] = useState({ call, dialing });
  const [said, setSaid] = useState('');
  // Derived from the previous render's call (React's "adjusting state when a prop changes").
  if (call?.id !== followed.call?.id || dialing !== followed.dialing) {
    const before = followed;
    setFollowed({ call, dialing });
    if (!before.call && !before.dialing && dialing !== undefined) {
      setSaid(i18n.t('call.announce.calling', { who: dialing }));
    } else if (!before.call && !before.dialing && call) {
      setSaid(startWords(call));
    } else if (before.call && !call) {
      setSaid(endWords(recent.find(({ id }) => id === before.call?.id) ?? before.call));
    }
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

/** "Incoming call from Ada Lovelace", or a call placed elsewhere: "Ada Lovelace: Ringing…". */
function startWords(call: Call): string {
  const name = partyName(call.party);
  return call.direction === 'incoming'
    ? i18n.t('call.announce.incoming', { name })
    : i18n.t('call.announce.placed', { name, state: callStateWords(call) });
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

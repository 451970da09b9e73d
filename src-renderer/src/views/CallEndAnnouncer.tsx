import { useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { activeCall } from '../store/selectors';
import { partyName } from './call-words';

/**
 * Says, politely, that the call ended (or failed, and why). The call bar's own live region follows
 * the call while it lasts but goes away with it, so its end would go unsaid; this region is always
 * in the window, visually hidden, and says it once the call has left the bar.
 */
export function CallEndAnnouncer() {
  const call = useAppStore(activeCall);
  const recent = useAppStore((state) => state.calls.recent);
  const [followed, setFollowed] = useState<Call | undefined>(call);
  const [said, setSaid] = useState('');
  // Derived from the previous render's call (React's "adjusting state when a prop changes").
  if (call?.id !== followed?.id) {
    setFollowed(call);
    if (call) setSaid('');
    else if (followed) setSaid(endWords(recent.find(({ id }) => id === followed.id) ?? followed));
  }
  return (
    <div
      className="visually-hidden"
      aria-live="polite"
      aria-atomic="true"
      data-testid="call-end-announcer"
    >
      {said}
    </div>
  );
}

/** "Call with Ada Lovelace ended. You hung up.", "Call with +49 30 1234567 failed. Busy." */
function endWords(call: Call): string {
  const name = partyName(call.party);
  const said = call.state === 'failed' ? `Call with ${name} failed.` : `Call with ${name} ended.`;
  return call.reason ? `${said} ${call.reason}` : said;
}

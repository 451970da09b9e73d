import { useMemo } from 'react';
import { useAppStore } from '../store/app-store';
import { callStateWords, partyName } from './call-words';
import { formatDuration, formatTime } from './format-time';
import { Party, PhoneNumber } from '../components/Isolated';
import { groupRecentCalls, talkTime } from './recent-groups';

/**
 * Ended calls, one line per person or number (newest first) with how many calls, the last one's
 * time and talk time, and Call again; and Clear.
 */
export function RecentCalls() {
  const recent = useAppStore((state) => state.calls.recent);
  const dial = useAppStore((state) => state.dial);
  const clear = useAppStore((state) => state.clearRecent);
  const groups = useMemo(() => groupRecentCalls(recent), [recent]);
  return (
    <section className="recent" aria-labelledby="recent-title">
      <div className="recent-head">
        <h2 id="recent-title">Recent calls</h2>
        {recent.length > 0 ? (
          <button type="button" className="link" onClick={() => void clear()}>
            Clear
          </button>
        ) : null}
      </div>
      {recent.length === 0 ? (
        <p className="hint">Calls you make or receive appear here.</p>
      ) : (
        <ul className="recent-list">
          {groups.map(({ last: call, count }) => {
            const name = partyName(call.party);
            const talked = talkTime(call);
            return (
              <li key={call.id} className="recent-call" data-count={count}>
                <div className="recent-who">
                  <span className="recent-name">
                    <Party party={call.party} />
                    {count > 1 ? <span className="recent-count"> {count} calls</span> : null}
                  </span>
                  <span className="recent-detail">
                    {call.direction === 'incoming' ? 'Incoming' : 'Outgoing'} ·{' '}
                    {formatTime(call.started_at)}
                    {talked !== undefined ? ` · ${formatDuration(talked)}` : ''}
                    {call.state === 'failed' ? ` · ${callStateWords(call)}` : ''}
                    {call.party.name ? (
                      <>
                        {' · '}
                        <PhoneNumber>{call.party.display}</PhoneNumber>
                      </>
                    ) : null}
                  </span>
                </div>
                <button
                  type="button"
                  aria-label={`Call again: ${name}`}
                  onClick={() => void dial(call.party.number, 'ui', name)}
                >
                  Call again
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

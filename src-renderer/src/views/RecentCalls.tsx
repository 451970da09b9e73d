import { useMemo } from 'react';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { callStateWords, partyName } from './call-words';
import { formatDuration, formatTime } from './format-time';
import { Party, PhoneNumber } from '../components/Isolated';
import { groupRecentCalls, talkTime } from './recent-groups';

/**
 * Ended calls, one line per person or number (newest first) with how many calls, the last one's
 * time and talk time, and Call again; and Clear.
 */
export function RecentCalls() {
  const { t, locale } = useLocale();
  const recent = useAppStore((state) => state.calls.recent);
  const dial = useAppStore((state) => state.dial);
  const clear = useAppStore((state) => state.clearRecent);
  const groups = useMemo(() => groupRecentCalls(recent), [recent]);
  return (
    <section className="recent" aria-labelledby="recent-title">
      <div className="recent-head">
        <h2 id="recent-title">{t('recent.title')}</h2>
        {recent.length > 0 ? (
          <button type="button" className="link" onClick={() => void clear()}>
            {t('recent.clear')}
          </button>
        ) : null}
      </div>
      {recent.length === 0 ? (
        <p className="hint">{t('recent.empty')}</p>
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
                    {count > 1 ? (
                      <span className="recent-count"> {t('recent.count', { count })}</span>
                    ) : null}
                  </span>
                  <span className="recent-detail">
                    {call.direction === 'incoming' ? t('recent.incoming') : t('recent.outgoing')}
                    {' · '}
                    {formatTime(call.started_at, locale)}
                    {talked !== undefined ? ` · ${formatDuration(talked, locale)}` : ''}
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
                  aria-label={t('recent.callAgainName', { name })}
                  onClick={() => void dial(call.party.number, 'ui', name)}
                >
                  {t('recent.callAgain')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

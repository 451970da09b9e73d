import { useMemo, useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { Message } from '../components/Message';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { useNow } from '../hooks/use-now';
import { callStateWords, partyName } from './call-words';
import { formatDuration, formatTime } from './format-time';
import { Name, Party, PhoneNumber } from '../components/Isolated';
import { CrmLinkButtons } from '../components/CrmLinkButtons';
import { ExportButtons } from '../components/ExportButtons';
import { crmParty } from '../hooks/use-crm-links';
import { AddToContacts } from './AddToContacts';
import { CallNoteEditor } from './CallNoteEditor';
import { groupRecentCalls, talkTime } from './recent-groups';

/** The longest search typed (the list is a hundred calls at most). */
const MAX_SEARCH_CHARS = 100;

/** Whether `call` matches every word of `search`: its party's name, company, number or its note. */
function matches(call: Call, words: readonly string[]): boolean {
  const { name, company, number, display } = call.party;
  const text = [name, company, number, display, call.note].join('\n').toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * Ended calls, one line per person or number (newest first) with how many calls, the last one's
 * time and talk time, its note, Call again, the CRM links, Add to contacts for a number nobody
 * knows; a search over names, numbers and notes; Export (CSV, with the notes); and Clear.
 */
export function RecentCalls() {
  const { t, locale } = useLocale();
  const recent = useAppStore((state) => state.calls.recent);
  const dial = useAppStore((state) => state.dial);
  const clear = useAppStore((state) => state.clearRecent);
  const undo = useAppStore((state) => state.undoClear);
  const cleared = useAppStore((state) => state.calls.cleared);
  const undoUntil = cleared ? Date.parse(cleared.undo_until) : 0;
  const now = useNow(cleared !== undefined);
  const undoable = cleared !== undefined && now < undoUntil;
  const [search, setSearch] = useState('');
  const [noting, setNoting] = useState<string | undefined>();
  const words = useMemo(() => search.toLowerCase().split(/\s+/).filter(Boolean), [search]);
  const groups = useMemo(
    () => groupRecentCalls(recent.filter((call) => matches(call, words))),
    [recent, words],
  );
  return (
    <section className="recent" aria-labelledby="recent-title">
      <div className="recent-head">
        <h2 id="recent-title">{t('recent.title')}</h2>
        {recent.length > 0 ? (
          <>
            <input
              type="search"
              className="recent-search"
              aria-label={t('recent.search')}
              placeholder={t('recent.searchPlaceholder')}
              maxLength={MAX_SEARCH_CHARS}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <ExportButtons requests={[{ label: t('recent.export'), request: { what: 'calls' } }]} />
            <button type="button" className="link" onClick={() => void clear()}>
              {t('recent.clear')}
            </button>
          </>
        ) : null}
      </div>
      {/* Clear keeps the calls (in core) for a few seconds: Undo brings them back. */}
      <p role="status" className="hint recent-cleared" data-testid="recent-cleared">
        {undoable ? (
          <>
            {t('recent.cleared', { count: cleared.count })}{' '}
            <button type="button" className="link" onClick={() => void undo()}>
              {t('recent.undo')}
            </button>
          </>
        ) : null}
      </p>
      {recent.length === 0 ? (
        undoable ? null : (
          <p className="hint">{t('recent.empty')}</p>
        )
      ) : groups.length === 0 ? (
        <p className="hint" data-testid="recent-no-match">
          <Message id="recent.noMatch" values={{ search: <Name>{search}</Name> }} />
        </p>
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
                  {noting === call.id ? (
                    <CallNoteEditor call={call} onDone={() => setNoting(undefined)} />
                  ) : call.note ? (
                    <span className="recent-note" data-testid="recent-note">
                      <Name>{call.note}</Name>
                    </span>
                  ) : null}
                  {call.party.number ? (
                    <span className="recent-links">
                      <button
                        type="button"
                        className="link"
                        aria-label={
                          call.note
                            ? t('recent.editNoteName', { name })
                            : t('recent.addNoteName', { name })
                        }
                        onClick={() => setNoting(call.id)}
                      >
                        {call.note ? t('recent.editNote') : t('recent.addNote')}
                      </button>
                      {call.party.name ? null : <AddToContacts number={call.party.number} />}
                      <CrmLinkButtons
                        who={name}
                        party={crmParty(call.party.number, call.party.name, call.party.company)}
                      />
                    </span>
                  ) : null}
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

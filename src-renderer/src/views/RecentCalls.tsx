import { lazy, Suspense, useMemo, useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { Message } from '../components/Message';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { useNow } from '../hooks/use-now';
import { callStateWords, partyName } from './call-words';
import { formatDuration, formatTime } from './format-time';
import { Name, Party, PhoneNumber } from '../components/Isolated';
import { crmParty, useCrmLinks } from '../hooks/use-crm-links';
import { CoreAlert, CoreText } from '../components/CoreText';
import { ExportProgress } from '../components/ExportProgress';
import { useExportDownload } from '../hooks/use-export-download';
import { AddToContactsDialog } from './AddToContacts';
import { CallNoteEditor } from './LazyNoteEditor';
import { groupRecentCalls, talkTime } from './recent-groups';
import { Avatar } from '../components/Avatar';
import { Icon } from '../components/Icon';
import { RowCallButton } from '../components/RowCallButton';
import { RowMenu, type RowAction } from '../components/RowMenu';

// Clear's question loads when first asked (its own chunk; the window's start budget).
const ConfirmDelete = lazy(() =>
  import('../components/ConfirmDelete').then((m) => ({ default: m.ConfirmDelete })),
);

/** The longest search typed (the list is a hundred calls at most). */
const MAX_SEARCH_CHARS = 100;

/** Whether `call` matches every word of `search`: its party's name, company, number or its note. */
function matches(call: Call, words: readonly string[]): boolean {
  const { name, company, number, display } = call.party;
  const text = [name, company, number, display, call.note].join('\n').toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * Ended calls, one row per person or number (newest first): who, how many calls, the last one's
 * time and talk time, its note; Call again and Add note on hover or focus, the rest (Add to
 * contacts, the CRM links) in the row's menu. A search over names, numbers and notes; Export and
 * Clear (asked first: the notes go too) in the section's menu.
 */
export function RecentCalls() {
  const { t } = useLocale();
  const recent = useAppStore((state) => state.calls.recent);
  const applyCallsEvent = useAppStore((state) => state.applyCallsEvent);
  const undo = useAppStore((state) => state.undoClear);
  const cleared = useAppStore((state) => state.calls.cleared);
  const undoUntil = cleared ? Date.parse(cleared.undo_until) : 0;
  const now = useNow(cleared !== undefined);
  const undoable = cleared !== undefined && now < undoUntil;
  const [search, setSearch] = useState('');
  const [clearing, setClearing] = useState(false);
  const exporting = useExportDownload();
  const words = useMemo(() => search.toLowerCase().split(/\s+/).filter(Boolean), [search]);
  const groups = useMemo(
    () => groupRecentCalls(recent.filter((call) => matches(call, words))),
    [recent, words],
  );
  return (
    <section className="section recent" aria-labelledby="recent-title">
      <div className="section-head">
        <h2 id="recent-title">{t('recent.title')}</h2>
        {recent.length > 0 ? (
          <RowMenu
            label={t('recent.more')}
            text={t('common.more')}
            actions={[
              {
                label: t('recent.export'),
                run: () => void exporting.save({ what: 'calls' }),
              },
              { label: t('recent.clear'), danger: true, apart: true, run: () => setClearing(true) },
            ]}
          />
        ) : null}
      </div>
      <ExportProgress busy={exporting.busy} />
      <CoreAlert text={exporting.error} testId="export-error" />
      {recent.length > 0 ? (
        <input
          type="search"
          className="section-search"
          aria-label={t('recent.search')}
          placeholder={t('recent.searchPlaceholder')}
          maxLength={MAX_SEARCH_CHARS}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && search !== '') {
              event.preventDefault();
              setSearch('');
            }
          }}
        />
      ) : null}
      {/* Clear keeps the calls (in core) for a few seconds: Undo brings them back. */}
      <p role="status" className="hint recent-cleared" data-testid="recent-cleared">
        {undoable ? (
          <>
            {t('recent.cleared', { count: cleared.count })}{' '}
            <button type="button" className="plain" onClick={() => void undo()}>
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
        <ul className="rows">
          {groups.map(({ last, count }) => (
            <RecentRow key={last.id} call={last} count={count} />
          ))}
        </ul>
      )}
      {clearing ? (
        <Suspense fallback={null}>
          <ConfirmDelete
            title={t('recent.clearTitle', { count: recent.length })}
            action={t('recent.clearAction')}
            remove={async () => {
              const result = await window.callbar.calls.clearRecent();
              if (result.ok) applyCallsEvent(result.value);
              return result;
            }}
            onCancel={() => setClearing(false)}
            onDeleted={() => setClearing(false)}
          >
            <p>{t('recent.clearExplained')}</p>
          </ConfirmDelete>
        </Suspense>
      ) : null}
    </section>
  );
}

/** One person's or number's calls: the newest one's details, its note, and what to do next. */
function RecentRow({ call, count }: { call: Call; count: number }) {
  const { t, locale } = useLocale();
  const dial = useAppStore((state) => state.dial);
  const crm = useCrmLinks();
  const [noting, setNoting] = useState(false);
  const [adding, setAdding] = useState(false);
  const name = partyName(call.party);
  const talked = talkTime(call);
  const { number } = call.party;
  // The actions shown on hover or focus leave the number in view: Call, as in Contacts and
  // Favourites, and the note from the menu. "Notiz hinzufügen" and "Erneut anrufen" were as wide
  // as the row at 420 px in German, over the number they were for.
  const more: RowAction[] = number
    ? [
        ...(noting
          ? []
          : [
              {
                label: call.note ? t('recent.editNote') : t('recent.addNote'),
                run: () => setNoting(true),
              },
            ]),
        ...(call.party.name
          ? []
          : [{ label: t('addToContacts.title'), run: () => setAdding(true) }]),
        ...crm.links.map((link) => ({
          label: t('crm.open', { crm: link.label }),
          run: () =>
            void crm.open(link.index, crmParty(number, call.party.name, call.party.company)),
        })),
      ]
    : [];
  return (
    <li className="row recent-call" data-count={count}>
      <Avatar name={call.party.name ?? ''} />
      <div className="row-text">
        <span className="row-title">
          <Party party={call.party} whole />
          {count > 1 ? <span className="count-badge">{t('recent.count', { count })}</span> : null}
        </span>
        <span className="row-detail">
          <Icon name={call.direction === 'incoming' ? 'incoming' : 'phone'} />
          {call.direction === 'incoming' ? t('recent.incoming') : t('recent.outgoing')}
          {' · '}
          {formatTime(call.started_at, locale)}
          {talked !== undefined ? ` · ${formatDuration(talked, locale)}` : ''}
          {call.state === 'failed' ? ` · ${callStateWords(call)}` : ''}
          {call.party.name ? (
            <>
              {' · '}
              <PhoneNumber whole>{call.party.display}</PhoneNumber>
            </>
          ) : null}
        </span>
        {noting ? (
          <CallNoteEditor call={call} onDone={() => setNoting(false)} />
        ) : call.note ? (
          <span className="row-note" data-testid="recent-note">
            <Name>{call.note}</Name>
          </span>
        ) : null}
        {crm.error ? (
          <span role="alert" className="error">
            <CoreText>{crm.error}</CoreText>
          </span>
        ) : null}
      </div>
      {number ? (
        <div className="row-actions">
          <RowCallButton name={name} onCall={() => void dial(number, 'ui', name)} />
          {more.length > 0 ? (
            <RowMenu label={t('common.moreActions', { name })} actions={more} />
          ) : null}
        </div>
      ) : null}
      {adding ? (
        <Suspense fallback={null}>
          <AddToContactsDialog party={call.party} onClose={() => setAdding(false)} />
        </Suspense>
      ) : null}
    </li>
  );
}

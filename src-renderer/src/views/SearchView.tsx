import { lazy, Suspense, useEffect, useMemo, type KeyboardEvent } from 'react';
import { useTranslation, withScreenTexts } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Message } from '../components/Message';
import { resultRows, type ResultRow } from '../store/selectors';
import { firstRunHintDismissed } from './first-run-dismissed';
import { FavouritesList } from './FavouritesList';
import { RecentCalls } from './RecentCalls';
import { StarToggle } from '../components/StarToggle';
import { ResultList, rowId } from './ResultList';
import { SearchBox } from './SearchBox';
import { ErrorDetails } from '../components/ErrorDetails';
import { CallRefusal } from './CallRefusal';
import { SyncStatus } from './SyncStatus';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name, PhoneNumber } from '../components/Isolated';
import { CoreText } from '../components/CoreText';

// Asked only until someone chose the country: loaded then, with its texts (i18n.ts).
const RegionAsk = lazy(() =>
  withScreenTexts(import('./RegionAsk')).then((m) => ({ default: m.RegionAsk })),
);
// What the search found, said to a screen reader: loaded with its texts when something is first
// searched (the window's start budget), in time for the first pause in the typing.
const SearchAnnouncer = lazy(() =>
  withScreenTexts(import('./SearchAnnouncer')).then((m) => ({ default: m.SearchAnnouncer })),
);
// Shown until the person presses Got it, once per install: not part of the window's start.
const FirstRunHint = lazy(() =>
  withScreenTexts(import('./FirstRunHint')).then((m) => ({ default: m.FirstRunHint })),
);

/** How far each navigation key moves the highlighted row. */
const SELECTION_MOVES: Partial<Record<string, number>> = {
  ArrowDown: 1,
  ArrowUp: -1,
  PageDown: 8,
  PageUp: -8,
};

/**
 * The number a row dials: the typed input, or the contact's number the search matched (core's
 * `dials`: the secondary when that matched); `other`, Alt+Enter, the contact's other number.
 */
function dialTargetOf(row: ResultRow, query: string, other: boolean): string | undefined {
  if (row.kind === 'dial') return other ? undefined : query.trim();
  const { contact, dials } = row.hit;
  const field = other ? otherNumber(dials) : dials;
  return contact[field] ?? undefined;
}

function otherNumber(field: 'number' | 'secondary_number'): 'number' | 'secondary_number' {
  return field === 'number' ? 'secondary_number' : 'number';
}

/**
 * The main view: search the directory, pick with ↑/↓, Enter dials, Alt+Enter the secondary. It
 * follows the answer (`answered`, its hits), not the typed text: a key re-renders the box alone.
 */
export function SearchView() {
  const { t } = useTranslation();
  const answered = useAppStore((state) => state.answered);
  const hits = useAppStore((state) => state.hits);
  const dialRow = useAppStore((state) => state.dialRow);
  const dialAt = useAppStore((state) => state.dialAt);
  const selected = useAppStore((state) => state.selected);
  const searchError = useAppStore((state) => state.searchError);
  const setQuery = useAppStore((state) => state.setQuery);
  const moreHits = useAppStore((state) => state.moreHits);
  const moveSelection = useAppStore((state) => state.moveSelection);
  const select = useAppStore((state) => state.select);
  const dial = useAppStore((state) => state.dial);
  const hasCall = useAppStore((state) => state.calls.current.length > 0);
  const dialing = useAppStore((state) => state.dialing !== undefined);
  const showsEnded = useAppStore((state) => state.ended !== undefined);
  const directory = useAppStore((state) => state.directory);
  const asksRegion = useAppStore((state) => state.region?.confirmed === false);
  const input = useFocusOnMount<HTMLInputElement>();
  const rows = useMemo(() => resultRows({ hits, dialRow, dialAt }), [hits, dialRow, dialAt]);

  // Ctrl+F, Ctrl+K or "/" (outside a text field) come back to the search box from anywhere.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const inField =
        event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
      const shortcut =
        ((event.ctrlKey || event.metaKey) && ['f', 'k'].includes(event.key.toLowerCase())) ||
        (event.key === '/' && !inField);
      if (!shortcut || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [input]);

  // The global shortcut opened the window (maybe with text to search): the focus comes here.
  const focusRequests = useAppStore((state) => state.searchFocusRequests);
  useEffect(() => {
    if (focusRequests === 0) return;
    input.current?.focus();
    input.current?.select();
  }, [focusRequests, input]);

  // When the call's card goes away with the focus on it (Hang up, Close), the focus returns here.
  useEffect(() => {
    if (!hasCall && document.activeElement === document.body) input.current?.focus();
  }, [hasCall, showsEnded, input]);
  // A second Enter (or click) while a dial is in flight is ignored by the store's dial.
  const dialRowAt = async (row: ResultRow | undefined, secondary: boolean) => {
    const target = row && dialTargetOf(row, answered, secondary);
    if (!target || !row) return;
    const label = row.kind === 'dial' ? row.target.display : row.hit.contact.display_name;
    if (await dial(target, 'ui', label)) input.current?.select();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = SELECTION_MOVES[event.key];
    if (move !== undefined) {
      event.preventDefault();
      moveSelection(move);
      return;
    }
    switch (event.key) {
      case 'Enter':
        event.preventDefault();
        void dialRowAt(rows[selected], event.altKey);
        break;
      case 'Escape':
        // With a call in progress Esc hangs up, and with a dial on its way it cancels (the call
        // bar listens); otherwise it clears.
        if (useAppStore.getState().query !== '' && !hasCall && !dialing) {
          event.preventDefault();
          void setQuery('');
        }
        break;
    }
  };

  const current = rows[selected];
  const searching = answered !== '';
  // The first sync of this account is running: nothing to find yet, which is not "no match".
  const loading = directory?.state === 'syncing' && directory.contacts === 0;
  return (
    <section className={searching ? 'search searching' : 'search'} aria-labelledby="search-title">
      <h1 id="search-title" className="visually-hidden">
        {t('search.title')}
      </h1>
      <SearchBox
        ref={input}
        expanded={searching && rows.length > 0}
        activeDescendant={searching && current ? rowId(selected) : undefined}
        onKeyDown={onKeyDown}
      />
      <SyncStatus />
      {/* What the search found, said once the typing settles (the sentences below are for the
          eye: as live regions they were said once per key). */}
      {searching ? (
        <Suspense fallback={null}>
          <SearchAnnouncer />
        </Suspense>
      ) : null}
      {/* With a call, its card says the refusal; otherwise here, as quietly. */}
      {hasCall ? null : <CallRefusal />}
      {searchError ? (
        <div role="alert" className="error">
          <CoreText>{searchError.message}</CoreText>
          <ErrorDetails details={searchError.details} />
        </div>
      ) : null}
      {searching ? (
        rows.length > 0 ? (
          <>
            <ResultList
              query={answered}
              rows={rows}
              selected={selected}
              onSelect={select}
              onDial={(row, secondary) => void dialRowAt(row, secondary)}
              onNearEnd={() => void moreHits()}
            />
            <SelectedActions
              row={current}
              main={!hasCall}
              onDial={(secondary) => void dialRowAt(current, secondary)}
            />
          </>
        ) : loading ? (
          <p className="empty" data-testid="search-loading">
            {t('search.loading', { query: answered })}
          </p>
        ) : (
          <p className="empty" data-testid="search-no-match">
            {t('search.noMatch', { query: answered })}
          </p>
        )
      ) : (
        <>
          {asksRegion ? (
            <Suspense fallback={null}>
              <RegionAsk />
            </Suspense>
          ) : null}
          {firstRunHintDismissed() ? null : (
            <Suspense fallback={null}>
              <FirstRunHint />
            </Suspense>
          )}
          <FavouritesList />
          <RecentCalls />
        </>
      )}
    </section>
  );
}

/**
 * Buttons for the highlighted row, so the mouse can do what Enter and Alt+Enter do. Call is the
 * main action, except while a call lasts: then Hang up is, and Call is an ordinary button.
 */
function SelectedActions({
  row,
  main,
  onDial,
}: {
  row: ResultRow | undefined;
  main: boolean;
  onDial: (secondary: boolean) => void;
}) {
  const { t } = useTranslation();
  if (!row) return null;
  // Alt+Enter: the contact's other number (the main one when the alternative matched).
  const other =
    row.kind === 'hit' && row.hit.contact.secondary_number !== null
      ? otherNumber(row.hit.dials)
      : undefined;
  const label =
    row.kind === 'dial' ? (
      <PhoneNumber className="call-selected-who" whole>
        {row.target.display}
      </PhoneNumber>
    ) : (
      <Name className="call-selected-who" whole>
        {row.hit.contact.display_name}
      </Name>
    );
  return (
    <div className="selected-actions">
      {/* A fixed width (the column's, 24em in a wide window): a long name is cut short inside,
          the button never grows with it. */}
      <button
        type="button"
        className={main ? 'primary call-selected' : 'call-selected'}
        onClick={() => onDial(false)}
      >
        <span className="call-selected-label">
          <Message id="search.callSelected" values={{ who: label }} />
        </span>
        <kbd>{t('keys.enter')}</kbd>
      </button>
      {row.kind === 'hit' ? (
        <StarToggle contactId={row.hit.contact.id} name={row.hit.contact.display_name} />
      ) : null}
      {other ? (
        <button type="button" onClick={() => onDial(true)}>
          {t(other === 'secondary_number' ? 'search.callAlternative' : 'search.callMain')}
          <kbd>{t('keys.altEnter')}</kbd>
        </button>
      ) : null}
    </div>
  );
}

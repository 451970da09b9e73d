import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { ListPager } from './ListPager';
import { ListTools } from './ListTools';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import type { useListQuery } from '../hooks/use-list-query';
import type { ListPage } from '../hooks/use-platform-list';
import type { ErrorInfo } from '../../../src-shared/contract';

/** The kinds of items a ListScreen lists (their words are the window catalog's `list.<kind>`). */
export type ListKind = 'contacts' | 'phonebooks';

/** What the shell needs of a loaded list (usePlatformList's answer). */
interface LoadedList<T> {
  page: ListPage<T> | undefined;
  error: ErrorInfo | undefined;
  loading: boolean;
}

/** Selection mode's state, handed to each row. */
export interface RowSelection {
  /** Selection mode is on (rows show a checkbox, a click selects). */
  on: boolean;
  chosen: boolean;
  toggle: () => void;
}

/**
 * The management screens' shell (phonebooks, contacts): a heading with Back and the primary
 * action, search and order, one row per item in a list that fits the narrow window (no columns,
 * no sideways scrolling), paging, an empty state that offers the next action, and — when
 * `onDeleteSelected` is given — a selection mode for deleting several at once.
 */
export function ListScreen<T extends { id: number }, Ordering extends string>({
  titleId,
  title,
  back,
  primary,
  search,
  query,
  orderings,
  list,
  what,
  empty,
  renderRow,
  onDeleteSelected,
  tools,
  children,
}: {
  titleId: string;
  title: ReactNode;
  back: { label: string; onClick: () => void };
  primary: { label: string; onClick: () => void };
  search: { label: string; placeholder: string };
  query: ReturnType<typeof useListQuery<Ordering>>;
  orderings: readonly { value: Ordering; label: string }[];
  list: LoadedList<T>;
  /** What the items are (the words for them come from the catalog's `list.<what>`). */
  what: ListKind;
  /** Shown instead of rows when there are none at all (not for a search without a match). */
  empty: ReactNode;
  renderRow: (item: T, selection: RowSelection) => ReactNode;
  /** Bulk delete of the chosen ids (opens the confirmation); none: no selection mode. */
  onDeleteSelected?: (ids: number[], clear: () => void) => void;
  /** More actions beside search and order (Import…). */
  tools?: ReactNode;
  /** Dialogs (editor, confirmation). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [selecting, setSelecting] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const rows = list.page?.results ?? [];
  // A row that had the focus went (deleted): the focus comes to the heading, not to the page.
  useEffect(() => {
    if (document.activeElement === document.body) heading.current?.focus();
  }, [list.page, heading]);
  const clear = () => setChosen(new Set());
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const count = chosen.size;
  const allChosen = rows.length > 0 && rows.every((row) => chosen.has(row.id));
  return (
    <section className="panel list-screen" aria-labelledby={titleId}>
      <div className="list-head">
        <button type="button" className="list-back" onClick={back.onClick}>
          ‹ {back.label}
        </button>
        <h1 id={titleId} ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <button type="button" className="primary" onClick={primary.onClick}>
          {primary.label}
        </button>
      </div>
      <ListTools
        label={search.label}
        placeholder={search.placeholder}
        list={query}
        orderings={orderings}
      >
        {tools}
        {onDeleteSelected ? (
          <button
            type="button"
            aria-pressed={selecting}
            onClick={() => {
              setSelecting((on) => !on);
              clear();
            }}
          >
            {selecting ? t('list.done') : t('list.select')}
          </button>
        ) : null}
      </ListTools>
      {onDeleteSelected && selecting ? (
        <div className="list-selection" role="group" aria-label={t('list.selection')}>
          <label className="check">
            <input
              type="checkbox"
              checked={allChosen}
              onChange={(event) =>
                setChosen((current) => {
                  const next = new Set(current);
                  for (const row of rows) {
                    if (event.target.checked) next.add(row.id);
                    else next.delete(row.id);
                  }
                  return next;
                })
              }
            />
            {t('list.allOnPage')}
          </label>
          <span className="list-selection-count" aria-live="polite">
            {t('list.selected', { count })}
          </span>
          <button
            type="button"
            className="danger"
            disabled={count === 0}
            onClick={() => onDeleteSelected([...chosen], clear)}
          >
            {t('list.deleteSelected', { count })}
          </button>
        </div>
      ) : null}
      {list.error ? (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <ul
          className="list-rows"
          aria-busy={list.loading}
          aria-label={t(`list.${what}.onPage`)}
          onKeyDown={moveBetweenRows}
        >
          {rows.map((item) =>
            renderRow(item, {
              on: selecting,
              chosen: chosen.has(item.id),
              toggle: () => toggle(item.id),
            }),
          )}
        </ul>
      ) : list.page ? (
        query.query.search.trim() ? (
          <p className="empty" role="status">
            {t(`list.${what}.noMatch`, { search: query.query.search.trim() })}
          </p>
        ) : (
          <div className="empty-state">{empty}</div>
        )
      ) : (
        <p aria-busy="true" className="empty">
          {t('common.loading')}
        </p>
      )}
      <ListPager page={list.page} what={what} onPage={query.setPage} />
      {children}
    </section>
  );
}

/** ↑/↓ move the focus from a row's main button to the next or previous row's, as in a launcher. */
function moveBetweenRows(event: KeyboardEvent<HTMLUListElement>) {
  const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
  if (!step || !(event.target instanceof HTMLElement)) return;
  if (!event.target.classList.contains('list-row-main')) return;
  const mains = [...event.currentTarget.querySelectorAll<HTMLElement>('.list-row-main')];
  const next = mains[mains.indexOf(event.target) + step];
  if (!next) return;
  event.preventDefault();
  next.focus();
}

/**
 * One row of a ListScreen: its title is a button stretched over the row (click or Enter opens or
 * edits; ↑/↓ go to the next row's), then its trailing actions; in selection mode a checkbox instead, and a click selects.
 */
export function ListRow({
  testId,
  selection,
  name,
  title,
  openLabel,
  onOpen,
  detail,
  actions,
}: {
  testId: string;
  selection: RowSelection;
  /** The item's name, for the checkbox's label. */
  name: string;
  /** The first line (the name, isolated). */
  title: ReactNode;
  /** The main button's accessible name when it is not the title ("Edit Grace Hopper"). */
  openLabel?: string;
  onOpen: () => void;
  /** The second line. */
  detail: ReactNode;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li
      className={selection.chosen ? 'list-row chosen' : 'list-row'}
      data-testid={testId}
      onClick={selection.on ? selection.toggle : undefined}
    >
      {selection.on ? (
        <input
          type="checkbox"
          className="list-row-check"
          aria-label={t('list.selectName', { name })}
          checked={selection.chosen}
          onChange={selection.toggle}
          onClick={(event) => event.stopPropagation()}
        />
      ) : null}
      <div className="list-row-text">
        {selection.on ? (
          <span className="list-row-title">{title}</span>
        ) : (
          <button type="button" className="list-row-main" aria-label={openLabel} onClick={onOpen}>
            <span className="list-row-title">{title}</span>
          </button>
        )}
        <span className="list-row-detail">{detail}</span>
      </div>
      {selection.on ? null : <div className="list-row-actions">{actions}</div>}
    </li>
  );
}

import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from '../i18n';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import type { useListQuery } from '../hooks/use-list-query';
import type { PagedList } from '../hooks/use-paged-list';
import { RowMenu, type RowAction } from './RowMenu';
import { ScreenHeader } from './ScreenHeader';
import { CoreAlert } from './CoreText';
import { SettledStatus } from './SettledStatus';

/** The kinds of items a ListScreen lists (their words are the window catalog's `list.<kind>`). */
export type ListKind = 'contacts' | 'phonebooks';

/** Selection mode's state, handed to each row. */
export interface RowSelection {
  /** Selection mode is on (rows show a checkbox, a click selects). */
  on: boolean;
  chosen: boolean;
  toggle: () => void;
}

/** Every row has the same height (two lines), so the virtualizer needs no measuring. */
const ROW_HEIGHT = 60;
/** Rows rendered beyond the visible ones on each side. */
const OVERSCAN = 10;

/**
 * The management screens (phonebooks, contacts): Back, the heading and the main action; search,
 * order and one "More" menu (Import, Export, Select…); then every item as one continuous list
 * that scrolls with the screen (only the rows in view are in the page, their pages asked for as
 * they come into view), rows that fit the narrow window, an empty state with one next step, and
 * — when `onDeleteSelected` is given — a selection mode for deleting several at once.
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
  more = [],
  onDeleteSelected,
  children,
}: {
  titleId: string;
  title: ReactNode;
  back: { to: string; onClick: () => void };
  primary: { label: string; onClick: () => void };
  search: { label: string; placeholder: string };
  query: ReturnType<typeof useListQuery<Ordering>>;
  orderings: readonly { value: Ordering; label: string }[];
  list: PagedList<T>;
  /** What the items are (the words for them come from the catalog's `list.<what>`). */
  what: ListKind;
  /** Shown instead of rows when there are none at all (not for a search without a match). */
  empty: ReactNode;
  renderRow: (item: T, selection: RowSelection) => ReactNode;
  /** The screen's less frequent actions (Import, Export): its "More" menu, with Select. */
  more?: readonly RowAction[];
  /** Bulk delete of the chosen ids (opens the confirmation); none: no selection mode. */
  onDeleteSelected?: (ids: number[], clear: () => void) => void;
  /** Dialogs (editor, confirmation). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [selecting, setSelecting] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const count = list.count;
  const searched = query.query.search.trim();
  const answer =
    count === undefined
      ? ''
      : count > 0
        ? searched
          ? t(`list.${what}.found`, { count, search: searched })
          : t(`list.${what}.count`, { count })
        : searched
          ? t(`list.${what}.noMatch`, { search: searched })
          : '';
  // While a new search (or a reload) is on its way, the rows shown are the last answer's, and so
  // is the sentence: the last count beside the new words said "12 contacts match “an”" where 12
  // matched "a", and a screen reader heard it once the typing paused before the answer came.
  const [answered, setAnswered] = useState(answer);
  if (list.countIsCurrent && answered !== answer) setAnswered(answer);
  const sentence = list.countIsCurrent ? answer : answered;
  const clear = () => setChosen(new Set());
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // A row that had the focus went (deleted): the focus comes to the heading, not to the page.
  useEffect(() => {
    if (document.activeElement === document.body) heading.current?.focus();
  }, [count, heading]);
  const loaded = list.loaded();
  const allChosen = loaded.length > 0 && loaded.every((row) => chosen.has(row.id));
  const menu: RowAction[] = [
    ...more,
    ...(onDeleteSelected
      ? [
          {
            label: selecting ? t('list.done') : t('list.select'),
            apart: more.length > 0,
            run: () => {
              setSelecting((on) => !on);
              clear();
            },
          },
        ]
      : []),
  ];
  return (
    <section className="screen list-screen" aria-labelledby={titleId}>
      <div className="sticky-head">
        <ScreenHeader
          titleId={titleId}
          title={title}
          headingRef={heading}
          back={back}
          action={
            <button type="button" className="primary" onClick={primary.onClick}>
              {primary.label}
            </button>
          }
        />
        <div className="list-tools">
          <input
            type="search"
            aria-label={search.label}
            placeholder={search.placeholder}
            value={query.query.search}
            onChange={(event) => query.setSearch(event.target.value)}
            onKeyDown={(event) => {
              // Esc empties the box first; the next one goes back.
              if (event.key === 'Escape' && query.query.search !== '') {
                event.preventDefault();
                query.setSearch('');
              }
            }}
          />
          <label className="list-order">
            <span className="visually-hidden">{t('list.order')}</span>
            <select
              value={query.query.ordering}
              onChange={(event) => query.setOrdering(event.target.value as Ordering)}
            >
              {orderings.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          {menu.length > 0 ? (
            <RowMenu label={t('list.more')} text={t('common.more')} actions={menu} />
          ) : null}
        </div>
        {onDeleteSelected && selecting ? (
          <div className="list-selection" role="group" aria-label={t('list.selection')}>
            <label className="check">
              <input
                type="checkbox"
                checked={allChosen}
                onChange={(event) =>
                  setChosen((current) => {
                    const next = new Set(current);
                    for (const row of loaded) {
                      if (event.target.checked) next.add(row.id);
                      else next.delete(row.id);
                    }
                    return next;
                  })
                }
              />
              {t('list.allShown', { count: loaded.length })}
            </label>
            <span className="list-selection-count" aria-live="polite">
              {t('list.selected', { count: chosen.size })}
            </span>
            <button type="button" onClick={() => setSelecting(false)}>
              {t('list.done')}
            </button>
            <button
              type="button"
              className="danger"
              disabled={chosen.size === 0}
              onClick={() => onDeleteSelected([...chosen], clear)}
            >
              {t('list.deleteSelected', { count: chosen.size })}
            </button>
          </div>
        ) : null}
      </div>
      <CoreAlert text={list.error?.message} />
      {/* The count, said once the typing in the search pauses (the lines below are for the eye:
          as live regions they were said once per key). */}
      <SettledStatus testId="list-announcer" text={sentence} />
      {count === undefined ? (
        <p aria-busy="true" className="hint">
          {t('common.loading')}
        </p>
      ) : count > 0 ? (
        <>
          <p className="list-count hint small" data-testid="list-count">
            {sentence}
          </p>
          <VirtualRows
            list={list}
            label={t(`list.${what}.label`)}
            render={(item) =>
              renderRow(item, {
                on: selecting,
                chosen: chosen.has(item.id),
                toggle: () => toggle(item.id),
              })
            }
            chosen={chosen}
            onToggle={selecting ? toggle : undefined}
          />
        </>
      ) : searched ? (
        <p className="hint">{sentence}</p>
      ) : (
        <div className="empty-state">{empty}</div>
      )}
      {children}
    </section>
  );
}

/**
 * The rows of a PagedList, virtualised against the screen's scroller (the window's main area:
 * one scrollbar, at the window's edge): only the rows in and near view are in the page, and the
 * pages they need are asked for. ↑/↓ move the focus from row to row, scrolling as they go.
 */
function VirtualRows<T extends { id: number }>({
  list,
  label,
  render,
  chosen,
  onToggle,
}: {
  list: PagedList<T>;
  label: string;
  render: (item: T) => ReactNode;
  chosen: ReadonlySet<number>;
  onToggle: ((id: number) => void) | undefined;
}) {
  const rows = useRef<HTMLUListElement>(null);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  const count = list.count ?? 0;
  // Where the list starts in the scroller (what is above it changes: a call's card, a notice).
  useLayoutEffect(() => {
    const element = rows.current;
    const main = element?.closest<HTMLElement>('.main') ?? null;
    setScroller(main);
    if (!element || !main) return;
    const measure = () => {
      const top =
        element.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop;
      setMargin((before) => (Math.abs(before - top) < 1 ? before : top));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(main.firstElementChild ?? main);
    return () => observer.disconnect();
  }, []);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollMargin: margin,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { want } = list;
  useEffect(() => {
    if (count > 0) want(first, last);
  }, [first, last, count, want]);

  // ↑/↓ from a row's main button to the next row's, scrolling it into view first if needed.
  const focusing = useRef<number | undefined>(undefined);
  const focusRow = (index: number) => {
    const button = rows.current?.querySelector<HTMLElement>(`li[data-index="${index}"] .row-main`);
    if (button) {
      button.focus();
      focusing.current = undefined;
      return true;
    }
    return false;
  };
  useEffect(() => {
    if (focusing.current !== undefined) focusRow(focusing.current);
  });
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (!step || !(event.target instanceof HTMLElement)) return;
    if (!event.target.classList.contains('row-main')) return;
    const at = Number(event.target.closest('li')?.dataset.index);
    const next = at + step;
    if (!Number.isInteger(at) || next < 0 || next >= count) return;
    event.preventDefault();
    if (!focusRow(next)) {
      focusing.current = next;
      virtualizer.scrollToIndex(next, { align: 'auto' });
    }
  };
  return (
    <ul
      ref={rows}
      className="rows virtual-rows"
      aria-label={label}
      aria-busy={list.loading}
      style={{ height: virtualizer.getTotalSize() }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => {
        const entry = list.itemAt(item.index);
        const style = { transform: `translateY(${item.start - margin}px)`, height: item.size };
        if (!entry) {
          return (
            <li
              key={`at-${item.index}`}
              className="row placeholder"
              data-index={item.index}
              aria-hidden="true"
              style={style}
            />
          );
        }
        const isChosen = chosen.has(entry.id);
        return (
          <li
            key={entry.id}
            className={isChosen ? 'row chosen' : 'row'}
            data-index={item.index}
            aria-setsize={count}
            aria-posinset={item.index + 1}
            style={style}
            onClick={onToggle ? () => onToggle(entry.id) : undefined}
          >
            {render(entry)}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * One row of a ListScreen: its title is a button stretched over the row (click or Enter opens or
 * edits; ↑/↓ go to the next row's), a leading picture (initials, an icon), and its actions, shown
 * on hover or focus; in selection mode a checkbox instead, and a click selects.
 */
export function ListRow({
  testId,
  selection,
  name,
  leading,
  title,
  titleAside,
  openLabel,
  onOpen,
  detail,
  actions,
}: {
  testId: string;
  selection: RowSelection;
  /** The item's name, for the checkbox's label. */
  name: string;
  leading?: ReactNode;
  /** The first line (the name, isolated): the main button's words. */
  title: ReactNode;
  /** Beside the title, not part of the button's name (a contact's company). */
  titleAside?: ReactNode;
  /** The main button's accessible name when it is not the title ("Edit Grace Hopper"). */
  openLabel?: string;
  onOpen: () => void;
  /** The second line. */
  detail: ReactNode;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="row-inner" data-testid={testId}>
      {selection.on ? (
        <input
          type="checkbox"
          className="row-check"
          aria-label={t('list.selectName', { name })}
          checked={selection.chosen}
          onChange={selection.toggle}
          onClick={(event) => event.stopPropagation()}
        />
      ) : null}
      {leading}
      <div className="row-text">
        <span className="row-title">
          {selection.on ? (
            title
          ) : (
            <button type="button" className="row-main" aria-label={openLabel} onClick={onOpen}>
              {title}
            </button>
          )}
          {titleAside}
        </span>
        <span className="row-detail">{detail}</span>
      </div>
      {selection.on ? null : <div className="row-actions">{actions}</div>}
    </div>
  );
}

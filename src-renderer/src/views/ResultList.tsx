import { measureElement as measureRow, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, type MouseEvent } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import type { SearchHit } from '../../../src-shared/contract';
import type { ResultRow } from '../store/selectors';
import { Highlight } from '../components/Highlight';
import { Name, PhoneNumber } from '../components/Isolated';

/**
 * A contact's row: its name, then the number Enter dials (with the speed dial), in 56 px; a
 * contact with a second number has a line of its own for it (and the speed dial), 19 px more
 * (`.result` in styles.css: a small line of 16.8 px and the 2 px gap). A number is never cut,
 * so it never shares a line with more than fits; the height follows from the hit alone, not the
 * window's width or language, so the virtualizer measures no contact's row.
 */
const ROW_HEIGHT = 56;
const NUMBER_LINE = 19;
/** Rows rendered beyond the visible ones on each side (each costs render time per answer). */
const OVERSCAN = 3;
/** The list asks for more hits when it shows a row this close to the end of a partial answer. */
const MORE_WITHIN = 12;

export const RESULTS_ID = 'search-results';

export function rowId(index: number): string {
  return `result-${index}`;
}

/**
 * The search results as a listbox driven from the search box (aria-activedescendant): only the
 * rows in view are in the DOM, however many hits there are. A new answer re-renders only the rows
 * whose content changed (Row is memoised on it), reads no layout while it renders (the scroll
 * position it resets is the virtualizer's own, not the element's), and clicks are handled once
 * for the whole list. Near the end of a partial answer it calls `onNearEnd` (more hits).
 */
export function ResultList({
  query,
  rows,
  selected,
  onSelect,
  onDial,
  onNearEnd,
}: {
  /** The query the rows answer. */
  query: string;
  rows: ResultRow[];
  selected: number;
  onSelect: (index: number) => void;
  onDial: (row: ResultRow, secondary: boolean) => void;
  onNearEnd?: () => void;
}) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  // A new answer is new keys: the virtualizer lays its rows out anew (their heights differ). The
  // typed number's row is the one row measured (its sentence wraps): its key is what it shows, so
  // new text is a new row, measured as it mounts, before it is painted.
  const itemKey = useCallback(
    (index: number): string | number => {
      const row = rows[index];
      return row?.kind === 'dial' ? `dial ${row.target.display} ${dialDetail(row)}` : index;
    },
    [rows],
  );
  // The typed number's next row is expected as high as the last one measured (one more digit
  // seldom changes its lines): a measure that matches the estimate asks for no second render of
  // the list, which every digit typed used to cost.
  const dialHeight = useRef(ROW_HEIGHT);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => {
      const row = rows[index];
      if (row?.kind === 'dial') return dialHeight.current;
      return row?.kind === 'hit' && row.hit.shown.secondary_number !== null
        ? ROW_HEIGHT + NUMBER_LINE
        : ROW_HEIGHT;
    },
    // Only the typed number's row is measured (Row's ref), so every measure is its height.
    measureElement: (element, entry, instance) => {
      const height = measureRow(element, entry, instance);
      dialHeight.current = height;
      return height;
    },
    getItemKey: itemKey,
    overscan: OVERSCAN,
  });
  // An answer to another query starts at its top; a moved selection is scrolled into view.
  // Scrolling to an index reads the list's layout, so it is done only when the selection moved.
  const shown = useRef({ query, selected });
  useEffect(() => {
    const before = shown.current;
    shown.current = { query, selected };
    if (before.query !== query) {
      const element = scroller.current;
      if (element && (virtualizer.scrollOffset ?? 0) > 0) element.scrollTop = 0;
    } else if (before.selected !== selected && rows.length > 0) {
      virtualizer.scrollToIndex(selected, { align: 'auto' });
    }
  }, [query, selected, rows.length, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && lastShown >= rows.length - MORE_WITHIN) onNearEnd();
  }, [lastShown, rows.length, onNearEnd]);

  const rowAt = (event: MouseEvent) => {
    const option = (event.target as Element).closest<HTMLElement>('[role="option"]');
    const index = Number(option?.dataset.index ?? NaN);
    return Number.isInteger(index) && rows[index] ? index : undefined;
  };
  return (
    // The scrolling element is the listbox the search box controls (axe's
    // scrollable-region-focusable: a combobox's popup scrolls with the keys of its combobox).
    <div
      ref={scroller}
      id={RESULTS_ID}
      role="listbox"
      aria-label={t('results.label')}
      className="results"
      data-testid="results"
      // Which query the rows answer (a test waits for the answer to the text it typed).
      data-query={query}
      onMouseDown={(event) => {
        if (rowAt(event) !== undefined) event.preventDefault();
      }}
      onClick={(event) => {
        const index = rowAt(event);
        if (index !== undefined) onSelect(index);
      }}
      onDoubleClick={(event) => {
        const index = rowAt(event);
        if (index !== undefined) onDial(rows[index]!, false);
      }}
    >
      <div className="results-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <Row
            key={item.key}
            row={rows[item.index]!}
            index={item.index}
            start={item.start}
            height={item.size}
            count={rows.length}
            selected={item.index === selected}
            measure={virtualizer.measureElement}
          />
        ))}
      </div>
    </div>
  );
}

interface RowProps {
  row: ResultRow;
  index: number;
  start: number;
  height: number;
  count: number;
  selected: boolean;
  measure: (node: HTMLElement | null) => void;
}

/**
 * What the typed number's row says under it: a note, the number a speed dial dials (its name is
 * the row's first line already), its contact, or what the number is.
 */
function dialDetail(row: Extract<ResultRow, { kind: 'dial' }>): string {
  const { target } = row;
  return target.note ?? target.dials_shown ?? target.contact?.display_name ?? target.description;
}

/**
 * One option; re-rendered only when what it shows changed (sameRow). A contact's row has the
 * height its hit gives it; the typed number's row as high as its text (measured).
 */
const Row = memo(function Row({ row, index, start, height, count, selected, measure }: RowProps) {
  const dial = row.kind === 'dial';
  return (
    <div
      id={rowId(index)}
      ref={dial ? measure : undefined}
      data-index={index}
      role="option"
      aria-selected={selected}
      aria-setsize={count}
      aria-posinset={index + 1}
      className={dial ? 'result result-dial' : 'result'}
      style={{ transform: `translateY(${start}px)`, height: dial ? undefined : height }}
    >
      {row.kind === 'dial' ? (
        <DialRow
          display={row.target.display}
          detail={dialDetail(row)}
          speedDial={row.target.kind === 'speed-dial'}
          detailIsNumber={!row.target.note && row.target.dials_shown !== undefined}
        />
      ) : (
        <HitRow hit={row.hit} />
      )}
    </div>
  );
}, sameRow);

/**
 * Two renders of a row show the same: the same place and state, and the same hit (the same
 * contact's same text, the same characters marked), though each answer is a new object.
 */
function sameRow(before: RowProps, after: RowProps): boolean {
  if (
    before.index !== after.index ||
    before.start !== after.start ||
    before.height !== after.height ||
    before.count !== after.count ||
    before.selected !== after.selected
  ) {
    return false;
  }
  if (before.row === after.row) return true;
  if (before.row.kind !== 'hit' || after.row.kind !== 'hit') return false;
  const [a, b] = [before.row.hit, after.row.hit];
  return (
    a.contact.id === b.contact.id &&
    a.contact.display_name === b.contact.display_name &&
    a.contact.company === b.contact.company &&
    a.contact.phonebook_name === b.contact.phonebook_name &&
    a.contact.number === b.contact.number &&
    a.contact.secondary_number === b.contact.secondary_number &&
    a.contact.speed_dial === b.contact.speed_dial &&
    a.shown.number === b.shown.number &&
    a.shown.secondary_number === b.shown.secondary_number &&
    a.dials === b.dials &&
    a.ranges.length === b.ranges.length &&
    a.ranges.every(
      (range, at) =>
        range.field === b.ranges[at]!.field &&
        range.start === b.ranges[at]!.start &&
        range.end === b.ranges[at]!.end,
    )
  );
}

/**
 * The typed number's row; `detail` is a note ("… is also the emergency number"), the number a
 * speed dial dials ("030 1234567", shown as a number), its contact, or what the number is ("This is a premium-rate number in Germany: calls to it cost more."): what
 * Enter does, read whole (its lines wrap; the row is as high as they are). A speed dial's words
 * are a name ("Maximiliane Schwarzenberger-Hohenlohe (speed dial 8104)"), not one number: they
 * wrap as a name does (on one line at 420 px, the code and half the name were cut).
 */
function DialRow({
  display,
  detail,
  speedDial,
  detailIsNumber,
}: {
  display: string;
  detail: string;
  speedDial: boolean;
  /** The detail is the number a speed dial dials, shown as numbers are. */
  detailIsNumber: boolean;
}) {
  return (
    <>
      <span className="result-text result-name">
        <Message
          id="results.dial"
          values={{
            number: speedDial ? <Name>{display}</Name> : <PhoneNumber>{display}</PhoneNumber>,
          }}
        />
      </span>
      <span className="result-text result-detail">
        {detailIsNumber ? <PhoneNumber>{detail}</PhoneNumber> : <Name>{detail}</Name>}
      </span>
    </>
  );
}

/**
 * A contact: its name, company and phonebook, then its numbers as core shows them, each whole.
 * The number Enter dials has the second line: the main one, or, when the search matched the
 * alternative, that one ("Calls alt. …"). The other number, when there is one, has the third,
 * with the speed dial; without one the speed dial follows the number Enter dials.
 */
function HitRow({ hit }: { hit: SearchHit }) {
  const { contact, ranges, shown } = hit;
  const main = (
    <PhoneNumber className={hit.dials === 'number' ? 'result-number' : undefined}>
      <Highlight text={shown.number} field="number" ranges={ranges} />
    </PhoneNumber>
  );
  const alternative =
    shown.secondary_number === null ? null : (
      <PhoneNumber className={hit.dials === 'secondary_number' ? 'result-number' : undefined}>
        <Highlight text={shown.secondary_number} field="secondary_number" ranges={ranges} />
      </PhoneNumber>
    );
  const speedDial =
    contact.speed_dial === null ? null : (
      <span>
        <Message
          id="contacts.speedDial"
          values={{
            speedDial: (
              <PhoneNumber>
                <Highlight text={String(contact.speed_dial)} field="speed_dial" ranges={ranges} />
              </PhoneNumber>
            ),
          }}
        />
      </span>
    );
  return (
    <>
      <span className="result-line">
        <Name className="result-name">
          <Highlight text={contact.display_name} field="display_name" ranges={ranges} />
        </Name>
        {contact.company ? (
          <Name className="result-company">
            <Highlight text={contact.company} field="company" ranges={ranges} />
          </Name>
        ) : null}
        <Name className="result-phonebook">{contact.phonebook_name}</Name>
      </span>
      <span className="result-line result-detail" data-dials={hit.dials}>
        {hit.dials === 'secondary_number' && alternative ? (
          <span className="result-dials">
            <Message id="results.callsAlternative" values={{ number: alternative }} />
          </span>
        ) : (
          main
        )}
        {alternative ? null : speedDial}
      </span>
      {alternative ? (
        <span className="result-line result-detail">
          <span>
            {hit.dials === 'secondary_number' ? (
              <Message id="results.main" values={{ number: main }} />
            ) : (
              <Message id="results.alternative" values={{ number: alternative }} />
            )}
          </span>
          {speedDial}
        </span>
      ) : null}
    </>
  );
}

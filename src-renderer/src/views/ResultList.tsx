import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Message } from '../components/Message';
import type { SearchHit } from '../../../src-shared/contract';
import type { ResultRow } from '../store/selectors';
import { Highlight } from '../components/Highlight';
import { Name, PhoneNumber } from '../components/Isolated';
import { shownText } from './shown-text';

/** Every row has the same height, so the virtualizer needs no measuring. */
const ROW_HEIGHT = 56;

export const RESULTS_ID = 'search-results';

export function rowId(index: number): string {
  return `result-${index}`;
}

/**
 * The search results as a listbox driven from the search box (aria-activedescendant): only the
 * rows in view are in the DOM, however many hits there are.
 */
export function ResultList({
  rows,
  selected,
  onSelect,
  onDial,
}: {
  rows: ResultRow[];
  selected: number;
  onSelect: (index: number) => void;
  onDial: (row: ResultRow, secondary: boolean) => void;
}) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });
  useEffect(() => {
    if (rows.length > 0) virtualizer.scrollToIndex(selected, { align: 'auto' });
  }, [selected, rows.length, virtualizer]);

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
    >
      <div className="results-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              id={rowId(item.index)}
              role="option"
              aria-selected={item.index === selected}
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              className="result"
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onSelect(item.index)}
              onDoubleClick={() => onDial(row, false)}
            >
              {row.kind === 'dial' ? (
                <DialRow
                  display={row.target.display}
                  detail={
                    row.target.note ?? row.target.contact?.display_name ?? row.target.description
                  }
                />
              ) : (
                <HitRow hit={row.hit} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The typed number's row; `detail` is a note ("… is also the emergency number"), its contact, or
 * what the number is ("This is a premium-rate number in Germany: calls to it cost more.").
 */
function DialRow({ display, detail }: { display: string; detail: string }) {
  return (
    <>
      <span className="result-line">
        <span className="result-name">
          <Message id="results.dial" values={{ number: <PhoneNumber>{display}</PhoneNumber> }} />
        </span>
      </span>
      <span className="result-line result-detail" title={shownText(detail)}>
        <Name>{detail}</Name>
      </span>
    </>
  );
}

function HitRow({ hit }: { hit: SearchHit }) {
  const { contact, ranges } = hit;
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
      <span className="result-line result-detail">
        <PhoneNumber className="result-number">
          <Highlight text={contact.number} field="number" ranges={ranges} />
        </PhoneNumber>
        {contact.secondary_number ? (
          <span>
            <Message
              id="results.alternative"
              values={{
                number: (
                  <PhoneNumber>
                    <Highlight
                      text={contact.secondary_number}
                      field="secondary_number"
                      ranges={ranges}
                    />
                  </PhoneNumber>
                ),
              }}
            />
          </span>
        ) : null}
        {contact.speed_dial !== null ? (
          <span>
            <Message
              id="contacts.speedDial"
              values={{
                speedDial: (
                  <PhoneNumber>
                    <Highlight
                      text={String(contact.speed_dial)}
                      field="speed_dial"
                      ranges={ranges}
                    />
                  </PhoneNumber>
                ),
              }}
            />
          </span>
        ) : null}
      </span>
    </>
  );
}

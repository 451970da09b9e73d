/**
 * The felt benchmark's baseline page: a plain `<input>` and `Array.filter` over the same contacts
 * (fetched once from `contacts.json`), rendered by Callbar's own ResultList with the same
 * styles, so the keystroke → paint figure shows what the index and the IPC round trip cost or
 * save next to the simplest thing that could work.
 */
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import { FIRST_LIMIT } from '../../../src-renderer/src/store/directory-slice';
import { resultRows } from '../../../src-renderer/src/store/selectors';
import { ResultList } from '../../../src-renderer/src/views/ResultList';
import '../../../src-renderer/src/styles.css';

const contacts = (await (await fetch('contacts.json')).json()) as DirectoryContact[];
/** Each contact's text, lower-cased once: what a plain filter would search. */
const texts = contacts.map((contact) =>
  [contact.display_name, contact.company, contact.number, contact.secondary_number ?? '']
    .join(' ')
    .toLowerCase(),
);

/**
 * The first contacts whose text holds the query (as many as Callbar's search asks for with a
 * keystroke), in file order; the name's match highlighted.
 */
function filterContacts(query: string): SearchHit[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return [];
  return contacts
    .filter((_, index) => texts[index]!.includes(wanted))
    .slice(0, FIRST_LIMIT)
    .map((contact): SearchHit => {
      const start = contact.display_name.toLowerCase().indexOf(wanted);
      return {
        contact,
        field: 'display_name',
        match: start === 0 ? 'prefix' : 'infix',
        ranges: start >= 0 ? [{ field: 'display_name', start, end: start + wanted.length }] : [],
        shown: { number: contact.number, secondary_number: contact.secondary_number },
        dials: 'number',
      };
    });
}

function Baseline() {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const rows = useMemo(
    () => resultRows({ hits: filterContacts(query), dialRow: undefined, dialAt: 0 }),
    [query],
  );
  return (
    <section className="search">
      <input
        className="search-box"
        aria-label="Search contacts"
        value={query}
        autoFocus
        onChange={(event) => {
          setQuery(event.target.value);
          setSelected(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setQuery('');
        }}
      />
      {query.trim() === '' ? null : rows.length > 0 ? (
        <ResultList
          query={query.trim()}
          rows={rows}
          selected={selected}
          onSelect={setSelected}
          onDial={() => undefined}
        />
      ) : (
        <p className="empty">No contact matches “{query.trim()}”.</p>
      )}
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Baseline />
  </StrictMode>,
);

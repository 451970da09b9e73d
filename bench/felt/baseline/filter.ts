/**
 * The baseline's search: the first contacts whose text (name, company, numbers, lower-cased)
 * holds the query, in file order, as many as a keystroke of Callbar's asks for; the name's match
 * marked. The baseline page runs it in the page; the channel baseline runs it behind a WebSocket
 * in a process of its own (filter-server.ts).
 */
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import { FIRST_LIMIT } from '../../../src-renderer/src/store/directory-slice';

export interface PlainFilter {
  filter(query: string): SearchHit[];
}

export function plainFilter(contacts: readonly DirectoryContact[]): PlainFilter {
  const texts = contacts.map((contact) =>
    [contact.display_name, contact.company, contact.number, contact.secondary_number ?? '']
      .join(' ')
      .toLowerCase(),
  );
  return {
    filter(query) {
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
            ranges:
              start >= 0 ? [{ field: 'display_name', start, end: start + wanted.length }] : [],
            shown: { number: contact.number, secondary_number: contact.secondary_number },
            dials: 'number',
          };
        });
    },
  };
}

/**
 * Exports a phonebook's contacts, or every visible phonebook's, as CSV or vCard 4.0: streamed,
 * one piece of text per contact as the platform's pages arrive, so an export of any size holds one
 * page in memory. Contacts come in number order (unique in a phonebook), so two exports of the
 * same contacts are the same text.
 */
import type { PhonebookApi } from '../api/phonebook-api';
import { csvHeading, csvLines } from './contact-csv';
import { recordOf } from './contact-record';
import { vcardOf } from './contact-vcard';

export type ExportFormat = 'csv' | 'vcard';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'vcard'];

export interface ExportOptions {
  format: ExportFormat;
  /** One phonebook; without it, every phonebook the user can see (CSV gains a Phonebook column). */
  phonebook?: number;
  /** Called for each contact written (a count for the summary). */
  onContact?: () => void;
}

/** Asked for; the platform may give fewer a page. */
const PAGE_SIZE = 1000;

/**
 * The export as pieces of text. The phonebook is looked up first, so a wrong id fails before
 * anything is written.
 */
export async function* exportContacts(
  api: PhonebookApi,
  options: ExportOptions,
): AsyncGenerator<string> {
  const books =
    options.phonebook === undefined
      ? api.allPhonebooks({ ordering: 'description', page_size: PAGE_SIZE })
      : single(await api.getPhonebook(options.phonebook));
  const all = options.phonebook === undefined;
  if (options.format === 'csv') yield csvHeading(all);
  for await (const book of books) {
    const contacts = api.allContacts({
      phonebook: book.id,
      ordering: 'number',
      page_size: PAGE_SIZE,
    });
    for await (const contact of contacts) {
      const record = recordOf(contact);
      options.onContact?.();
      yield options.format === 'csv'
        ? csvLines([record], all ? book.description : undefined)
        : vcardOf(record);
    }
  }
}

async function* single<T>(item: T): AsyncGenerator<T> {
  yield await Promise.resolve(item);
}

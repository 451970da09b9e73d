/**
 * Exports a phonebook's contacts, or every visible phonebook's, as CSV or vCard 4.0: streamed,
 * one piece of text per contact as the platform's pages arrive, so an export of any size holds one
 * page in memory. Contacts come in number order (unique in a phonebook), so two exports of the
 * same contacts are the same text. Every list is walked as page-walk.ts walks it (a total order,
 * the platform's page size, each contact once, checked against the count): a phonebook that
 * gives fewer contacts than it counts, even walked again, stops the export, saying which.
 */
import { IncompleteListError } from '../api/page-walk';
import type { PhonebookApi } from '../api/phonebook-api';
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';
import { CSV_FILE_MARK } from '../text/spreadsheet-csv';
import { csvHeading, csvLines } from './contact-csv';
import { recordOf } from './contact-record';
import { vcardOf } from './contact-vcard';

export type ExportFormat = 'csv' | 'vcard';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'vcard'];

export interface ExportOptions {
  format: ExportFormat;
  /** One phonebook; without it, every phonebook the user can see (CSV gains a Phonebook column). */
  phonebook?: number;
  /**
   * A CSV begins with UTF-8's byte-order mark (U+FEFF), for a file: Excel opens a CSV without it
   * as the computer's "ANSI" code page, so "Müller" shows as "MÃ¼ller". Callbar's import, and
   * other programs reading CSV UTF-8, skip it. Not for a pipe.
   */
  byteOrderMark?: boolean;
  /** Called for each contact written (a count for the summary). */
  onContact?: () => void;
}

/**
 * An export that stopped because a phonebook gave fewer contacts than it counted: `why` is that,
 * as a phrase (for a writer that says more than "nothing was saved": a pipe got part of it).
 */
export class ExportIncompleteError extends CallbarError {
  readonly why: Said;

  constructor(why: Said) {
    super('export_incomplete', said('errors:export.incomplete', { why }));
    this.name = 'ExportIncompleteError';
    this.why = why;
  }
}

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
      ? api.allPhonebooks({ ordering: 'description' })
      : single(await api.getPhonebook(options.phonebook));
  const all = options.phonebook === undefined;
  if (options.format === 'csv')
    yield `${options.byteOrderMark ? CSV_FILE_MARK : ''}${csvHeading(all)}`;
  for await (const book of books) {
    const contacts = api.allContacts({ phonebook: book.id, ordering: 'number' });
    try {
      for await (const contact of contacts) {
        const record = recordOf(contact);
        options.onContact?.();
        yield options.format === 'csv'
          ? csvLines([record], all ? book.description : undefined)
          : vcardOf(record);
      }
    } catch (error) {
      if (!(error instanceof IncompleteListError)) throw error;
      throw new ExportIncompleteError(error.ofPhonebook(book.description));
    }
  }
}

async function* single<T>(item: T): AsyncGenerator<T> {
  yield await Promise.resolve(item);
}

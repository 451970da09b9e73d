/**
 * One full sync: every visible phonebook, then each phonebook's contacts page by page following
 * `next` (asking for large pages, never assuming the platform honours the size), a few phonebooks
 * at a time, every request paced under the rate limit. A 429 waits for Retry-After and goes on;
 * any other failure, or cancellation, ends the sync with nothing applied (the caller keeps its
 * previous directory).
 */
import type { DirectoryContact, SyncProgress } from '../../../src-preload/contract';
import { ProtocolError, RateLimitedError } from '../api/api-errors';
import type { PhonebookApi } from '../api/phonebook-api';
import type { Contact, Page } from '../api/schemas';
import type { Clock } from '../clock';
import type { RequestPacer } from './request-pacer';

/** What the index needs of a phonebook. */
export interface PhonebookSummary {
  id: number;
  description: string;
  priority: number;
}

export interface FetchedDirectory {
  phonebooks: PhonebookSummary[];
  contacts: DirectoryContact[];
  /** Requests sent (each page once, plus the pages sent again after a 429). */
  requests: number;
}

export interface SyncOptions {
  phonebooks: PhonebookApi;
  pacer: RequestPacer;
  /** The clock a 429's Retry-After is waited on (the pacer's). */
  clock: Clock;
  signal: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
  /** Asked for; the platform may give fewer (the contract does not show its maximum). */
  pageSize?: number;
  /** Phonebooks walked at the same time. */
  concurrency?: number;
  /** 429s in a row on one page before the sync gives up. */
  maxRateLimitWaits?: number;
}

const PAGE_SIZE = 1000;
const CONCURRENCY = 2;
const MAX_RATE_LIMIT_WAITS = 5;
const CONTACTS_ENDPOINT = 'GET /v3/phonebook/contact/';

export function toDirectoryContact(contact: Contact, phonebookName: string): DirectoryContact {
  return {
    id: contact.id,
    phonebook: contact.phonebook,
    phonebook_name: phonebookName,
    display_name: contact.display_name,
    company: contact.company,
    number: contact.number,
    secondary_number: contact.secondary_number,
    speed_dial: contact.speed_dial ?? null,
  };
}

export async function fetchDirectory(options: SyncOptions): Promise<FetchedDirectory> {
  const { phonebooks: api, pacer, clock, signal } = options;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const maxWaits = options.maxRateLimitWaits ?? MAX_RATE_LIMIT_WAITS;
  let requests = 0;

  /** One paced request; a 429 waits for Retry-After (cancellable) and sends it again. */
  const paced = async <T>(send: () => Promise<T>): Promise<T> => {
    for (let waits = 0; ; waits++) {
      signal.throwIfAborted();
      await pacer.take(signal);
      requests++;
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof RateLimitedError) || waits >= maxWaits) throw error;
        await clock.sleep(error.retryAfterMs, signal);
      }
    }
  };

  // Phonebooks: one page in practice; the generator follows `next` if there are more.
  const books: PhonebookSummary[] = await paced(async () => {
    const all: PhonebookSummary[] = [];
    for await (const book of api.allPhonebooks({ page_size: pageSize })) {
      all.push({ id: book.id, description: book.description, priority: book.priority });
    }
    return all;
  });

  const progress: Required<SyncProgress> = {
    phonebooks_done: 0,
    phonebooks_total: books.length,
    contacts: 0,
    contacts_total: 0,
  };
  const report = () => options.onProgress?.({ ...progress });
  report();

  const contacts = new Map<number, DirectoryContact>();
  const walk = async (book: PhonebookSummary) => {
    let page: Page<Contact> = await paced(() =>
      api.listContacts({ phonebook: book.id, page_size: pageSize }),
    );
    progress.contacts_total += page.count;
    const seen = new Set<string>();
    for (;;) {
      for (const contact of page.results) {
        if (!contacts.has(contact.id)) progress.contacts++;
        contacts.set(contact.id, toDirectoryContact(contact, book.description));
      }
      report();
      const next = page.next;
      if (!next) break;
      if (seen.has(next))
        throw new ProtocolError(CONTACTS_ENDPOINT, 'the next page link repeats', 'next');
      seen.add(next);
      page = await paced(() => api.contactsPageAt(next));
    }
    progress.phonebooks_done++;
    report();
  };

  const queue = [...books];
  const worker = async () => {
    for (let book = queue.shift(); book; book = queue.shift()) await walk(book);
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency ?? CONCURRENCY, queue.length) }, worker),
  );
  signal.throwIfAborted();
  return { phonebooks: books, contacts: [...contacts.values()], requests };
}

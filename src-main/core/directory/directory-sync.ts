/**
 * One full sync: every visible phonebook, then each phonebook's contacts page by page following
 * `next`, a few phonebooks at a time, every request paced under the rate limit. The pages are
 * walked as page-walk.ts walks every list: in a total order (by number, unique in a phonebook), at
 * the largest page size the platform takes (learnt from a 400 naming page_size, or from the pages
 * it sends), and checked against each phonebook's count: short of it the phonebook is walked
 * again, and still short, the sync fails naming every phonebook that came incomplete (the
 * previous directory stays). A 429 teaches the pacer the platform's
 * limit (see request-pacer.ts), waits for Retry-After and goes on;
 * a phonebook deleted while the sync runs (the platform refuses the `phonebook` filter with 400
 * invalid_choice, on its first page or a later one) is skipped, its contacts dropped and the rest
 * kept (but every phonebook refused so fails the sync); any other failure, or cancellation, ends the sync with nothing applied (the caller keeps
 * its previous directory).
 *
 * Whatever the platform sends, a sync is bounded: each phonebook's walk by PageBounds (no more
 * pages than its count implies, plus a little), the whole directory by SYNC_LIMITS' contacts and
 * characters of text (each field is already capped by the schemas), and the sync by its deadline. Past a bound the sync fails with a sentence saying which, and the previous
 * directory stays.
 */
import type { DirectoryContact, SyncProgress } from '../../../src-shared/contract';
import { RateLimitedError } from '../api/api-errors';
import { MAX_WALK_ITEMS } from '../api/page-bounds';
import { IncompleteListError, type WalkStep } from '../api/page-walk';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import { CallbarError } from '../errors';
import { UnknownPhonebookError, type PhonebookApi } from '../api/phonebook-api';
import type { Contact } from '../api/schemas';
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
  /** Phonebooks listed at the start but deleted before their walk ended: skipped. */
  vanished: PhonebookSummary[];
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
  /** The bounds of one sync (defaults: SYNC_LIMITS). */
  limits?: Partial<SyncLimits>;
  /**
   * Every phonebook walked, complete by its count, while some walks still ask about their page
   * boundaries (page-walk.ts): the directory as walked, to search meanwhile. The sync then lets
   * those walks ask (and walk again where the list moved) and resolves with what they give.
   */
  onWalked?: (walked: Pick<FetchedDirectory, 'phonebooks' | 'contacts'>) => void;
}

export interface SyncLimits {
  /** Contacts in the whole directory. */
  maxContacts: number;
  /** Characters of text (names, companies, numbers, phonebook names) in the whole directory. */
  maxChars: number;
  /** Time a sync may take, on the sync's clock (429 waits included). */
  deadlineMs: number;
}

/**
 * Twice the 100,000 contacts the bench measures; ~100 characters a contact on average (a name,
 * a company, two numbers and the phonebook's name); 30 minutes, more than the largest sync takes
 * in pages of 100 at the sync's 100 requests a minute (200,000 contacts: 2,000 pages, 20 minutes).
 */
export const SYNC_LIMITS: SyncLimits = {
  maxContacts: MAX_WALK_ITEMS,
  maxChars: 20_000_000,
  deadlineMs: 30 * 60_000,
};

const PAGE_SIZE = 1000;
const CONCURRENCY = 2;
const MAX_RATE_LIMIT_WAITS = 5;

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

/**
 * A contact saved through Callbar as the directory holds it, in its phonebook of `phonebooks`
 * (one the directory does not know yet is named by its id).
 */
export function savedContact(
  contact: Contact,
  phonebooks: readonly PhonebookSummary[],
): DirectoryContact {
  const book = phonebooks.find((entry) => entry.id === contact.phonebook);
  return toDirectoryContact(
    contact,
    book?.description ??
      inEnglish(said('errors:directory.phonebookFallback', { id: contact.phonebook })),
  );
}

export async function fetchDirectory(options: SyncOptions): Promise<FetchedDirectory> {
  const { phonebooks: api, pacer } = options;
  // Every 429 of the phonebook scope (the client's own retries included), and every limit the
  // platform announces (RateLimit-Policy), is told to the pacer, which learns from what looks like
  // the platform's limit.
  const stopLearning = api.onRateSignal((signal) => {
    if (signal.policy) void pacer.learnPolicy(signal.policy);
    if (signal.refused) void pacer.learnFromRefusal(signal);
  });
  try {
    return await walkDirectory(options);
  } finally {
    stopLearning();
  }
}

async function walkDirectory(options: SyncOptions): Promise<FetchedDirectory> {
  const { phonebooks: api, pacer, clock, signal } = options;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const maxWaits = options.maxRateLimitWaits ?? MAX_RATE_LIMIT_WAITS;
  const limits = { ...SYNC_LIMITS, ...options.limits };
  const deadline = clock.now() + limits.deadlineMs;
  let requests = 0;
  let chars = 0;
  /** The first walk's failure: the other walks stop at their next request. */
  let failure: Error | undefined;

  /** One paced request; a 429 waits for Retry-After (cancellable) and sends it again. */
  const paced = async <T>(send: () => Promise<T>): Promise<T> => {
    for (let waits = 0; ; waits++) {
      signal.throwIfAborted();
      if (failure) throw failure;
      if (clock.now() > deadline) throw beyondBound(tookLonger(limits.deadlineMs));
      await pacer.take(signal);
      requests++;
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof RateLimitedError) || waits >= maxWaits) throw error;
        // A wait past the sync's deadline would end in its refusal: the platform's wait is said now.
        if (clock.now() + error.retryAfterMs > deadline) throw error;
        await clock.sleep(error.retryAfterMs, signal);
      }
    }
  };

  const walking = { pageSize, send: paced, maxItems: limits.maxContacts };
  // Phonebooks: one page in practice; the walk follows `next` if there are more.
  const books: PhonebookSummary[] = [];
  for await (const book of api.allPhonebooks({}, walking)) {
    books.push({ id: book.id, description: book.description, priority: book.priority });
  }

  const progress: Required<Omit<SyncProgress, 'checking'>> & SyncProgress = {
    phonebooks_done: 0,
    phonebooks_total: books.length,
    contacts: 0,
    contacts_total: 0,
  };
  const report = () => options.onProgress?.({ ...progress });
  report();

  const contacts = new Map<number, DirectoryContact>();
  const vanished: PhonebookSummary[] = [];
  /** Drops what a vanished phonebook's walk had taken: its contacts and its count. */
  const dropWalk = (book: PhonebookSummary, counted: number) => {
    for (const [id, entry] of contacts) {
      if (entry.phonebook !== book.id) continue;
      contacts.delete(id);
      chars -= textLength(entry);
      progress.contacts--;
    }
    progress.contacts_total -= counted;
    progress.phonebooks_total--;
    vanished.push(book);
    report();
  };
  /** Phonebooks that gave fewer contacts than they counted, walked again and again. */
  const incomplete: Said[] = [];
  /** Walks held where they would ask about their boundaries (onWalked), to go on after it. */
  const held: PhonebookWalk[] = [];
  const walk = async (one: PhonebookWalk, mayHold: boolean) => {
    try {
      await walkPages(one, mayHold);
    } catch (error) {
      if (error instanceof IncompleteListError) {
        incomplete.push(error.ofPhonebook(one.book.description));
        return;
      }
      if (!(error instanceof UnknownPhonebookError)) throw error;
      dropWalk(one.book, one.counted ?? 0);
    }
  };
  const walkPages = async (one: PhonebookWalk, mayHold: boolean) => {
    for (let next = await one.steps.next(); !next.done; next = await one.steps.next()) {
      const step = next.value;
      if (step.checking) {
        if (!mayHold) continue;
        held.push(one);
        return;
      }
      // The total follows the platform's latest count of the phonebook.
      progress.contacts_total += step.count - (one.counted ?? 0);
      one.counted = step.count;
      for (const contact of step.items) {
        const previous = contacts.get(contact.id);
        if (previous) chars -= textLength(previous);
        else progress.contacts++;
        const entry = toDirectoryContact(contact, one.book.description);
        chars += textLength(entry);
        contacts.set(contact.id, entry);
      }
      if (contacts.size > limits.maxContacts) {
        throw beyondBound(said('errors:directory.moreContacts', { max: limits.maxContacts }));
      }
      if (chars > limits.maxChars) {
        throw beyondBound(said('errors:directory.moreText', { max: limits.maxChars }));
      }
      report();
    }
    progress.phonebooks_done++;
    report();
  };

  /** Each walk to its end (or where it is held), a few at a time. */
  const walkAll = async (walks: PhonebookWalk[], mayHold: boolean) => {
    const worker = async () => {
      try {
        for (let one = walks.shift(); one; one = walks.shift()) await walk(one, mayHold);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
        throw error;
      }
    };
    const workers = Math.min(options.concurrency ?? CONCURRENCY, walks.length);
    await Promise.all(Array.from({ length: workers }, worker));
  };
  const walks = books.map((book): PhonebookWalk => {
    const steps = api.walkContacts({ phonebook: book.id }, walking)[Symbol.asyncIterator]();
    return { book, steps };
  });
  await walkAll(walks, options.onWalked !== undefined);
  if (held.length > 0) {
    signal.throwIfAborted();
    if (incomplete.length === 0) {
      options.onWalked?.(directoryOf(books, vanished, contacts));
      progress.checking = true;
      report();
    }
    await walkAll(held.splice(0), false);
  }
  signal.throwIfAborted();
  // A phonebook holding fewer contacts than the platform counted is no complete directory.
  if (incomplete.length > 0) {
    throw new CallbarError(
      'sync_incomplete',
      said('errors:directory.incomplete', { phonebooks: { joined: incomplete, by: '; ' } }),
    );
  }
  // Every phonebook refused is no deletion to believe: the previous directory stays.
  if (books.length > 1 && vanished.length === books.length) {
    throw new CallbarError('sync_failed', said('errors:directory.everyPhonebookUnknown'));
  }
  return { ...directoryOf(books, vanished, contacts), requests, vanished };
}

/** One phonebook's walk: its pages to come, and its count as the last page gave it. */
interface PhonebookWalk {
  book: PhonebookSummary;
  steps: AsyncIterator<WalkStep<Contact>>;
  counted?: number;
}

/** The directory the walks gave: the phonebooks not deleted meanwhile, and their contacts. */
function directoryOf(
  books: readonly PhonebookSummary[],
  vanished: readonly PhonebookSummary[],
  contacts: ReadonlyMap<number, DirectoryContact>,
): Pick<FetchedDirectory, 'phonebooks' | 'contacts'> {
  return {
    phonebooks: books.filter((book) => !vanished.includes(book)),
    contacts: [...contacts.values()],
  };
}

/** The characters of text one contact adds to the directory. */
function textLength(contact: DirectoryContact): number {
  return (
    contact.display_name.length +
    contact.company.length +
    contact.number.length +
    (contact.secondary_number?.length ?? 0) +
    contact.phonebook_name.length
  );
}

/** A sync stopped at one of its bounds. */
function beyondBound(why: Said): CallbarError {
  return new CallbarError('sync_limit', said('errors:directory.syncLimit', { why }));
}

/** "it took longer than 15 minutes" (or seconds, for a bound under a minute). */
function tookLonger(ms: number): Said {
  return ms >= 60_000
    ? said('errors:directory.tookLongerMinutes', { minutes: Math.round(ms / 60_000) })
    : said('errors:directory.tookLongerSeconds', { seconds: Math.round(ms / 1000) });
}

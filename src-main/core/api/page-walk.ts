/**
 * Walking a paginated list of the platform (phonebooks, contacts) to its end, complete or said
 * so: the one walk the directory sync, the import, the export and the CLI's `--all` lists share.
 *
 * - Order: the list is asked for in a total order on a unique key (totalOrder): a platform that
 *   pages with LIMIT/OFFSET over an order with ties (PostgreSQL's, without a tie-break) may put
 *   a row on two pages and another on none.
 * - Count: what came (each item once, by id) is checked against the platform's `count`; short of
 *   it, the list is walked again (up to MAX_WALKS walks in all, each adding what the others
 *   missed), and still short, the walk throws IncompleteListError: never a complete list on less.
 *   A walk whose count changed from one page to the next is of a list that moved under it (a
 *   deletion shifts every later item onto the page before, one of them past the walk, while the
 *   count drops to what came): it is walked again whatever came. So is one whose next page is
 *   gone (a 404: the list shrank under the walk).
 * - Boundaries: a coworker who deletes a contact already read and adds another between the
 *   reading of two pages leaves the count as it was, while the list slid a place up under the
 *   walk and one contact fell between the two pages. A walk that looks complete asks, for each
 *   such exposed boundary, for the one item before the later page (page_size 1): still the last
 *   item of the page before, or the list moved and is walked again. A boundary is exposed when
 *   its two pages were read EXPOSED_MS or more apart (from the earlier's request to the later's
 *   answer, the walk's waits included): two changes one after the other, each a request to the
 *   platform, do not fit in less, and asking about every boundary doubled the requests of a
 *   list of small pages (a sync of 8,700 contacts in pages of 100 under a rate limit of 100 a
 *   minute: 0.3 s became 61 s). A platform that answers such a question with more than one item
 *   (or refuses it) is believed on its count, as is the last walk. Before it asks, the walk hands
 *   on a `checking` step, where its consumer may hold it (the sync shows the directory as walked
 *   while the questions wait their turn under the rate limit).
 * - Page size: the size asked for is the caller's, or the largest this platform was found to
 *   take (PageSizes): a 400 naming `page_size` is retried at once with the size it allows (or half
 *   the size, when it names none), and a first page shorter than asked that links to a next one
 *   teaches the size the platform keeps to (from REMEMBERED_PAGE_SIZE_FLOOR up: a page of five
 *   is no limit worth asking by).
 * - Links: `next` is resolved against the URL of the page that carried it (RFC 3986: `?page=2`
 *   is that page's path with another query), and followed only under the base URL (the token
 *   goes nowhere else); PageBounds stops a walk that never ends.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { fileFormat } from '../config/file-format';
import { profileStateFile, type StateFile } from '../config/state-file';
import { CallbarError } from '../errors';
import { directoryUrl } from '../http/directory-url';
import type { Logger } from '../log/logger';
import { said, type Said } from '../text/said';
import { ApiError, ProtocolError } from './api-errors';
import { PageBounds } from './page-bounds';
import type { Page } from './schemas';

/** Walks of one list before it is called incomplete. */
export const MAX_WALKS = 3;

/** A page's request: a path under the base URL and its query. */
export interface PageRequest {
  path: string;
  searchParams: Record<string, string>;
}

/** Sends one request (the sync paces it and waits out a 429 in here); default: at once. */
export type PageSender = <R>(request: () => Promise<R>) => Promise<R>;

export interface ListWalk<T> {
  /** GETs one page of the list. */
  page: (request: PageRequest) => Promise<Page<T>>;
  baseUrl: string;
  /** The list's path under the base URL, e.g. `v3/phonebook/contact/`. */
  path: string;
  /** Filters and ordering (a total one: totalOrder); no `page`, no `page_size`. */
  query: Record<string, string | number | undefined>;
  /** The page size wanted; the platform's largest, if smaller, is asked for. */
  pageSize: number;
  sizes: PageSizes;
  /** Items one walk brings at most (PageBounds). */
  maxItems?: number;
  maxWalks?: number;
  send?: PageSender;
  /** How far apart two pages' reading exposes their boundary (EXPOSED_MS). */
  exposedMs?: number;
}

/** One page as a walk hands it on. */
export interface WalkStep<T> {
  /** The page's items not handed on before (each item once, however many walks). */
  items: T[];
  /** The platform's count, as this page gave it. */
  count: number;
  /** The walk this page is of: 1, then 2 and on when fewer came than were counted. */
  walk: number;
  /**
   * No page: the walk looks complete by the count, and what follows asks about its exposed
   * boundaries (and walks again if the list moved). A consumer may hold the walk here and go on
   * with other work first (the sync shows a first directory meanwhile).
   */
  checking?: true;
}

/**
 * A list that held fewer items than the platform counted, walked MAX_WALKS times; or (`moved`)
 * one whose count changed under every walk, so that no walk read it whole.
 */
export class IncompleteListError extends CallbarError {
  readonly received: number;
  readonly counted: number;
  readonly walks: number;
  readonly moved: boolean;

  constructor(endpoint: string, received: number, counted: number, walks: number, moved = false) {
    super(
      'list_incomplete',
      moved
        ? said('errors:platformAnswer.listMoved', { endpoint, walks })
        : said('errors:platformAnswer.listIncomplete', { endpoint, received, counted, walks }),
    );
    this.name = 'IncompleteListError';
    this.received = received;
    this.counted = counted;
    this.walks = walks;
    this.moved = moved;
  }

  /** The same, said of one phonebook's contacts (a phrase, for the caller's sentence). */
  ofPhonebook(name: string): Said {
    if (this.moved) return said('errors:phonebooks.listMoved', { name, walks: this.walks });
    return said('errors:phonebooks.listIncomplete', {
      name,
      received: this.received,
      counted: this.counted,
      walks: this.walks,
    });
  }
}

/**
 * `ordering` completed into a total order by `unique` (the fields that together identify an
 * item), each unique field not already in it added at the end: `display_name` with
 * `['number']` is `display_name,number`; none is `number`.
 */
export function totalOrder(ordering: string | undefined, unique: readonly string[]): string {
  const terms = (ordering ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  const named = new Set(terms.map((term) => term.replace(/^-/, '')));
  return [...terms, ...unique.filter((field) => !named.has(field))].join(',');
}

/**
 * The request a `next` link points to, resolved against the URL of the page that carried it
 * (RFC 3986), and refused unless it stays under the base URL: following it elsewhere would send
 * the user's token to another server.
 */
export function nextRequest(
  next: string,
  from: PageRequest,
  baseUrl: string,
  endpoint: string,
): PageRequest {
  const base = directoryUrl(baseUrl);
  const url = new URL(next, requestUrl(from, baseUrl));
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw new ProtocolError(endpoint, `the next page link points outside ${base.origin}`, 'next');
  }
  return {
    path: url.pathname.slice(base.pathname.length),
    searchParams: Object.fromEntries(url.searchParams),
  };
}

/** The absolute URL of a page's request. */
export function requestUrl(request: PageRequest, baseUrl: string): URL {
  const url = new URL(request.path, directoryUrl(baseUrl));
  url.search = new URLSearchParams(request.searchParams).toString();
  return url;
}

/**
 * The page size to ask for after `asked` was refused with `error`, when that is a 400 naming
 * `page_size`: the largest smaller size its detail names ("Ensure this value is less than or
 * equal to 50."), else half the size. Undefined for any other error, or below 1.
 */
export function refusedPageSize(error: unknown, asked: number): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const item = error.errors.find((each) => each.attr === 'page_size');
  if (!item) return undefined;
  const named = [...item.detail.matchAll(/\d+/g)]
    .map((match) => Number(match[0]))
    .filter((size) => size >= 1 && size < asked);
  if (named.length > 0) return Math.max(...named);
  return asked > 1 ? Math.floor(asked / 2) : undefined;
}

/** Every item of a list, each once, complete or an IncompleteListError (see the module). */
export async function* walkList<T extends { id: number }>(
  list: ListWalk<T>,
): AsyncGenerator<WalkStep<T>> {
  const endpoint = `GET /${list.path}`;
  const send: PageSender = list.send ?? ((request) => request());
  const maxWalks = list.maxWalks ?? MAX_WALKS;
  const seen = new Set<number>();
  const query = Object.fromEntries(
    Object.entries(list.query).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, String(value)]],
    ),
  );
  for (let walk = 1; ; walk++) {
    const bounds = new PageBounds(endpoint, list.maxItems);
    // When the page now read was asked for.
    let asked = performance.now();
    let { page, request } = await firstPage(list, query, send);
    let counted: number | undefined;
    // The list moved under this walk (its count changed from page to page): an item taken off
    // a page already read moved every later item a place up, and the first of the next page
    // onto the page read before, where no page of this walk holds it.
    let moved = false;
    // Where each page after the first begins, and the item just before it, when exposed.
    const boundaries: Boundary[] = [];
    let position = 0;
    for (;;) {
      bounds.check(page);
      if (counted !== undefined && page.count !== counted) moved = true;
      counted = page.count;
      const items = page.results.filter((item) => !seen.has(item.id));
      for (const item of items) seen.add(item.id);
      yield { items, count: page.count, walk };
      if (!page.next) break;
      position += page.results.length;
      const last = page.results.at(-1);
      const next = nextRequest(page.next, request, list.baseUrl, endpoint);
      request = next;
      const before = asked;
      asked = performance.now();
      try {
        page = await send(() => list.page(next));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        moved = true;
        break;
      }
      if (last && performance.now() - before >= (list.exposedMs ?? EXPOSED_MS)) {
        boundaries.push({ position, id: last.id });
      }
    }
    // The last walk is not asked about its boundaries: a platform that orders ties anew at every
    // query (asked for a total order it does not keep) would never pass, while the walks
    // together may have brought every item, as its count says.
    if (!moved && seen.size >= counted) {
      if (walk >= maxWalks || boundaries.length === 0) return;
      yield { items: [], count: counted, walk, checking: true };
      if (await boundariesHold(list, query, boundaries, counted, send)) return;
      continue;
    }
    if (walk >= maxWalks) {
      throw new IncompleteListError(endpoint, seen.size, counted, walk, moved);
    }
  }
}

/**
 * How far apart the reading of two pages leaves room for two changes to the list between them,
 * one after the other (see the module): a request each to the platform, a coworker's or a
 * tool's, takes tens of milliseconds at least.
 */
export const EXPOSED_MS = 100;

/** A page boundary of a walk: the page after it began at `position`, after item `id`. */
interface Boundary {
  position: number;
  id: number;
}

/**
 * Whether the list still holds, at each boundary, the item that ended the page before it (see
 * the module): asked one item at a time, in the walk's order. A list whose count changed, or
 * that no longer reaches a boundary, moved. A platform that does not keep to page_size 1 (more
 * than one item, or none), or refuses it (400), cannot be asked so: the count alone decides.
 */
async function boundariesHold<T extends { id: number }>(
  list: ListWalk<T>,
  query: Record<string, string>,
  boundaries: readonly Boundary[],
  counted: number,
  send: PageSender,
): Promise<boolean> {
  for (const boundary of boundaries) {
    const request = {
      path: list.path,
      searchParams: { ...query, page_size: '1', page: String(boundary.position) },
    };
    let page: Page<T>;
    try {
      page = await send(() => list.page(request));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return false;
      if (error instanceof ApiError && error.status === 400) return true;
      throw error;
    }
    if (page.count !== counted) return false;
    // More than one item, or none where a list of `counted` must hold one: a platform that does
    // not keep to page_size 1 (its own page of that number), which cannot be asked so.
    if (page.results.length !== 1) return true;
    if (page.results[0]!.id !== boundary.id) return false;
  }
  return true;
}

/** Every item of a list, each once (walkList without its pages). */
export async function* walkItems<T extends { id: number }>(list: ListWalk<T>): AsyncGenerator<T> {
  for await (const step of walkList(list)) yield* step.items;
}

/** A walk's first page, at the largest page size the platform takes (see the module). */
async function firstPage<T>(
  list: ListWalk<T>,
  query: Record<string, string>,
  send: PageSender,
): Promise<{ page: Page<T>; request: PageRequest }> {
  for (;;) {
    const size = await list.sizes.fit(list.pageSize);
    const request = { path: list.path, searchParams: { ...query, page_size: String(size) } };
    try {
      const page = await send(() => list.page(request));
      // A short first page that links to another: the platform keeps pages to this size (one
      // too short to be a limit, below the floor, is the platform's whim and teaches nothing).
      const kept = page.results.length;
      if (page.next !== null && kept >= REMEMBERED_PAGE_SIZE_FLOOR && kept < size) {
        await list.sizes.learn(kept);
      }
      return { page, request };
    } catch (error) {
      const smaller = refusedPageSize(error, size);
      if (smaller === undefined) throw error;
      await list.sizes.learn(smaller);
    }
  }
}

/** What was learnt of a platform's largest page size. */
export const LearntPageSize = z.object({
  base_url: z.string(),
  page_size: z.number().int().min(1),
  learnt_at: z.string(),
});
export type LearntPageSize = z.infer<typeof LearntPageSize>;

/** `page-size.json`: version 1. */
export const LearntPageSizeFile = fileFormat({ version: 1, content: LearntPageSize });

/** The profile's file of the learnt page size. */
export const PAGE_SIZE_FILE = 'page-size.json';

/** The learnt page size of the profile in `dataDir`, shared by its processes. */
export function pageSizeFile(dataDir: string, log: Logger): StateFile<LearntPageSize> {
  return profileStateFile(
    join(dataDir, PAGE_SIZE_FILE),
    LearntPageSizeFile,
    log,
    'learnt page size',
  );
}

/** How long a learnt page size holds: then the larger size is asked for again (it may have grown). */
export const PAGE_SIZE_LIFETIME_MS = 24 * 60 * 60_000;

/**
 * Nothing read back from the file goes below this (a planted file cannot make syncs crawl in
 * pages of one), nor anything learnt from the length of a page; what a 400 says in this process
 * is believed whatever it is.
 */
export const REMEMBERED_PAGE_SIZE_FLOOR = 10;

/**
 * The largest page size one platform (its base URL) takes, as learnt in this process and kept in
 * the profile (`memory`) for its other processes, for PAGE_SIZE_LIFETIME_MS.
 */
export class PageSizes {
  readonly #baseUrl: string;
  readonly #memory: StateFile<LearntPageSize> | undefined;
  readonly #now: () => number;
  #learnt: number | undefined;
  #read: Promise<void> | undefined;

  constructor(baseUrl: string, memory?: StateFile<LearntPageSize>, now: () => number = Date.now) {
    this.#baseUrl = baseUrl;
    this.#memory = memory;
    this.#now = now;
  }

  /** `wanted`, or the platform's largest when it is smaller. */
  async fit(wanted: number): Promise<number> {
    this.#read ??= this.#recall();
    await this.#read;
    return Math.min(wanted, this.#learnt ?? wanted);
  }

  /** The platform takes pages of at most `size`. */
  async learn(size: number): Promise<void> {
    if (this.#learnt !== undefined && this.#learnt <= size) return;
    this.#learnt = size;
    await this.#memory
      ?.write({
        base_url: this.#baseUrl,
        page_size: size,
        learnt_at: new Date(this.#now()).toISOString(),
      })
      .catch(() => undefined);
  }

  async #recall(): Promise<void> {
    const remembered = await this.#memory?.read();
    if (!remembered || remembered.base_url !== this.#baseUrl) return;
    const age = this.#now() - Date.parse(remembered.learnt_at);
    if (!(age >= 0 && age < PAGE_SIZE_LIFETIME_MS)) return;
    const size = Math.max(REMEMBERED_PAGE_SIZE_FLOOR, remembered.page_size);
    this.#learnt = Math.min(this.#learnt ?? size, size);
  }
}

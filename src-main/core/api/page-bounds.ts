/**
 * The bound on one walk of a paginated list, following `next` from page to page: a platform that
 * links page after page (broken or malicious) is stopped, not followed until memory runs out. A
 * walk stops with a ProtocolError when
 * - it would go past the pages its first page's `count` implies, plus PAGE_SLACK (the list may
 *   grow a little during the walk);
 * - an empty page links to another (every page must bring something);
 * - a `next` link repeats;
 * - it has brought more than `maxItems` items (a `count` that lies cannot lift the bound).
 */
import { ProtocolError } from './api-errors';
import type { Page } from './schemas';

/** Pages walked beyond what the first page's count implies. */
export const PAGE_SLACK = 2;

/** Items one walk brings at most (the directory keeps up to this many contacts in all). */
export const MAX_WALK_ITEMS = 200_000;

export class PageBounds {
  readonly #endpoint: string;
  readonly #maxItems: number;
  readonly #seen = new Set<string>();
  #pages = 0;
  #items = 0;
  #allowed = 0;

  constructor(endpoint: string, maxItems: number = MAX_WALK_ITEMS) {
    this.#endpoint = endpoint;
    this.#maxItems = maxItems;
  }

  /** Checks the page just received before its items are used and its `next` is followed. */
  check(page: Page<unknown>): void {
    this.#pages++;
    this.#items += page.results.length;
    if (this.#pages === 1) {
      this.#allowed = Math.ceil(page.count / Math.max(1, page.results.length)) + PAGE_SLACK;
    }
    if (this.#items > this.#maxItems) {
      this.#refuse(`it lists more than ${this.#maxItems.toLocaleString('en-US')} items`);
    }
    if (page.next === null) return;
    if (page.results.length === 0) this.#refuse('an empty page links to a next page');
    if (this.#pages >= this.#allowed) {
      this.#refuse(
        `its pages go on past what its count (${page.count}) implies; Callbar stopped after ${this.#pages} pages`,
      );
    }
    if (this.#seen.has(page.next)) this.#refuse('the next page link repeats');
    this.#seen.add(page.next);
  }

  #refuse(problem: string): never {
    throw new ProtocolError(this.#endpoint, problem, 'next');
  }
}

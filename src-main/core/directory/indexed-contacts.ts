/**
 * The directory's contacts as searched: their index, or, for a large directory just read or
 * synced, the scan that answers while that index is built in slices between requests (one per
 * turn of the event loop, requests first). The build waits for the first search (a start answers
 * first) or a moment when none comes; a lookup that needs the index (speed dials) finishes it at
 * once. The user's call history is kept and given to every new index and scan.
 */
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import type { Logger } from '../log/logger';
import type { PartyCalls } from './call-affinity';
import { ContactIndex, DEFAULT_SLICE, type ContactIndexOptions } from './contact-index';
import { ContactList } from './contact-list';
import { ContactScan } from './contact-scan';
import type { SearchTexts } from './search-texts';

/** An index built in slices: each `next()` builds one; the last returns the index. */
export type GradualBuild = (
  contacts: readonly DirectoryContact[],
  options: ContactIndexOptions,
) => Generator<void, ContactIndex>;

/** The index's own gradual build: it yields every thousand contacts or so and after each phase. */
export const buildGradually: GradualBuild = (contacts, options) =>
  ContactIndex.buildGradually(contacts, options);

/**
 * An index waits this long for a first search (answered by the scan) before its build starts:
 * long enough for a start to print its address and answer the window's first search (a build
 * started before would stand in their way), short beside a person's first keystrokes.
 */
const BUILD_AFTER_MS = 2_000;

/** Below this many contacts an index is built at once (a few milliseconds). */
const GRADUAL_FROM = 2_000;

export interface IndexedContactsOptions {
  log: Logger;
  /** Builds an index in slices (default: ContactIndex.buildGradually). */
  buildIndex?: GradualBuild;
  /** From this many contacts on, an index is built in slices while a scan answers (default 2,000). */
  gradualFrom?: number;
  /** How long a build waits for the first search before it starts anyway (default 2 s). */
  buildAfterMs?: number;
}

/** Contacts whose index is being built in slices, and the scan that answers meanwhile. */
interface PendingIndex {
  contacts: ContactList;
  options: ContactIndexOptions;
  scan: ContactScan;
  steps: Generator<void, ContactIndex>;
  /** Starts building (once; later calls do nothing). */
  start: () => void;
}

export class IndexedContacts {
  readonly #options: IndexedContactsOptions;
  #index: ContactIndex;
  /** The contacts being indexed (searched by a scan until their index replaces #index). */
  #pending: PendingIndex | undefined;
  /** Resolved once no index is being built (ready). */
  #ready: { promise: Promise<void>; resolve: () => void } | undefined;
  /** The user's own calls per party, which rank the search (kept for every new index). */
  #callHistory: readonly PartyCalls[] = [];
  /** When #callHistory was given (its calls' recency is counted from then). */
  #callHistoryAt = 0;

  constructor(options: IndexedContactsOptions, indexOptions: ContactIndexOptions) {
    this.#options = options;
    this.#index = this.#build(ContactList.of([]), indexOptions);
  }

  /** Resolves once the contacts are indexed (searches are answered by a scan until then). */
  ready(): Promise<void> {
    return this.#ready?.promise ?? Promise.resolve();
  }

  /** Whether `count` contacts are indexed in slices while a scan answers (else at once). */
  gradual(count: number): boolean {
    return count >= (this.#options.gradualFrom ?? GRADUAL_FROM);
  }

  /** How many contacts there are. */
  get size(): number {
    return this.#pending?.contacts.length ?? this.#index.size;
  }

  /** Every contact: in ranking order once indexed, in the order given while being indexed. */
  get contacts(): readonly DirectoryContact[] {
    return this.#pending?.contacts.all() ?? this.#index.contacts;
  }

  /** Every contact's speed dial, read without making the contacts of a list being indexed. */
  *speedDials(): Generator<number | null> {
    const pending = this.#pending?.contacts;
    if (pending) {
      for (let i = 0; i < pending.length; i++) yield pending.speedDial(i);
    } else {
      for (const contact of this.#index.contacts) yield contact.speed_dial;
    }
  }

  /** The contacts with these ids, in the order of `contacts`, made only if the scan did not yet. */
  withIds(ids: ReadonlySet<number>): DirectoryContact[] {
    const pending = this.#pending?.contacts;
    if (!pending) return this.#index.withIds(ids);
    const found: DirectoryContact[] = [];
    for (let i = 0; i < pending.length; i++) if (ids.has(pending.id(i))) found.push(pending.at(i));
    return found;
  }

  search(query: string, limit: number): SearchHit[] {
    const pending = this.#pending;
    const hits = pending?.scan.search(query, limit);
    pending?.start();
    return hits ?? this.#indexed().search(query, limit);
  }

  lookupByNumber(number: string): DirectoryContact | undefined {
    const pending = this.#pending;
    return pending ? pending.scan.lookupByNumber(number) : this.#index.lookupByNumber(number);
  }

  findBySpeedDial(code: number): DirectoryContact | undefined {
    return this.#indexed().findBySpeedDial(code);
  }

  setCallHistory(parties: readonly PartyCalls[], now: number): void {
    this.#callHistory = parties;
    this.#callHistoryAt = now;
    this.#index.setCallHistory(parties, now);
    this.#pending?.scan.setCallHistory(parties, now);
  }

  /**
   * Makes `contacts` the ones searched: indexed at once when they are few; else a scan answers
   * (reading `texts`, their search texts, when given) while their index is built in slices, the
   * contacts not made yet made first.
   */
  install(contacts: ContactList, options: ContactIndexOptions, texts?: SearchTexts): void {
    this.#pending?.steps.return(this.#index);
    this.#pending = undefined;
    if (!this.gradual(contacts.length)) {
      this.#index = this.#build(contacts, options);
      this.#settled();
      return;
    }
    const scan = new ContactScan(contacts, options, texts);
    if (this.#callHistory.length > 0) scan.setCallHistory(this.#callHistory, this.#callHistoryAt);
    const build = this.#options.buildIndex ?? buildGradually;
    const pending: PendingIndex = {
      contacts,
      options,
      scan,
      steps: (function* () {
        return yield* build(yield* contacts.makeAll(DEFAULT_SLICE), options);
      })(),
      start: () => undefined,
    };
    this.#pending = pending;
    if (!this.#ready) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#ready = { promise, resolve };
    }
    const slice = () => {
      if (this.#pending === pending && !this.#step(pending)) setImmediate(slice);
    };
    // Nothing heavy before the first answer: the build starts once a search was answered (the
    // window's first), or after a moment when none comes.
    const timer = setTimeout(() => pending.start(), this.#options.buildAfterMs ?? BUILD_AFTER_MS);
    timer.unref();
    pending.start = () => {
      pending.start = () => undefined;
      clearTimeout(timer);
      setImmediate(slice);
    };
  }

  /** Stops building an index no longer wanted. */
  abandon(): void {
    this.#pending?.steps.return(this.#index);
    this.#pending = undefined;
    this.#settled();
  }

  #build(contacts: ContactList, options: ContactIndexOptions): ContactIndex {
    return this.#withCallHistory(ContactIndex.build(contacts.all(), options));
  }

  #withCallHistory(index: ContactIndex): ContactIndex {
    if (this.#callHistory.length > 0) index.setCallHistory(this.#callHistory, this.#callHistoryAt);
    return index;
  }

  /**
   * Builds one slice of a pending index; true once it is the index (a build that fails in slices
   * is done at once: the failure, if it is the index's, is thrown then).
   */
  #step(pending: PendingIndex): boolean {
    let index: ContactIndex;
    try {
      const step = pending.steps.next();
      if (!step.done) return false;
      index = step.value;
    } catch (error) {
      this.#options.log.warn('the directory could not be indexed in slices; it is built at once', {
        error,
      });
      this.#pending = undefined;
      index = ContactIndex.build(pending.contacts.all(), pending.options);
    }
    this.#index = this.#withCallHistory(index);
    this.#pending = undefined;
    this.#settled();
    return true;
  }

  /** The index of the contacts: a pending one is finished now (caller lookup, lists). */
  #indexed(): ContactIndex {
    const pending = this.#pending;
    if (pending) while (!this.#step(pending));
    return this.#index;
  }

  #settled(): void {
    if (this.#pending) return;
    this.#ready?.resolve();
    this.#ready = undefined;
  }
}

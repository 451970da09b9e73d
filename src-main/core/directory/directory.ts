/**
 * The directory: the local contact index Callbar searches, kept fresh. It loads the last complete
 * directory from the profile at start, syncs on demand and every `sync_interval_minutes` while
 * connected, swaps in a new index only when a sync completes (a failed or cancelled sync keeps
 * the previous one and says why), and applies contacts created, edited or deleted through
 * Callbar at once. It only ever holds the directory of the account connected now: the cache is
 * read once that account is known, a disconnection empties the index (the cache stays for that
 * account), and a connection to another account or platform drops the directory at once
 * (deleting its cache) and syncs the new one. Every change of its status goes to `onChange`
 * listeners (the core publishes them as `directory.changed` events).
 *
 * A large directory (a cache read at start, a sync) is indexed in slices between requests: until
 * its index is ready, searches are answered by a scan over its contacts (contact-scan, with the
 * index's own ranking), so the first answer after a start waits for no index build.
 *
 * The index reads numbers in the user's region: when the region changes (the Settings view, or
 * another process of the profile saving it), the next request indexes the contacts again for the
 * new one, so search, caller lookup and the numbers shown follow it without a restart.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type {
  DirectoryContact,
  DirectoryStatus,
  SearchResult,
  ShownNumbers,
  SyncProgress,
} from '../../../src-shared/contract';
import { NumberDisplay } from '../numbers/number-format';
import { shownNumbersOf } from './shown-hit';
import { sameAccount, type AccountOwner } from '../account/account-history';
import type { PhonebookApi } from '../api/phonebook-api';
import type { Contact } from '../api/schemas';
import { said, type Said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';
import type { StateFile } from '../config/state-file';
import { CallbarError, describeError } from '../errors';
import { systemClock, type Clock } from '../clock';
import type { Logger } from '../log/logger';
import type { PartyCalls } from './call-affinity';
import { ContactIndex, type ContactIndexOptions } from './contact-index';
import { ContactScan } from './contact-scan';
import {
  ownCache,
  readCacheFile,
  removeCache,
  writeCache,
  type CacheFileRead,
} from './directory-cache';
import { fetchDirectory, toDirectoryContact, type PhonebookSummary } from './directory-sync';
import { learntRateFile, RequestPacer } from './request-pacer';
import { keepSyncProblem, syncProblemFile, type SyncProblem } from './sync-problem';

export interface DirectoryOptions {
  dataDir: string;
  /** The user's region, read at each request (the profile's live region source), or a fixed one. */
  region: string | (() => string);
  log: Logger;
  /** The platform's phonebook API, when connected (undefined: a sync says to connect first). */
  phonebooks: () => PhonebookApi | undefined;
  /** The account (and platform) connected now; undefined when none is. */
  owner: () => AccountOwner | undefined;
  /** Between automatic refreshes (sync_interval_minutes); also when a directory counts as stale. */
  intervalMs: number;
  /** Shared by every sync of the process; default: 100 requests a minute. */
  pacer?: RequestPacer;
  pageSize?: number;
  /**
   * The platform's time as Callbar sees it: the pacer's window, Retry-After waits, staleness
   * (default: the process's real time).
   */
  clock?: Clock;
  /**
   * Builds an index in slices (default: ContactIndex.buildGradually); the directory runs one
   * slice at a time, letting requests in between. Tests wrap it to see the slices.
   */
  buildIndex?: GradualBuild;
  /** From this many contacts on, an index is built in slices while a scan answers (default 2,000). */
  gradualFrom?: number;
  /** How long a build waits for the first search before it starts anyway (default 2 s). */
  buildAfterMs?: number;
}

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

/** The rate budget of syncs: below the tightest platform limit seen (120 a minute). */
export const SYNC_BUDGET = { budget: 100, windowMs: 60_000 };

export interface SyncOutcome {
  status: DirectoryStatus;
  /** Requests the sync sent. */
  requests: number;
}

type LocalChange = { upsert: DirectoryContact } | { remove: number[] };

/** Contacts whose index is being built in slices, and the scan that answers meanwhile. */
interface PendingIndex {
  contacts: readonly DirectoryContact[];
  options: ContactIndexOptions;
  scan: ContactScan;
  steps: Generator<void, ContactIndex>;
  /** Starts building (once; later calls do nothing). */
  start: () => void;
}

export class Directory {
  readonly #options: DirectoryOptions;
  readonly #pacer: RequestPacer;
  readonly #clock: Clock;
  readonly #listeners = new Set<(status: DirectoryStatus) => void>();
  readonly #problems: StateFile<SyncProblem>;
  #index: ContactIndex;
  /** The contacts being indexed (searched by a scan until their index replaces #index). */
  #pending: PendingIndex | undefined;
  /** Resolved once no index is being built (indexReady). */
  #ready: { promise: Promise<void>; resolve: () => void } | undefined;
  #phonebooks: PhonebookSummary[] = [];
  #syncedAt: number | undefined;
  #running:
    | { promise: Promise<SyncOutcome>; abort: AbortController; owner: AccountOwner | undefined }
    | undefined;
  /** Whose directory the index holds (undefined: nobody's yet, it is empty). */
  #indexOwner: AccountOwner | undefined;
  /** Loading and account changes, one after the other. */
  #accountWork: Promise<unknown> = Promise.resolve();
  #progress: SyncProgress | undefined;
  #lastError: string | undefined;
  /** The request and status behind #lastError (the window's "Details"). */
  #lastErrorDetails: string | undefined;
  #localDuringSync: LocalChange[] = [];
  #timer: NodeJS.Timeout | undefined;
  #loaded = false;
  /** The cache file read ahead (prefetch), for load to take. */
  #prefetched: Promise<CacheFileRead> | undefined;
  /** The user's own calls per party, which rank the search (kept for every new index). */
  #callHistory: readonly PartyCalls[] = [];
  /** When #callHistory was given (its calls' recency is counted from then). */
  #callHistoryAt = 0;
  /** The numbers shown in the region the index reads them in. */
  #shown: NumberDisplay;

  constructor(options: DirectoryOptions) {
    this.#options = options;
    this.#shown = new NumberDisplay(this.#askRegion());
    this.#clock = options.clock ?? systemClock;
    this.#pacer =
      options.pacer ??
      new RequestPacer({
        ...SYNC_BUDGET,
        clock: this.#clock,
        memory: learntRateFile(options.dataDir, options.log),
      });
    this.#index = this.#build([]);
    this.#problems = syncProblemFile(options.dataDir, options.log);
  }

  /** Resolves once the directory's contacts are indexed (searches are answered by a scan until then). */
  indexReady(): Promise<void> {
    return this.#ready?.promise ?? Promise.resolve();
  }

  /**
   * Loads the cached directory of the account connected now (a bad cache, or one of another
   * account or platform, is logged and dropped; a sync replaces it). Without a connected account
   * nothing is loaded: whose the cache is cannot be checked.
   */
  async load(): Promise<DirectoryStatus> {
    const prefetched = this.#prefetched;
    this.#prefetched = undefined;
    await this.#serially(() =>
      this.#adopt(this.#options.owner(), { reread: true, ...(prefetched ? { prefetched } : {}) }),
    );
    this.#loaded = true;
    return this.#changed();
  }

  /**
   * Starts reading the cache file before the account is known (at start, while the keychain is
   * read): `load` then checks whose it is and takes it.
   */
  prefetch(): void {
    if (this.#prefetched) return;
    this.#prefetched = readCacheFile(this.#options.dataDir);
    // Unused when nobody is connected: its failure is load's to say, never an unhandled one.
    this.#prefetched.catch(() => undefined);
  }

  /**
   * Call on every change of the account's status. A different account or platform than the
   * directory's drops it at once (and its cache); a sync starts now when connected and the
   * directory is empty, stale, or was just dropped.
   */
  accountChanged(isConnected: boolean): Promise<void> {
    return this.#serially(async () => {
      const adopted = await this.#adopt(this.#options.owner());
      if (isConnected && this.#loaded && !this.#running && (adopted || this.#due())) {
        this.#background();
      }
    });
  }

  /**
   * Refreshes every interval while connected, and when the directory is empty or stale: at once
   * when it is empty, else once its index is built (after the first search: a start answers first).
   */
  startRefresh(isConnected: () => boolean): void {
    const tick = () => {
      if (isConnected() && !this.#running && this.#due()) this.#background();
    };
    this.#timer = setInterval(tick, Math.min(this.#options.intervalMs, 60_000));
    this.#timer.unref();
    const timer = this.#timer;
    void this.indexReady().then(() => {
      if (this.#timer === timer) tick();
    });
  }

  onChange(listener: (status: DirectoryStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  status(): DirectoryStatus {
    const state = this.#running
      ? 'syncing'
      : this.#syncedAt === undefined
        ? 'empty'
        : this.#lastError !== undefined ||
            this.#clock.now() - this.#syncedAt > this.#options.intervalMs
          ? 'stale'
          : 'ready';
    return {
      state,
      contacts: this.#pending?.contacts.length ?? this.#index.size,
      phonebooks: this.#phonebooks.length,
      ...(this.#syncedAt !== undefined
        ? { synced_at: new Date(this.#syncedAt).toISOString() }
        : {}),
      ...(this.#running && this.#progress ? { progress: this.#progress } : {}),
      ...(this.#lastError !== undefined ? { last_error: this.#lastError } : {}),
      ...(this.#lastErrorDetails !== undefined
        ? { last_error_details: this.#lastErrorDetails }
        : {}),
    };
  }

  search(query: string, limit = 50): SearchResult {
    this.#followRegion();
    const pending = this.#pending;
    const hits = pending?.scan.search(query, limit);
    pending?.start();
    return { query, hits: hits ?? this.#indexed().search(query, limit) };
  }

  /**
   * The user's own calls per party (from the call log): contacts called more and lately rank
   * first among hits of the same match quality.
   */
  setCallHistory(parties: readonly PartyCalls[]): void {
    this.#callHistory = parties;
    this.#callHistoryAt = this.#clock.now();
    this.#index.setCallHistory(parties, this.#callHistoryAt);
    this.#pending?.scan.setCallHistory(parties, this.#callHistoryAt);
  }

  /** Caller identification: the same number, else the longest common ending of 7+ digits. */
  lookupByNumber(number: string): DirectoryContact | undefined {
    this.#followRegion();
    const pending = this.#pending;
    return pending ? pending.scan.lookupByNumber(number) : this.#index.lookupByNumber(number);
  }

  findBySpeedDial(code: number): DirectoryContact | undefined {
    return this.#indexed().findBySpeedDial(code);
  }

  /** A contact's numbers as a person reads them in the user's region (the window shows these). */
  shownNumbers(contact: Pick<DirectoryContact, 'number' | 'secondary_number'>): ShownNumbers {
    this.#followRegion();
    return shownNumbersOf(contact, this.#shown);
  }

  /** The region the directory reads numbers in now. */
  get region(): CountryCode {
    this.#followRegion();
    return this.#shown.region;
  }

  /**
   * Every contact of the directory (favourites, the speed dials an import avoids): in ranking
   * order once indexed, in the order read while the index is being built.
   */
  get contacts(): readonly DirectoryContact[] {
    return this.#pending?.contacts ?? this.#index.contacts;
  }

  /** Starts a full sync, or joins the one running; resolves when it completes or fails. */
  sync(): Promise<SyncOutcome> {
    if (this.#running) return this.#running.promise;
    const abort = new AbortController();
    const promise = this.#sync(abort.signal)
      .finally(() => {
        this.#running = undefined;
        this.#progress = undefined;
        this.#changed();
      })
      .then((requests) => ({ status: this.status(), requests }));
    this.#running = { promise, abort, owner: this.#options.owner() };
    this.#changed();
    return promise;
  }

  /** Stops a running sync; the directory in use stays. */
  cancelSync(reason: string | Said = said('errors:directory.syncCancelled')): void {
    this.#running?.abort.abort(new CallbarError('sync_cancelled', reason));
  }

  /** A contact created or edited through Callbar: in the index at once, and in the cache. */
  async upsertLocal(contact: Contact): Promise<void> {
    const book = this.#phonebooks.find((entry) => entry.id === contact.phonebook);
    await this.#applyLocal({
      upsert: toDirectoryContact(
        contact,
        book?.description ??
          inEnglish(said('errors:directory.phonebookFallback', { id: contact.phonebook })),
      ),
    });
  }

  /** Contacts deleted through Callbar: out of the index at once, and out of the cache. */
  async removeLocal(ids: readonly number[]): Promise<void> {
    await this.#applyLocal({ remove: [...ids] });
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
    const running = this.#running;
    this.cancelSync(said('errors:directory.closing'));
    await running?.promise.catch(() => undefined);
    this.#abandonPending();
  }

  #due(): boolean {
    return (
      this.#syncedAt === undefined ||
      this.#lastError !== undefined ||
      this.#clock.now() - this.#syncedAt >= this.#options.intervalMs
    );
  }

  #background(): void {
    this.sync().catch(() => undefined);
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#accountWork.then(work);
    this.#accountWork = run.catch(() => undefined);
    return run;
  }

  /**
   * Makes the directory `owner`'s: another account's is dropped (index, running sync, cache) and
   * `owner`'s cache read (unless it is `owner`'s already; `reread`: then too). With nobody
   * connected (disconnected, session ended) nothing is offered, and the cache stays on disk for
   * the account it belongs to. Resolves true when the directory of another account was dropped.
   */
  async #adopt(
    owner: AccountOwner | undefined,
    { reread = false, prefetched }: { reread?: boolean; prefetched?: Promise<CacheFileRead> } = {},
  ): Promise<boolean> {
    const running = this.#running;
    const held = (whose: AccountOwner | undefined) =>
      whose !== undefined && (owner === undefined || !sameAccount(whose, owner));
    const foreign = held(this.#indexOwner) || (running !== undefined && held(running.owner));
    if (foreign) await this.#drop(owner === undefined ? 'disconnected' : 'another account');
    if (owner === undefined) return false;
    if (!reread && this.#indexOwner && sameAccount(this.#indexOwner, owner)) return false;
    const { dataDir } = this.#options;
    // A read ahead of a drop would show a file the drop deleted: it is read again then.
    const file = await (foreign || !prefetched ? readCacheFile(dataDir) : prefetched);
    const read = await ownCache(dataDir, file, owner);
    if (read.status === 'discarded') {
      this.#options.log.warn('the cached directory was discarded; it is synced again', {
        reason: read.reason,
      });
    }
    if (read.status === 'ok' && read.migratedFrom !== undefined) {
      this.#options.log.info('the cached directory was converted to the current format', {
        from: read.migratedFrom,
      });
    }
    if (read.status === 'ok') {
      this.#phonebooks = read.cache.phonebooks;
      this.#install(read.cache.contacts);
      this.#syncedAt = Date.parse(read.cache.synced_at);
      this.#indexOwner = owner;
    }
    this.#changed();
    return foreign;
  }

  /**
   * Empties the index (before anything is awaited: nothing is offered a moment longer) and stops
   * a running sync; for another account, deletes the cache too.
   */
  async #drop(why: 'disconnected' | 'another account'): Promise<void> {
    const running = this.#running;
    this.#reset();
    this.#changed();
    this.cancelSync(
      said(
        why === 'disconnected' ? 'errors:directory.disconnected' : 'errors:directory.otherAccount',
      ),
    );
    await running?.promise.catch(() => undefined);
    this.#reset();
    if (why === 'another account') {
      await removeCache(this.#options.dataDir);
      this.#options.log.info('the directory of another account or platform was dropped');
    }
    this.#changed();
  }

  /** An empty directory of nobody's. */
  #reset(): void {
    this.#phonebooks = [];
    this.#install([]);
    this.#syncedAt = undefined;
    this.#lastError = undefined;
    this.#lastErrorDetails = undefined;
    this.#indexOwner = undefined;
  }

  /** Resolves with the number of requests sent. */
  async #sync(signal: AbortSignal): Promise<number> {
    const { log } = this.#options;
    this.#localDuringSync = [];
    try {
      const phonebooks = this.#options.phonebooks();
      const owner = this.#options.owner();
      if (!phonebooks || owner === undefined) {
        throw new CallbarError('not_connected', said('errors:directory.connectFirst'));
      }
      const fetched = await fetchDirectory({
        phonebooks,
        pacer: this.#pacer,
        clock: this.#clock,
        signal,
        ...(this.#options.pageSize ? { pageSize: this.#options.pageSize } : {}),
        onProgress: (progress) => {
          this.#progress = progress;
          this.#changed();
        },
      });
      const now = this.#options.owner();
      if (!now || !sameAccount(now, owner)) {
        throw new CallbarError('sync_cancelled', said('errors:directory.otherAccount'));
      }
      // A contact saved locally during the sync in a phonebook that vanished went with it.
      const gone = new Set(fetched.vanished.map((book) => book.id));
      const kept = (changed: readonly DirectoryContact[]): DirectoryContact[] =>
        changed.filter((contact) => !gone.has(contact.phonebook));
      let contacts = kept(applyChanges(fetched.contacts, this.#localDuringSync));
      let applied = this.#localDuringSync.length;
      const syncedAt = this.#clock.now();
      for (;;) {
        await writeCache(this.#options.dataDir, {
          owner,
          synced_at: new Date(syncedAt).toISOString(),
          phonebooks: fetched.phonebooks,
          contacts,
        });
        if (this.#localDuringSync.length === applied) break;
        // Saved through Callbar while the cache was being written: kept too, in both.
        contacts = kept(applyChanges(contacts, this.#localDuringSync.slice(applied)));
        applied = this.#localDuringSync.length;
      }
      this.#phonebooks = fetched.phonebooks;
      this.#install(contacts);
      this.#syncedAt = syncedAt;
      this.#indexOwner = owner;
      this.#lastError = undefined;
      this.#lastErrorDetails = undefined;
      await this.#problems.clear().catch(() => undefined);
      log.info('directory synced', {
        contacts: contacts.length,
        phonebooks: fetched.phonebooks.length,
        requests: fetched.requests,
        ...(gone.size > 0 ? { phonebooks_deleted_during_sync: gone.size } : {}),
      });
      return fetched.requests;
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : error;
      const { message, details } = describeError(reason);
      this.#lastError = inEnglish(
        said('errors:directory.syncIncomplete', { reason: spokenSaid(message) }),
      );
      this.#lastErrorDetails = details;
      log.warn('directory sync failed; the previous directory stays in use', { error: reason });
      await keepSyncProblem(this.#problems, this.#options.owner(), reason, this.#clock.now());
      throw reason;
    } finally {
      this.#localDuringSync = [];
    }
  }

  async #applyLocal(change: LocalChange): Promise<void> {
    if (this.#running) this.#localDuringSync.push(change);
    const contacts = applyChanges([...(this.#pending?.contacts ?? this.#index.contacts)], [change]);
    this.#install(contacts);
    this.#changed();
    const owner = this.#indexOwner;
    if (this.#syncedAt === undefined || owner === undefined) return;
    await writeCache(this.#options.dataDir, {
      owner,
      synced_at: new Date(this.#syncedAt).toISOString(),
      phonebooks: this.#phonebooks,
      contacts,
    });
  }

  #indexOptions(): ContactIndexOptions {
    const priorities = new Map(this.#phonebooks.map((book) => [book.id, book.priority]));
    return {
      region: this.#shown.region,
      shown: this.#shown,
      priorityOf: (phonebook) => priorities.get(phonebook),
    };
  }

  #askRegion(): CountryCode {
    const { region } = this.#options;
    return (typeof region === 'function' ? region() : region).toUpperCase() as CountryCode;
  }

  /** A region changed since the index was built: the contacts are indexed again for the new one. */
  #followRegion(): void {
    const region = this.#askRegion();
    if (region === this.#shown.region) return;
    this.#options.log.info('the region changed; the directory reads its numbers again', {
      region,
    });
    this.#shown = new NumberDisplay(region);
    this.#install(this.#pending?.contacts ?? this.#index.contacts);
    this.#changed();
  }

  #build(contacts: readonly DirectoryContact[]): ContactIndex {
    return this.#withCallHistory(ContactIndex.build(contacts, this.#indexOptions()));
  }

  #withCallHistory(index: ContactIndex): ContactIndex {
    if (this.#callHistory.length > 0) index.setCallHistory(this.#callHistory, this.#callHistoryAt);
    return index;
  }

  /**
   * Makes `contacts` the directory's: indexed at once when they are few; else a scan answers
   * while their index is built in slices, one per turn of the event loop (requests come first).
   */
  #install(contacts: readonly DirectoryContact[]): void {
    this.#pending?.steps.return(this.#index);
    this.#pending = undefined;
    if (contacts.length < (this.#options.gradualFrom ?? GRADUAL_FROM)) {
      this.#index = this.#build(contacts);
      this.#settled();
      return;
    }
    const options = this.#indexOptions();
    const scan = new ContactScan(contacts, options);
    if (this.#callHistory.length > 0) scan.setCallHistory(this.#callHistory, this.#callHistoryAt);
    const build = this.#options.buildIndex ?? buildGradually;
    const pending: PendingIndex = {
      contacts,
      options,
      scan,
      steps: build(contacts, options),
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

  /**
   * Builds one slice of a pending index; true once it is the directory's index (a build that
   * fails in slices is done at once: the failure, if it is the index's, is thrown then).
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
      index = ContactIndex.build(pending.contacts, pending.options);
    }
    this.#index = this.#withCallHistory(index);
    this.#pending = undefined;
    this.#settled();
    return true;
  }

  /** The index of the directory's contacts: a pending one is finished now (caller lookup, lists). */
  #indexed(): ContactIndex {
    const pending = this.#pending;
    if (pending) while (!this.#step(pending));
    return this.#index;
  }

  /** Stops building an index no longer wanted. */
  #abandonPending(): void {
    this.#pending?.steps.return(this.#index);
    this.#pending = undefined;
    this.#settled();
  }

  #settled(): void {
    if (this.#pending) return;
    this.#ready?.resolve();
    this.#ready = undefined;
  }

  #changed(): DirectoryStatus {
    const status = this.status();
    for (const listener of this.#listeners) listener(status);
    return status;
  }
}

function applyChanges(
  contacts: DirectoryContact[],
  changes: readonly LocalChange[],
): DirectoryContact[] {
  let result = contacts;
  for (const change of changes) {
    if ('upsert' in change) {
      result = result.filter((contact) => contact.id !== change.upsert.id);
      result.push(change.upsert);
    } else {
      const gone = new Set(change.remove);
      result = result.filter((contact) => !gone.has(contact.id));
    }
  }
  return result;
}

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
 * A large directory (a cache read at start, a sync) is indexed in slices between requests
 * (indexed-contacts); until then a scan answers (contact-scan, with the index's ranking), so a
 * start's first answer waits for no build. A cache read at start gives the scan its stored texts
 * and its contacts unmade (contact-list): the first answer makes only the contacts it keeps. The
 * index reads numbers in the user's region: when it changes (Settings, or another process of the
 * profile), the next request indexes the contacts again, so search, caller lookup and the
 * numbers shown follow it without a restart.
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
import type { Contact } from '../api/schemas';
import { said, type Said } from '../text/said';
import { CallbarError } from '../errors';
import { systemClock, type Clock } from '../clock';
import type { PartyCalls } from './call-affinity';
import type { ContactIndexOptions } from './contact-index';
import { ContactList } from './contact-list';
import { ownCache, readCacheFile, removeCache, type CacheFileRead } from './directory-cache';
import { fetchDirectory, savedContact, type PhonebookSummary } from './directory-sync';
import { applyChanges, saveLocalChange, saveSynced, type LocalChange } from './directory-saving';
import { cacheWrites, cacheWrittenElsewhere, type CacheWrites } from './directory-saving';
import { IndexedContacts } from './indexed-contacts';
import { SYNC_BUDGET, type DirectoryOptions, type SyncOutcome } from './directory-options';
import { learntRateFile, RequestPacer } from './request-pacer';
import { searchTextsOf, type SearchTexts } from './search-texts';
import { SyncProblems } from './sync-problem';
import { directoryStatus, syncFailure, syncOutdated } from './sync-freshness';

export { buildGradually, type GradualBuild } from './indexed-contacts';
export { SYNC_BUDGET, type DirectoryOptions, type SyncOutcome } from './directory-options';

export class Directory {
  readonly #options: DirectoryOptions;
  readonly #pacer: RequestPacer;
  readonly #clock: Clock;
  readonly #listeners = new Set<(status: DirectoryStatus) => void>();
  readonly #problems: SyncProblems;
  /** The contacts as searched: their index, or a scan while it is built. */
  readonly #contacts: IndexedContacts;
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
  /** How this process wrote the cache (a local change checks it is still that file). */
  readonly #written: CacheWrites;
  #timer: NodeJS.Timeout | undefined;
  #loaded = false;
  /** The cache file read ahead (prefetch), for load to take. */
  #prefetched: Promise<CacheFileRead> | undefined;
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
    this.#contacts = new IndexedContacts(options, this.#indexOptions());
    this.#problems = new SyncProblems(options, this.#clock);
    this.#written = cacheWrites(options.dataDir, options.log);
  }

  /** Resolves once the directory's contacts are indexed (searches are answered by a scan until then). */
  indexReady(): Promise<void> {
    return this.#contacts.ready();
  }

  /**
   * Loads the cached directory of the account connected now (a bad cache, or one of another
   * account or platform, is logged and dropped; a sync replaces it). Without a connected account
   * nothing is loaded: whose the cache is cannot be checked.
   */
  async load(): Promise<DirectoryStatus> {
    const prefetched = this.#prefetched;
    this.#prefetched = undefined;
    await this.#serially(async () => {
      await this.#adopt(this.#options.owner(), {
        reread: true,
        ...(prefetched ? { prefetched } : {}),
      });
      this.#loaded = true;
    });
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
   * directory is empty, stale, or was just dropped. Before `load`, the cache is left to it (a
   * start's account turns connected just before: the file was read once, ahead, not twice).
   */
  accountChanged(isConnected: boolean): Promise<void> {
    return this.#serially(async () => {
      const adopted = await this.#adopt(this.#options.owner(), { readCache: this.#loaded });
      if (isConnected && this.#loaded && !this.#running && (adopted || this.#due(true))) {
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
    return directoryStatus({
      running: this.#running !== undefined,
      contacts: this.#contacts.size,
      phonebooks: this.#phonebooks.length,
      syncedAt: this.#syncedAt,
      outdated: this.#due(true),
      progress: this.#progress,
      lastError: this.#lastError,
      lastErrorDetails: this.#lastErrorDetails,
    });
  }

  search(query: string, limit = 50): SearchResult {
    this.#followRegion();
    return { query, hits: this.#contacts.search(query, limit) };
  }

  /** The call log's calls per party: among equal matches, contacts called more and lately first. */
  setCallHistory(parties: readonly PartyCalls[]): void {
    this.#contacts.setCallHistory(parties, this.#clock.now());
  }

  /** Caller identification: the same number, else the longest common ending of 7+ digits. */
  lookupByNumber(number: string): DirectoryContact | undefined {
    this.#followRegion();
    return this.#contacts.lookupByNumber(number);
  }

  findBySpeedDial(code: number): DirectoryContact | undefined {
    return this.#contacts.findBySpeedDial(code);
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
   * Every contact of the directory: in ranking order once indexed, in the order read while the
   * index is being built. Its speed dials and the contacts with some ids (favourites) are read
   * without making a contact the scan has not made.
   */
  get contacts(): readonly DirectoryContact[] {
    return this.#contacts.contacts;
  }
  speedDials(): Iterable<number | null> {
    return this.#contacts.speedDials();
  }
  withIds(ids: ReadonlySet<number>): DirectoryContact[] {
    return this.#contacts.withIds(ids);
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

  /**
   * Another process of the profile replaced the cache (`callbar sync`, `callbar contacts`): this
   * account's copy is used here, unless a sync runs here (its copy keeps the others' changes).
   */
  followCache(): Promise<void> {
    return this.#serially(async () => {
      const owner = this.#running ? undefined : this.#indexOwner;
      const theirs = owner && (await cacheWrittenElsewhere(this.#written, owner));
      if (theirs) await this.#adopt(owner, { reread: true, prefetched: Promise.resolve(theirs) });
    });
  }

  /** Stops a running sync; the directory in use stays. */
  cancelSync(reason: string | Said = said('errors:directory.syncCancelled')): void {
    this.#running?.abort.abort(new CallbarError('sync_cancelled', reason));
  }

  /** A contact created or edited through Callbar: in the index at once, and in the cache. */
  async upsertLocal(contact: Contact): Promise<void> {
    await this.#applyLocal({ upsert: savedContact(contact, this.#phonebooks) });
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
    this.#contacts.abandon();
  }

  #due(withoutBackoff = false): boolean {
    if (this.#lastError !== undefined) return withoutBackoff || this.#problems.retryDue();
    return (
      this.#syncedAt === undefined ||
      syncOutdated(this.#syncedAt, this.#clock.now(), this.#options.intervalMs)
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
   * `owner`'s cache read (unless it is `owner`'s already; `reread`: then too; `readCache` false:
   * not at all, before `load`). With nobody connected (disconnected, session ended) nothing is
   * offered, and the cache stays on disk for its account. Resolves true when another account's
   * directory was dropped.
   */
  async #adopt(
    owner: AccountOwner | undefined,
    {
      reread = false,
      readCache = true,
      prefetched,
    }: { reread?: boolean; readCache?: boolean; prefetched?: Promise<CacheFileRead> } = {},
  ): Promise<boolean> {
    const running = this.#running;
    const held = (whose: AccountOwner | undefined) =>
      whose !== undefined && (owner === undefined || !sameAccount(whose, owner));
    const foreign = held(this.#indexOwner) || (running !== undefined && held(running.owner));
    if (foreign) await this.#drop(owner === undefined ? 'disconnected' : 'another account');
    if (owner === undefined) return false;
    if (!readCache) return foreign;
    if (!reread && this.#indexOwner && sameAccount(this.#indexOwner, owner)) return false;
    const { dataDir } = this.#options;
    // A read ahead of a drop would show a file the drop deleted: it is read again then.
    const file = await (foreign || !prefetched ? readCacheFile(dataDir) : prefetched);
    const read = await ownCache(dataDir, file, owner, this.#shown.region, this.#options.log);
    if (read.status === 'ok') {
      this.#phonebooks = read.cache.phonebooks;
      this.#install(read.cache.contacts, read.cache.texts);
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
    this.#install(ContactList.of([]));
    this.#syncedAt = undefined;
    this.#lastError = undefined;
    this.#lastErrorDetails = undefined;
    this.#indexOwner = undefined;
  }

  /** Resolves with the number of requests sent. */
  async #sync(signal: AbortSignal): Promise<number> {
    const { log } = this.#options;
    const startedAt = Date.now(); // the wall clock, as the profile's other processes note changes
    const began = this.#clock.now(); // the sync's clock, as a completed sync's time is written
    this.#localDuringSync = [];
    // An empty directory (a first sync) is searchable as walked while the walks check it.
    let walkedFrom: PhonebookSummary[] | undefined;
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
        ...(this.#contacts.size === 0 && {
          onWalked: (walked) => {
            walkedFrom = this.#phonebooks;
            this.#phonebooks = walked.phonebooks;
            this.#install(ContactList.of(applyChanges(walked.contacts, this.#localDuringSync)));
            this.#changed();
          },
        }),
      });
      const now = this.#options.owner();
      if (!now || !sameAccount(now, owner)) {
        throw new CallbarError('sync_cancelled', said('errors:directory.otherAccount'));
      }
      const syncedAt = this.#clock.now();
      const { contacts, texts, phonebooksGone } = await saveSynced(
        this.#written,
        { owner, startedAt, syncedAt, fetched },
        this.#localDuringSync,
        (all) => searchTextsOf(all, this.#shown.region),
      );
      this.#phonebooks = fetched.phonebooks;
      this.#install(ContactList.of(contacts), texts);
      this.#syncedAt = syncedAt;
      this.#indexOwner = owner;
      this.#lastError = undefined;
      this.#lastErrorDetails = undefined;
      await this.#problems.clear();
      log.info('directory synced', {
        contacts: contacts.length,
        phonebooks: fetched.phonebooks.length,
        requests: fetched.requests,
        ...(phonebooksGone > 0 ? { phonebooks_deleted_during_sync: phonebooksGone } : {}),
      });
      return fetched.requests;
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : error;
      ({ said: this.#lastError, details: this.#lastErrorDetails } = syncFailure(reason));
      if (walkedFrom) {
        // The walked contacts go; those saved through Callbar meanwhile are on the platform.
        this.#phonebooks = walkedFrom;
        this.#install(ContactList.of(applyChanges([], this.#localDuringSync)));
      }
      log.warn('directory sync failed; the previous directory stays in use', { error: reason });
      await this.#problems.keep(this.#options.owner(), reason, began);
      throw reason;
    } finally {
      this.#localDuringSync = [];
    }
  }

  async #applyLocal(change: LocalChange): Promise<void> {
    if (this.#running) this.#localDuringSync.push(change);
    const contacts = applyChanges([...this.#contacts.contacts], [change]);
    const textsOf = (all: readonly DirectoryContact[]) =>
      this.#contacts.gradual(all.length) ? searchTextsOf(all, this.#shown.region) : undefined;
    const texts = textsOf(contacts);
    this.#install(ContactList.of(contacts), texts);
    this.#changed();
    const owner = this.#indexOwner;
    if (this.#syncedAt === undefined || owner === undefined) return;
    const saved = { owner, syncedAt: this.#syncedAt, phonebooks: this.#phonebooks, contacts };
    const theirs = await saveLocalChange(this.#written, { saved, texts }, change, textsOf);
    // Another process replaced the cache since: its copy, changed, is used (not after a sync here).
    if (!theirs || this.#indexOwner !== owner || this.#syncedAt !== saved.syncedAt) return;
    this.#phonebooks = theirs.saved.phonebooks;
    this.#syncedAt = theirs.saved.syncedAt;
    this.#install(ContactList.of(theirs.saved.contacts), theirs.texts);
    this.#changed();
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
    this.#options.log.info('the region changed; the directory reads its numbers again', { region });
    this.#shown = new NumberDisplay(region);
    this.#install(ContactList.of(this.#contacts.contacts));
    this.#changed();
  }

  /**
   * Makes `contacts` the directory's (a large directory: searched by a scan, reading `texts`,
   * their search texts, when given, while its index is built in slices).
   */
  #install(contacts: ContactList, texts?: SearchTexts): void {
    this.#contacts.install(contacts, this.#indexOptions(), texts);
  }

  #changed(): DirectoryStatus {
    const status = this.status();
    for (const listener of this.#listeners) listener(status);
    return status;
  }
}

/**
 * How the directory reaches its cache: what a sync fetched, with the contacts saved through
 * Callbar while it ran (kept in both), and a local change on its own. Each write stores the
 * contacts' search texts too, so a start reads them (directory-cache).
 *
 * Every process of the profile writes the one cache (the app keeps its copy in memory for hours;
 * each CLI command reads it, changes a contact, writes it): the writes take the cache's lock, and
 * a local change is written onto the cache as it is on disk when another process replaced it since
 * this one's copy was read or written, so neither writes away the other's contact or sync.
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import { sameAccount, type AccountOwner } from '../account/account-history';
import { contentStamp } from '../files/file-stamp';
import { withFileLock } from '../files/lockfile';
import type { Logger } from '../log/logger';
import { cacheFile, readCacheFile, writeCache, type CacheFileRead } from './directory-cache';
import {
  othersChangesSince,
  noteChange,
  recentChangesFile,
  type RecentChangesStore,
} from './recent-changes';
import type { FetchedDirectory, PhonebookSummary } from './directory-sync';
import type { SearchTexts } from './search-texts';

/** A contact created, edited or deleted through Callbar. */
export type LocalChange = { upsert: DirectoryContact } | { remove: number[] };

/** `contacts` with `changes` applied in order. */
export function applyChanges(
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

/** What is written: whose directory, when synced, its phonebooks and contacts. */
export interface SavedDirectory {
  owner: AccountOwner;
  syncedAt: number;
  phonebooks: PhonebookSummary[];
  contacts: DirectoryContact[];
}

/** Writes `directory` to the cache of `dataDir`, with `texts` (its search texts) when given. */
export function saveDirectory(
  dataDir: string,
  { owner, syncedAt, phonebooks, contacts }: SavedDirectory,
  texts?: SearchTexts,
): Promise<void> {
  const synced_at = new Date(syncedAt).toISOString();
  return writeCache(dataDir, { owner, synced_at, phonebooks, contacts }, texts);
}

/**
 * This process's writes of the cache: the file as it last wrote it (inode, size, time; undefined:
 * not yet), and the profile's recent contact changes.
 */
export interface CacheWrites {
  readonly dataDir: string;
  stamp: string | undefined;
  /**
   * The file another process left that was last read and not taken (another account's, or one
   * that cannot be read): not read again until it changes (a change of its mode, a planted file's
   * owner touching its attributes in a loop, is no change of it).
   */
  refused?: string;
  readonly changes: RecentChangesStore;
}

/** The cache writes of a directory of the profile in `dataDir`. */
export function cacheWrites(dataDir: string, log: Logger): CacheWrites {
  return { dataDir, stamp: undefined, changes: recentChangesFile(dataDir, log) };
}

/** The cache file's identity, size and time, without its change time (see `refused`). */
function stampOf(dataDir: string): string | undefined {
  return contentStamp(cacheFile(dataDir));
}

/**
 * The cache as another process of the profile left it, when it is another file than this one
 * last wrote or took (`written`, which then names it) and `owner`'s; undefined otherwise.
 */
export async function cacheWrittenElsewhere(
  written: CacheWrites,
  owner: AccountOwner,
): Promise<CacheFileRead | undefined> {
  const stamp = stampOf(written.dataDir);
  if (stamp === undefined || stamp === written.stamp || stamp === written.refused) return undefined;
  const read = await readCacheFile(written.dataDir);
  if (read.status !== 'ok' || !sameAccount(read.cache.owner, owner)) {
    written.refused = stamp;
    return undefined;
  }
  written.stamp = stamp;
  return read;
}

/** Runs `write` holding the cache's lock; `written` then names the file it left. */
function underLock<T>(written: CacheWrites, write: () => Promise<T>): Promise<T> {
  const { dataDir } = written;
  return withFileLock(cacheFile(dataDir), async () => {
    try {
      return await write();
    } finally {
      written.stamp = stampOf(dataDir);
    }
  });
}

/**
 * Writes what a sync `fetched` to the cache, with the local changes made since it began: this
 * process's (`localChanges`, which grows while this writes: those saved meanwhile are applied and
 * written too) and the profile's other processes' (recent-changes.ts). A contact saved locally in
 * a phonebook that vanished during the sync went with it. Resolves with the contacts written and
 * their search texts.
 */
export async function saveSynced(
  written: CacheWrites,
  synced: { owner: AccountOwner; startedAt: number; syncedAt: number; fetched: FetchedDirectory },
  localChanges: readonly LocalChange[],
  searchTexts: (contacts: readonly DirectoryContact[]) => SearchTexts,
): Promise<{ contacts: DirectoryContact[]; texts: SearchTexts; phonebooksGone: number }> {
  const { owner, syncedAt, fetched } = synced;
  const { dataDir } = written;
  const gone = new Set(fetched.vanished.map((book) => book.id));
  const kept = (changed: readonly DirectoryContact[]): DirectoryContact[] =>
    changed.filter((contact) => !gone.has(contact.phonebook));
  let contacts = kept(applyChanges(fetched.contacts, localChanges));
  let applied = localChanges.length;
  for (;;) {
    const saved = await underLock(written, async () => {
      // The other processes' (this one's are in `localChanges`), in the order they were saved.
      const since = await othersChangesSince(written.changes, synced.startedAt);
      const all = kept(applyChanges(contacts, since));
      const texts = searchTexts(all);
      const directory = { owner, syncedAt, phonebooks: fetched.phonebooks, contacts: all };
      await saveDirectory(dataDir, directory, texts);
      return { contacts: all, texts };
    });
    if (localChanges.length === applied) return { ...saved, phonebooksGone: gone.size };
    // Saved through Callbar while the cache was being written: kept too, in both.
    contacts = kept(applyChanges(saved.contacts, localChanges.slice(applied)));
    applied = localChanges.length;
  }
}

/** A directory as written, with its search texts (undefined: none stored). */
export interface WrittenDirectory {
  saved: SavedDirectory;
  texts: SearchTexts | undefined;
}

/**
 * Writes a local `change` to the cache, called as `mine` (this process's copy with the change) is
 * made: `mine` when the cache is still the file this process last wrote (`written`) by the time
 * the lock is held; otherwise (another process of the profile saved a contact or synced since, or
 * this one wrote again) the change applied to the cache as it is then, if it is `mine`'s owner's.
 * Resolves with that directory, for this process to use too; undefined when `mine` was written.
 */
export function saveLocalChange(
  written: CacheWrites,
  mine: WrittenDirectory,
  change: LocalChange,
  searchTexts: (contacts: readonly DirectoryContact[]) => SearchTexts | undefined,
): Promise<WrittenDirectory | undefined> {
  const { dataDir, stamp: base } = written;
  return underLock(written, async () => {
    const current = base !== undefined && stampOf(dataDir) === base;
    const read = current ? undefined : await readCacheFile(dataDir);
    // Kept for a sync another process of the profile is running (saveSynced).
    await noteChange(written.changes, change, Date.now());
    if (read?.status !== 'ok' || !sameAccount(read.cache.owner, mine.saved.owner)) {
      await saveDirectory(dataDir, mine.saved, mine.texts);
      return undefined;
    }
    const contacts = applyChanges([...read.cache.contacts.all()], [change]);
    const theirs: WrittenDirectory = {
      saved: {
        owner: mine.saved.owner,
        syncedAt: Date.parse(read.cache.synced_at),
        phonebooks: read.cache.phonebooks,
        contacts,
      },
      texts: searchTexts(contacts),
    };
    await saveDirectory(dataDir, theirs.saved, theirs.texts);
    return theirs;
  });
}

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
import { statSync } from 'node:fs';
import type { DirectoryContact } from '../../../src-shared/contract';
import { sameAccount, type AccountOwner } from '../account/account-history';
import { withFileLock } from '../files/lockfile';
import { cacheFile, readCacheFile, writeCache } from './directory-cache';
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

/** The cache file as this process last wrote it (inode, size, time), or undefined: not yet. */
export interface WrittenCache {
  stamp: string | undefined;
}

function stampOf(dataDir: string): string | undefined {
  try {
    const stats = statSync(cacheFile(dataDir));
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Runs `write` holding the cache's lock; `written` then names the file it left. */
function underLock<T>(dataDir: string, written: WrittenCache, write: () => Promise<T>): Promise<T> {
  return withFileLock(cacheFile(dataDir), async () => {
    try {
      return await write();
    } finally {
      written.stamp = stampOf(dataDir);
    }
  });
}

/**
 * Writes what a sync `fetched` to the cache, with the local changes made since it began
 * (`localChanges`, which grows while this writes: those saved meanwhile are applied and written
 * too). A contact saved locally in a phonebook that vanished during the sync went with it.
 * Resolves with the contacts written and their search texts.
 */
export async function saveSynced(
  dataDir: string,
  written: WrittenCache,
  synced: { owner: AccountOwner; syncedAt: number; fetched: FetchedDirectory },
  localChanges: readonly LocalChange[],
  searchTexts: (contacts: readonly DirectoryContact[]) => SearchTexts,
): Promise<{ contacts: DirectoryContact[]; texts: SearchTexts; phonebooksGone: number }> {
  const { owner, syncedAt, fetched } = synced;
  const gone = new Set(fetched.vanished.map((book) => book.id));
  const kept = (changed: readonly DirectoryContact[]): DirectoryContact[] =>
    changed.filter((contact) => !gone.has(contact.phonebook));
  let contacts = kept(applyChanges(fetched.contacts, localChanges));
  let applied = localChanges.length;
  for (;;) {
    const texts = searchTexts(contacts);
    await underLock(dataDir, written, () =>
      saveDirectory(dataDir, { owner, syncedAt, phonebooks: fetched.phonebooks, contacts }, texts),
    );
    if (localChanges.length === applied) return { contacts, texts, phonebooksGone: gone.size };
    // Saved through Callbar while the cache was being written: kept too, in both.
    contacts = kept(applyChanges(contacts, localChanges.slice(applied)));
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
  dataDir: string,
  written: WrittenCache,
  mine: WrittenDirectory,
  change: LocalChange,
  searchTexts: (contacts: readonly DirectoryContact[]) => SearchTexts | undefined,
): Promise<WrittenDirectory | undefined> {
  const base = written.stamp;
  return underLock(dataDir, written, async () => {
    const current = base !== undefined && stampOf(dataDir) === base;
    const read = current ? undefined : await readCacheFile(dataDir);
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

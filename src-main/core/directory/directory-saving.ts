/**
 * How the directory reaches its cache: what a sync fetched, with the contacts saved through
 * Callbar while it ran (kept in both), and a local change on its own. Each write stores the
 * contacts' search texts too, so a start reads them (directory-cache).
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import type { AccountOwner } from '../account/account-history';
import { writeCache } from './directory-cache';
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
 * Writes what a sync `fetched` to the cache, with the local changes made since it began
 * (`localChanges`, which grows while this writes: those saved meanwhile are applied and written
 * too). A contact saved locally in a phonebook that vanished during the sync went with it.
 * Resolves with the contacts written and their search texts.
 */
export async function saveSynced(
  dataDir: string,
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
    await saveDirectory(
      dataDir,
      { owner, syncedAt, phonebooks: fetched.phonebooks, contacts },
      texts,
    );
    if (localChanges.length === applied) return { contacts, texts, phonebooksGone: gone.size };
    // Saved through Callbar while the cache was being written: kept too, in both.
    contacts = kept(applyChanges(contacts, localChanges.slice(applied)));
    applied = localChanges.length;
  }
}

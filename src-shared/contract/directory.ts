/**
 * The directory: the local copy of every phonebook, searched instantly.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { isoTime } from './common';

/** A phonebook contact as the local directory holds it (numbers as the platform stores them). */
export const DirectoryContact = z.object({
  id: z.number().int(),
  phonebook: z.number().int(),
  /** The phonebook's description, for showing where a contact comes from. */
  phonebook_name: z.string(),
  display_name: z.string(),
  company: z.string(),
  number: z.string(),
  secondary_number: z.string().nullable(),
  speed_dial: z.number().int().nullable(),
});
export type DirectoryContact = z.infer<typeof DirectoryContact>;

/**
 * A contact's numbers as a person reads them, formatted by core (national in the user's country,
 * international otherwise; an extension as it is): the window shows these, never the stored text.
 */
export const ShownNumbers = z.object({
  number: z.string(),
  secondary_number: z.string().nullable(),
});
export type ShownNumbers = z.infer<typeof ShownNumbers>;

/** A favourite: the person's own star, or one pushed by a policy (read-only). */
export const FavouriteContact = DirectoryContact.extend({
  source: z.enum(['user', 'policy']),
  read_only: z.boolean(),
  shown: ShownNumbers,
});
export type FavouriteContact = z.infer<typeof FavouriteContact>;

export const MatchField = z.enum([
  'display_name',
  'company',
  'number',
  'secondary_number',
  'speed_dial',
]);
export type MatchField = z.infer<typeof MatchField>;

/**
 * Characters [start, end) of a field's displayed text that matched the query (for highlighting):
 * of `shown` for the numbers.
 */
export const MatchRange = z.object({
  field: MatchField,
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type MatchRange = z.infer<typeof MatchRange>;

export const SearchHit = z.object({
  contact: DirectoryContact,
  /** The field that ranked this hit, and how well it matched. */
  field: MatchField,
  match: z.enum(['exact', 'prefix', 'infix', 'fuzzy']),
  ranges: z.array(MatchRange),
  /** The contact's numbers as shown (the ranges of the number fields are in these). */
  shown: ShownNumbers,
  /** The number Enter dials: the one the search matched (the secondary when that matched). */
  dials: z.enum(['number', 'secondary_number']),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchRequest = z.strictObject({
  query: z.string().max(200),
  limit: z.number().int().min(1).max(500).default(50),
});

export const SearchResult = z.object({
  query: z.string(),
  hits: z.array(SearchHit),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SyncProgress = z.object({
  phonebooks_done: z.number().int().nonnegative(),
  phonebooks_total: z.number().int().nonnegative(),
  contacts: z.number().int().nonnegative(),
  /** Sum of the platform's `count` over the phonebooks started so far, when known. */
  contacts_total: z.number().int().nonnegative().optional(),
  /**
   * Every contact is in (and can be searched); the sync checks that the platform's list did not
   * move under it, and walks a phonebook again where it did.
   */
  checking: z.boolean().optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const DirectoryStatus = z.object({
  /**
   * empty: nothing synced and no cache yet; syncing: a sync runs (the previous index still
   * answers); ready: the index is complete and fresh; stale: complete but older than the refresh
   * interval (offline, or the last sync failed).
   */
  state: z.enum(['empty', 'syncing', 'ready', 'stale']),
  contacts: z.number().int().nonnegative(),
  phonebooks: z.number().int().nonnegative(),
  /** When the index in use was completed (ISO 8601); absent before the first complete sync. */
  synced_at: isoTime.optional(),
  progress: SyncProgress.optional(),
  /** Why the last sync failed or was cancelled, in words for the user. */
  last_error: z.string().optional(),
  /** The request and status behind last_error, for the "Details" disclosure. */
  last_error_details: z.string().optional(),
});
export type DirectoryStatus = z.infer<typeof DirectoryStatus>;

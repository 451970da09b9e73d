/**
 * When a directory synced at some time is due for its next sync: an interval or more ago, or
 * "later" than now by more than a minute's tolerance. A sync time ahead of the clock says the
 * clock was set back since (a wrong time corrected, another time zone's clock taken for UTC): how
 * long ago the sync was is then unknown, and waiting until the clock caught up would leave the
 * directory unrefreshed for as long as it had been ahead (days), shown as ready.
 */

import type { DirectoryStatus, SyncProgress } from '../../../src-shared/contract';
import { describeError } from '../errors';
import { said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';

/** How far a sync time may lie ahead of the clock before the clock counts as set back. */
const CLOCK_TOLERANCE_MS = 60_000;

export function syncOutdated(syncedAt: number, now: number, intervalMs: number): boolean {
  const age = now - syncedAt;
  return age >= intervalMs || age < -CLOCK_TOLERANCE_MS;
}

/**
 * What the directory says of itself: syncing, empty, stale (its last sync failed or is
 * `outdated`, see syncOutdated) or ready, with its counts, progress and last error.
 */
export function directoryStatus(of: {
  running: boolean;
  contacts: number;
  phonebooks: number;
  syncedAt: number | undefined;
  outdated: boolean;
  progress: SyncProgress | undefined;
  lastError: string | undefined;
  lastErrorDetails: string | undefined;
}): DirectoryStatus {
  const state = of.running
    ? 'syncing'
    : of.syncedAt === undefined
      ? 'empty'
      : of.outdated
        ? 'stale'
        : 'ready';
  return {
    state,
    contacts: of.contacts,
    phonebooks: of.phonebooks,
    ...(of.syncedAt !== undefined ? { synced_at: new Date(of.syncedAt).toISOString() } : {}),
    ...(of.running && of.progress ? { progress: of.progress } : {}),
    ...(of.lastError !== undefined ? { last_error: of.lastError } : {}),
    ...(of.lastErrorDetails !== undefined ? { last_error_details: of.lastErrorDetails } : {}),
  };
}

/** What the status says of a sync that failed with `reason`: its sentence and the details. */
export function syncFailure(reason: unknown): { said: string; details: string | undefined } {
  const { message, details } = describeError(reason);
  return {
    said: inEnglish(said('errors:directory.syncIncomplete', { reason: spokenSaid(message) })),
    details,
  };
}

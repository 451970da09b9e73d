/**
 * Why the last directory sync of the profile did not complete (a phonebook that gave fewer
 * contacts than it counted, a bound, the platform's refusal), kept in the profile
 * (`sync-problem.json`, no secret in it) from the failed sync until one completes: the process
 * that synced says it in its status, and `callbar status` in another process says it too, so no
 * process shows the directory as complete while its last sync was not.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { AccountOwner, sameAccount } from '../account/account-history';
import { fileFormat } from '../config/file-format';
import { profileStateFile, type StateFile } from '../config/state-file';
import { withFileLock } from '../files/lockfile';
import { readBytesNoFollow } from '../files/no-follow-file';
import { cacheFile, MAX_CACHE_FILE_BYTES } from './cache-file-read';
import { readSnapshot } from './directory-snapshot';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import { CallbarError, sayingOf } from '../errors';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';

export const SyncProblem = z.object({
  owner: AccountOwner,
  /** The sentence, in English (logs, --json). */
  message: z.string(),
  /** The same by catalog key, to word it in the reader's language. */
  said: z
    .object({ key: z.string(), values: z.record(z.string(), z.unknown()).optional() })
    .optional(),
  /** ISO 8601. */
  at: z.string(),
});
export type SyncProblem = z.infer<typeof SyncProblem>;

/** `sync-problem.json`: version 1. */
export const SyncProblemFile = fileFormat({ version: 1, content: SyncProblem });

export const SYNC_PROBLEM_FILE = 'sync-problem.json';

/** The sync problem of the profile in `dataDir`. */
export function syncProblemFile(dataDir: string, log: Logger): StateFile<SyncProblem> {
  return profileStateFile(join(dataDir, SYNC_PROBLEM_FILE), SyncProblemFile, log, 'sync problem');
}

/** The problem of `owner`'s last sync, if it did not complete. */
export async function lastSyncProblem(
  file: StateFile<SyncProblem>,
  owner: AccountOwner | undefined,
): Promise<{ message: string; said?: Said } | undefined> {
  const problem = owner && (await file.read());
  if (!problem || !sameAccount(problem.owner, owner)) return undefined;
  return { message: problem.message, ...(problem.said ? { said: problem.said as Said } : {}) };
}

/** How long after a failed sync the directory's timer tries again, at first (then 2, 4, 8 …). */
export const FIRST_RETRY_MS = 60_000;

/**
 * The profile's sync problem as a directory keeps and clears it: kept when its sync fails (a
 * cancelled sync is no problem: nothing), cleared when one completes. Nothing is kept either
 * when another process of the profile completed a sync since the failed one began: the cache is
 * then complete and as new as this sync's would have been, and `callbar status`, which reads it,
 * must not call it incomplete. And when to try again after failures in a row (`retryDue`).
 */
export class SyncProblems {
  readonly #file: StateFile<SyncProblem>;
  readonly #dataDir: string;
  readonly #intervalMs: number;
  readonly #clock: Clock;
  /** Syncs failed in a row, and when the last of them failed (this clock's time). */
  #failures = 0;
  #failedAt = 0;

  constructor(directory: { dataDir: string; log: Logger; intervalMs: number }, clock: Clock) {
    this.#file = syncProblemFile(directory.dataDir, directory.log);
    this.#dataDir = directory.dataDir;
    this.#intervalMs = directory.intervalMs;
    this.#clock = clock;
  }

  /** Keeps why `owner`'s sync, begun at `began` (this clock's time), failed with `reason`. */
  async keep(owner: AccountOwner | undefined, reason: unknown, began: number): Promise<void> {
    if (reason instanceof CallbarError && reason.code === 'sync_cancelled') return;
    this.#failures += 1;
    this.#failedAt = this.#clock.now();
    if (!owner) return;
    const saying = sayingOf(reason);
    const problem = said('errors:directory.syncIncomplete', { reason: saying });
    const kept = {
      owner,
      message: inEnglish(problem),
      ...(typeof saying === 'string' ? {} : { said: problem }),
      at: new Date(this.#clock.now()).toISOString(),
    };
    // Under the cache's lock, which a completed sync's write takes: none lands between the two.
    await withFileLock(cacheFile(this.#dataDir), async () => {
      if (!(await syncedSince(this.#dataDir, owner, began))) await this.#file.write(kept);
    }).catch(() => undefined);
  }

  /** A sync completed: no problem. */
  clear(): Promise<void> {
    this.#failures = 0;
    return this.#file.clear().catch(() => undefined);
  }

  /**
   * Whether the timer may try a sync again now: FIRST_RETRY_MS after a first failure, then twice
   * as long after each failure in a row, up to the sync interval. A platform away for an hour
   * was asked every minute by every desktop (a warning and a file written each time), and met
   * all of them at once when it came back. A clock set back does not hold a try back; a change
   * of the account (connected again) does not wait at all (the directory's own rule).
   */
  retryDue(): boolean {
    if (this.#failures === 0) return true;
    const wait = Math.min(this.#intervalMs, FIRST_RETRY_MS * 2 ** (this.#failures - 1));
    const since = this.#clock.now() - this.#failedAt;
    return since >= wait || since < 0;
  }
}

/** True when the cache in `dataDir` is `owner`'s, from a sync completed at `began` or later. */
async function syncedSince(dataDir: string, owner: AccountOwner, began: number): Promise<boolean> {
  try {
    const bytes = await readBytesNoFollow(cacheFile(dataDir), MAX_CACHE_FILE_BYTES);
    if (!bytes) return false;
    const { head } = readSnapshot(bytes);
    return sameAccount(head.owner, owner) && Date.parse(head.synced_at) >= began;
  } catch {
    return false; // no cache Callbar can read: the problem is kept
  }
}

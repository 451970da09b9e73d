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

/** Keeps why `owner`'s sync failed with `reason` (a cancelled sync is no problem: nothing). */
export async function keepSyncProblem(
  file: StateFile<SyncProblem>,
  owner: AccountOwner | undefined,
  reason: unknown,
  now: number,
): Promise<void> {
  if (!owner || (reason instanceof CallbarError && reason.code === 'sync_cancelled')) return;
  const saying = sayingOf(reason);
  const problem = said('errors:directory.syncIncomplete', { reason: saying });
  await file
    .write({
      owner,
      message: inEnglish(problem),
      ...(typeof saying === 'string' ? {} : { said: problem }),
      at: new Date(now).toISOString(),
    })
    .catch(() => undefined);
}

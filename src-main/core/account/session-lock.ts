/**
 * One refresh at a time per profile, across processes: the desktop app, the CLI and the demo share
 * a profile and its keychain entry, and the platform's refresh tokens are single-use, so two
 * processes refreshing the same pair log the user out. The TokenManager holds this lock around
 * "re-read the vault → refresh if still needed → write the vault".
 *
 * The lock is proper-lockfile's: an atomic `mkdir` of `<data dir>/session.lock`, its mtime kept
 * fresh while held, taken over when stale (a holder killed with -9 blocks others for `staleMs`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { CallbarError, errorMessage } from '../errors';
import type { Logger } from '../log/logger';

/** Runs tasks one at a time with every other holder of the same lock. */
export interface SessionLock {
  hold<T>(task: () => Promise<T>): Promise<T>;
}

/** No coordination beyond this process (unit tests that own their vault). */
export const processOnlyLock: SessionLock = { hold: (task) => task() };

export interface ProfileLockOptions {
  log: Logger;
  /** A lock whose holder stopped refreshing its mtime for this long is taken over. */
  staleMs?: number;
  /** How long to wait for another process's refresh (its token request may take 30 s). */
  waitMs?: number;
}

/** The lock of the profile in `dataDir` (created when missing). */
export function profileSessionLock(dataDir: string, options: ProfileLockOptions): SessionLock {
  const lockPath = join(dataDir, 'session.lock');
  const staleMs = options.staleMs ?? 10_000;
  const waitMs = options.waitMs ?? 60_000;
  return {
    async hold<T>(task: () => Promise<T>): Promise<T> {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      let release: () => Promise<void>;
      try {
        release = await lockfile.lock(dataDir, {
          lockfilePath: lockPath,
          realpath: false,
          stale: staleMs,
          retries: {
            retries: 10_000,
            factor: 1.3,
            minTimeout: 15,
            maxTimeout: 250,
            randomize: true,
            maxRetryTime: waitMs,
          },
          // The default throws from a timer, which would end the process.
          onCompromised: (error) =>
            options.log.warn('the session lock was taken over while held', { error }),
        });
      } catch (error) {
        options.log.warn('could not take the session lock', { error });
        throw new CallbarError(
          'session_busy',
          `Another Callbar process has been renewing the session for too long (${errorMessage(error)}). Try again in a minute.`,
          { cause: error },
        );
      }
      try {
        return await task();
      } finally {
        await release().catch((error: unknown) =>
          options.log.warn('could not release the session lock', { error }),
        );
      }
    },
  };
}

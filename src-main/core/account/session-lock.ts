/**
 * One refresh at a time per profile, across processes: the desktop app, the CLI and the demo share
 * a profile and its keychain entry, and the platform's refresh tokens are single-use, so two
 * processes refreshing the same pair log the user out. The TokenManager holds this lock around
 * "re-read the vault → refresh if still needed → write the vault".
 *
 * The lock is proper-lockfile's: an atomic `mkdir` of `<data dir>/session.lock`, its mtime kept
 * fresh while held, taken over when stale (`staleMs` without an update).
 *
 * A holder that was killed (kill -9, a crash, a power cut of the app while the CLI waits) would
 * block the others for `staleMs`, or for as long as the clock was set back if it was: beside the
 * lock the holder leaves `session.lock.holder` (its pid and host, and which `mkdir` it made), and
 * a process that finds the lock held by a pid that no longer runs on this computer takes it over
 * at once. A pid that runs again (reused) or a record that does not match the lock only falls back
 * to the staleness rule.
 */
import { mkdirSync } from 'node:fs';
import { rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CallbarError, errorMessage } from '../errors';
import { lock } from '../files/lockfile';
import { readFileNoFollow, replaceFileNoFollow } from '../files/no-follow-file';
import type { Logger } from '../log/logger';
import { said, type Said } from '../text/said';

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
  /**
   * The lock's name in the data folder (default `session.lock`): another short critical section
   * of the profile (the repeat-dial guard's) takes a lock of its own, with the same takeover rules.
   */
  name?: string;
  /** What a holder does, for the message when the wait runs out (default: renewing the session). */
  holding?: Said;
}

/** Who holds the lock: which process on which computer, and the lock directory it created. */
const LockHolder = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  lock_ino: z.number(),
  lock_birthtime_ms: z.number(),
});
type LockHolder = z.infer<typeof LockHolder>;

/** How long one attempt waits before looking again whether the holder still runs. */
const ATTEMPT_MS = 1_000;

/**
 * The session lock's name in the profile folder: every change of the profile's session in the
 * keychain (a refresh, a connect, a forget) is made holding it, so its appearing and going is
 * what tells the profile's other processes to read the keychain again (TokenManager.followVault).
 */
export const SESSION_LOCK_NAME = 'session.lock';

/** The lock of the profile in `dataDir` (created when missing). */
export function profileSessionLock(dataDir: string, options: ProfileLockOptions): SessionLock {
  const lockPath = join(dataDir, options.name ?? SESSION_LOCK_NAME);
  const holding = options.holding ?? said('errors:lock.renewingSession');
  const holderPath = `${lockPath}.holder`;
  const staleMs = options.staleMs ?? 10_000;
  const waitMs = options.waitMs ?? 60_000;

  /**
   * Takes one attempt of at most `maxMs`; ELOCKED when someone else still holds the lock. The
   * resource locked is the lock's own path, not the profile folder: proper-lockfile keeps one
   * record per resource in a process, so two locks of one profile (session, dial) held at once
   * must not share one, or releasing either breaks the other.
   */
  const attempt = (maxMs: number) =>
    lock(lockPath, {
      lockfilePath: lockPath,
      realpath: false,
      stale: staleMs,
      retries: {
        retries: 10_000,
        factor: 1.3,
        minTimeout: 15,
        maxTimeout: 250,
        randomize: true,
        maxRetryTime: maxMs,
      },
      // The default throws from a timer, which would end the process.
      onCompromised: (error) =>
        options.log.warn('a profile lock was taken over while held', { lock: lockPath, error }),
    });

  /**
   * When the lock's holder record names a process of this computer that no longer runs, and the
   * lock is still the directory that process created, makes the lock look stale so that the next
   * attempt takes it over (proper-lockfile's own takeover, so its checks still apply).
   */
  const takeOverFromDeadHolder = async (): Promise<void> => {
    let holder: LockHolder;
    try {
      holder = LockHolder.parse(JSON.parse((await readFileNoFollow(holderPath, 4096)) ?? 'null'));
    } catch {
      return; // none, or half-written: the staleness rule decides
    }
    if (holder.host !== hostname() || holder.pid === process.pid || isRunning(holder.pid)) return;
    try {
      const lock = await stat(lockPath);
      if (lock.ino !== holder.lock_ino || lock.birthtimeMs !== holder.lock_birthtime_ms) return;
      options.log.warn('a profile lock is held by a process that no longer runs; taking it over', {
        lock: lockPath,
        pid: holder.pid,
      });
      await utimes(lockPath, 0, 0);
    } catch {
      // Released or taken over meanwhile.
    }
  };

  /** Leaves this process's record beside the lock it just took; returns the record's text. */
  const recordHolder = async (): Promise<string | undefined> => {
    try {
      const lock = await stat(lockPath);
      const holder: LockHolder = {
        pid: process.pid,
        host: hostname(),
        lock_ino: lock.ino,
        lock_birthtime_ms: lock.birthtimeMs,
      };
      const text = JSON.stringify(holder);
      await replaceFileNoFollow(holderPath, text, 0o600);
      return text;
    } catch (error) {
      // Without the record a crash here blocks the others for staleMs, no longer.
      options.log.warn('could not record a profile lock holder', { lock: lockPath, error });
      return undefined;
    }
  };

  /** Removes the record, unless a process that took the lock over has replaced it by now. */
  const eraseHolder = async (record: string | undefined): Promise<void> => {
    if (record === undefined) return;
    const current = await readFileNoFollow(holderPath, 4096).catch(() => undefined);
    if (current === record) await rm(holderPath, { force: true }).catch(() => undefined);
  };

  return {
    async hold<T>(task: () => Promise<T>): Promise<T> {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const started = performance.now();
      let release: () => Promise<void>;
      for (;;) {
        await takeOverFromDeadHolder();
        const left = waitMs - (performance.now() - started);
        try {
          release = await attempt(Math.max(0, Math.min(ATTEMPT_MS, left)));
          break;
        } catch (error) {
          const busy = (error as NodeJS.ErrnoException).code === 'ELOCKED';
          if (busy && performance.now() - started < waitMs) continue;
          options.log.warn('could not take a profile lock', { lock: lockPath, error });
          throw new CallbarError(
            'session_busy',
            said('errors:lock.busy', { holding, reason: errorMessage(error) }),
            { cause: error },
          );
        }
      }
      const record = await recordHolder();
      try {
        return await task();
      } finally {
        await eraseHolder(record);
        await release().catch((error: unknown) =>
          options.log.warn('could not release a profile lock', { lock: lockPath, error }),
        );
      }
    },
  };
}

/** Whether a process with this pid runs on this computer (one of another user counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

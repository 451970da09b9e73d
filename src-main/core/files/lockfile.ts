/**
 * proper-lockfile (with graceful-fs and signal-exit, which it loads), loaded when a lock is
 * first taken: a start that reads the profile and answers searches takes none, and never
 * evaluates them (about 10 ms of a start).
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type lockfile from 'proper-lockfile';

let loaded: Promise<typeof lockfile> | undefined;

/** A lock not renewed for this long was left by a process that died (proper-lockfile's rule). */
const STALE_MS = 10_000;

/** proper-lockfile's `lock`, its module loaded once. */
export async function lock(
  ...args: Parameters<typeof lockfile.lock>
): ReturnType<typeof lockfile.lock> {
  loaded ??= import('proper-lockfile').then((module) => module.default);
  return (await loaded).lock(...args);
}

/**
 * Runs `task` holding the lock on `file` (`<file>.lock`, an atomic mkdir) that every process of
 * the profile takes before it reads the file to change it (read, merge, replace), so two
 * processes never write away each other's change. A change takes milliseconds: a lock left by a
 * process that died is taken over once stale (10 s), or dated ahead of the clock by more (the
 * clock was set back since). A lock found taken over while held is not thrown from a timer
 * (proper-lockfile's default, which ends the process): the file is replaced atomically, whole,
 * either way.
 */
export async function withFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const take = () =>
    lock(file, {
      realpath: false,
      stale: STALE_MS,
      retries: { retries: 50, minTimeout: 10, maxTimeout: 200 },
      onCompromised: () => undefined,
    });
  const release = await take().catch(async (error: unknown) => {
    // A lock left by a process that died before the clock was set back is dated ahead of it,
    // and would count as fresh until the clock caught up (an hour, a day): after the wait above,
    // longer than any holder keeps it, one dated ahead by more than STALE_MS is taken over.
    const lockAt = await stat(`${file}.lock`).then(
      (found) => found.mtimeMs,
      () => undefined,
    );
    if (lockAt === undefined || lockAt - Date.now() <= STALE_MS) throw error;
    await rm(`${file}.lock`, { recursive: true, force: true });
    return take();
  });
  try {
    return await task();
  } finally {
    await release().catch(() => undefined);
  }
}

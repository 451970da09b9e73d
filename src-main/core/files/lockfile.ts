/**
 * proper-lockfile (with graceful-fs and signal-exit, which it loads), loaded when a lock is
 * first taken: a start that reads the profile and answers searches takes none, and never
 * evaluates them (about 10 ms of a start).
 */
import type lockfile from 'proper-lockfile';

let loaded: Promise<typeof lockfile> | undefined;

/** proper-lockfile's `lock`, its module loaded once. */
export async function lock(
  ...args: Parameters<typeof lockfile.lock>
): ReturnType<typeof lockfile.lock> {
  loaded ??= import('proper-lockfile').then((module) => module.default);
  return (await loaded).lock(...args);
}

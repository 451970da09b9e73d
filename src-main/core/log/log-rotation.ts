/**
 * The log file's rotation (`callbar.log` → `callbar.log.1`), shared by every process of a
 * profile: the app, `callbar native-host` (which runs as long as the browser does) and each CLI
 * command append to the same file.
 *
 * - The size is the file's, read before each line (not a count of this process's own lines, which
 *   lets the file grow to the cap once per long-running process).
 * - One process rotates at a time, under `<path>.rotating` (created exclusively), and only a file
 *   still full when it holds that: a process that found the file full a moment after another
 *   rotated it would otherwise rename the fresh file over the one just rotated, losing it.
 * - A lock left by a process that died while rotating (a few microseconds) counts as gone once
 *   its time is more than {@link STALE_LOCK_MS} from the clock's, either way (a clock set back).
 */
import { closeSync, constants, lstatSync, openSync, renameSync, rmSync } from 'node:fs';

const STALE_LOCK_MS = 10_000;
/** Milliseconds a line waits, at most, for another process's rotation. */
const BUSY_WAITS = 20;
const LOCK_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** What Atomics.wait sleeps on (nothing ever wakes it: it times out). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** The size of the file at `path` (0 when there is none). */
export function logSize(path: string): number {
  try {
    return lstatSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Rotates the log at `path` when `incoming` more bytes would take it past `maxBytes`, unless
 * another process is rotating it now (then the line goes to whichever file is there, and is kept).
 */
export function rotateWhenFull(path: string, incoming: number, maxBytes: number): void {
  const full = () => {
    const size = logSize(path);
    return size > 0 && size + incoming > maxBytes;
  };
  const lock = `${path}.rotating`;
  for (let attempt = 0; full(); attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, LOCK_FLAGS, 0o600);
    } catch {
      // Another process is rotating (a few microseconds, unless it was paused): wait for it a
      // little, then write the line to whichever file is there (it is kept either way).
      if (attempt >= BUSY_WAITS) return;
      dropStaleLock(lock);
      Atomics.wait(pause, 0, 0, 1);
      continue;
    }
    try {
      if (full()) renameSync(path, `${path}.1`);
    } catch {
      // Not renamed (a file held open elsewhere, on Windows): the next line tries again.
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
    return;
  }
}

function dropStaleLock(lock: string): void {
  try {
    const age = Date.now() - lstatSync(lock).mtimeMs;
    if (Math.abs(age) > STALE_LOCK_MS) rmSync(lock, { force: true });
  } catch {
    // Gone already.
  }
}

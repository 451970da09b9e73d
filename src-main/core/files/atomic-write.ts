/**
 * Replaces a file so that a crash or power loss leaves either the old content or the new one,
 * never a torn mix: write a temporary file in the same folder, fsync it, rename it over the target,
 * then fsync the folder so the rename itself is durable.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The temporary files being written now. A process that exits meanwhile (Ctrl+C or SIGTERM during
 * `callbar contacts export --output`: the CLI closes the profile, then exits) removes them as it
 * goes: no half-written copy of the coworkers' contacts stays beside the target.
 */
const unfinished = new Set<string>();
let removeOnExit = false;

function track(temp: string): void {
  if (!removeOnExit) {
    removeOnExit = true;
    process.on('exit', () => {
      for (const file of unfinished) {
        try {
          rmSync(file, { force: true });
        } catch {
          // Exiting anyway: what cannot be removed stays (a dot file beside the target).
        }
      }
    });
  }
  unfinished.add(temp);
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permissions of the written file (POSIX), e.g. 0o600. */
  mode: number;
  /**
   * Permissions of the folder if it has to be created (POSIX), e.g. 0o700; null: a missing
   * folder is an error (ENOENT), never made (a file the user named: a typo makes no folder).
   */
  dirMode: number | null;
}

/** Atomically writes `content` (text, or bytes) to `file`, creating its folder when missing. */
export function writeFileAtomic(
  file: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<void> {
  return writeChunksAtomic(file, [content], options);
}

/**
 * Atomically writes the pieces of `chunks` (text, or bytes) to `file` as they come (an export
 * streamed from the platform): the target changes only once the last piece is on disk; a failure
 * or an abandoned iteration leaves it as it was and removes the temporary file.
 */
export async function writeChunksAtomic(
  file: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions,
): Promise<void> {
  const dir = dirname(file);
  if (options.dirMode !== null) await mkdir(dir, { recursive: true, mode: options.dirMode });
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  track(temp);
  try {
    const handle = await open(temp, 'wx', options.mode);
    try {
      // The umask may have narrowed the mode at creation; it must not have widened it either.
      if (process.platform !== 'win32') await chmod(temp, options.mode);
      // appendFile writes each piece whole, after the one before.
      for await (const chunk of chunks) await handle.appendFile(chunk, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    unfinished.delete(temp);
  }
  await syncDirectory(dir);
}

/** Flushes a folder's entries (the rename) to disk; not possible, nor needed, on Windows. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writing a file the user named (`--output`, `--failures`): atomically (core/files/atomic-write),
 * readable by the user only, and a file that cannot be written is one sentence naming it and why
 * (a folder, no permission, a full disk), never Node's `EISDIR: … rename '/.x.tmp' -> …`.
 */
import { stat } from 'node:fs/promises';
import { CallbarError } from '../core/errors';
import { said } from '../core/text/said';

/** Files Callbar writes hold coworkers' contacts: the owner's only. */
const FILE_MODES = { mode: 0o600, dirMode: 0o700 };

function unwritable(file: string, code: string, cause?: unknown): CallbarError {
  return new CallbarError('output_unwritable', said('cli:errors.cannotWrite', { file, code }), {
    cause,
  });
}

export async function writeOutputFile(
  file: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  // A folder is said before anything is asked of the platform (an export) or written.
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw unwritable(file, 'EISDIR');
  const { writeChunksAtomic } = await import('../core/files/atomic-write');
  try {
    await writeChunksAtomic(file, chunks, FILE_MODES);
  } catch (error) {
    // What the pieces' source threw (the platform, a Ctrl+C) is told as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof CallbarError || typeof code !== 'string') throw error;
    throw unwritable(file, code, error);
  }
}

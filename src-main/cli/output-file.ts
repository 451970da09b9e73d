/**
 * Writing a file the user named (`--output`, `--failures`): atomically (core/files/atomic-write),
 * readable by the user only, and a file that cannot be written is one sentence naming it and why
 * (a folder, no permission, a full disk), never Node's `EISDIR: … rename '/.x.tmp' -> …`.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CallbarError } from '../core/errors';
import { said } from '../core/text/said';

/**
 * Files Callbar writes hold coworkers' contacts: the owner's only. Into a folder that exists: a
 * mistyped one is said, never made.
 */
const FILE_MODES = { mode: 0o600, dirMode: null };

function unwritable(file: string, code: string, cause?: unknown): CallbarError {
  return new CallbarError('output_unwritable', said('cli:errors.cannotWrite', { file, code }), {
    cause,
  });
}

/**
 * Refuses, in the sentence writeOutputFile says, a FILE that is a folder or whose folder is
 * missing or a file: before anything is asked of the platform (an export, an import whose
 * --failures would otherwise fail after its rows were sent) or written.
 */
export async function checkOutputFile(file: string): Promise<void> {
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw unwritable(file, 'EISDIR');
  const folder = await stat(dirname(file)).catch((error: NodeJS.ErrnoException) => error);
  if (folder instanceof Error) throw unwritable(file, folder.code ?? 'ENOENT', folder);
  if (!folder.isDirectory()) throw unwritable(file, 'ENOTDIR');
}

export async function writeOutputFile(
  file: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  await checkOutputFile(file);
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

/**
 * Writing a file the user named (`--output`, `--failures`): atomically (core/files/atomic-write),
 * readable by the user only, and a file that cannot be written is one sentence naming it and why
 * (a folder, no permission, a full disk), never Node's `EISDIR: … rename '/.x.tmp' -> …`. A pipe
 * or a device the user named (`--output >(gzip > c.gz)`, /dev/stdout, /dev/null) is written into
 * as a shell's `>` would: a file renamed over it would replace it (as root, /dev/stdout itself).
 */
import { open, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CallbarError } from '../core/errors';
import { said } from '../core/text/said';

type Chunks = Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

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

/** What FILE is now: a pipe or a device (written into), else a file to replace or make. */
async function targetKind(file: string): Promise<'stream' | 'file'> {
  const target = await stat(file).catch(() => undefined);
  if (target?.isDirectory()) throw unwritable(file, 'EISDIR');
  return target && !target.isFile() ? 'stream' : 'file';
}

/**
 * Refuses, in the sentence writeOutputFile says, a FILE that is a folder or whose folder is
 * missing or a file: before anything is asked of the platform (an export, an import whose
 * --failures would otherwise fail after its rows were sent) or written. What FILE is.
 */
export async function checkOutputFile(file: string): Promise<'stream' | 'file'> {
  const kind = await targetKind(file);
  if (kind === 'stream') return kind;
  const folder = await stat(dirname(file)).catch((error: NodeJS.ErrnoException) => error);
  if (folder instanceof Error) throw unwritable(file, folder.code ?? 'ENOENT', folder);
  if (!folder.isDirectory()) throw unwritable(file, 'ENOTDIR');
  return kind;
}

export async function writeOutputFile(file: string, chunks: Chunks): Promise<void> {
  const kind = await checkOutputFile(file);
  try {
    if (kind === 'stream') await writeInto(file, chunks);
    else {
      // Through a link (~/latest.csv → …, /dev/stdout → a file the shell opened): its target is
      // replaced, the link stays.
      const target = await realpath(file).catch(() => file);
      const { writeChunksAtomic } = await import('../core/files/atomic-write');
      await writeChunksAtomic(target, chunks, FILE_MODES);
    }
  } catch (error) {
    // What the pieces' source threw (the platform, a Ctrl+C) is told as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof CallbarError || typeof code !== 'string') throw error;
    throw unwritable(file, code, error);
  }
}

/** Writes the pieces into a pipe or a device as they come (it cannot be replaced once whole). */
async function writeInto(file: string, chunks: Chunks): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for await (const chunk of chunks) await handle.appendFile(chunk, 'utf8');
  } finally {
    await handle.close();
  }
}

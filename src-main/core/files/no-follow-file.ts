/**
 * Writing and reading the profile's files without following a symbolic link. Whoever can plant a
 * link in the profile (a link `logs/callbar.log → ~/.bashrc`) must not make Callbar append to, or
 * truncate, another file, nor read a huge or endless one (`→ /dev/zero`) into memory.
 *
 * On POSIX the last path component is opened with `O_NOFOLLOW` (the kernel refuses a link:
 * `ELOOP`, and Callbar removes the link and creates its own file); Windows has no such flag, so
 * there an `lstat` check comes first. Creating with `O_EXCL` never follows a link anywhere.
 * The profile's folder itself is checked once at start ({@link secureProfileFolder}).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  read,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';

/** fs.read on a descriptor, as a promise of { bytesRead, buffer }. */
const readFd = promisify(read);

/** 0 where the platform has no O_NOFOLLOW (Windows): the lstat check then does the job. */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // ELOOP on Linux and macOS; FreeBSD says EMLINK. Windows: the lstat check below throws ELOOP.
  return code === 'ELOOP' || code === 'EMLINK';
}

/** Throws ELOOP when `path` is a symbolic link (the O_NOFOLLOW stand-in on Windows). */
function refuseLinkWithoutNoFollow(path: string): void {
  if (O_NOFOLLOW !== 0) return;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
  } catch {
    return; // absent: open creates it
  }
  throw Object.assign(new Error(`${path} is a symbolic link`), { code: 'ELOOP' });
}

/**
 * Opens `path` for writing with `flags` (plus O_NOFOLLOW); a symbolic link there is removed (the
 * link itself, never what it points to) and the file created anew, exclusively.
 */
function openForWritingSync(path: string, flags: number, mode: number): number {
  try {
    refuseLinkWithoutNoFollow(path);
    return openSync(path, flags | O_NOFOLLOW | constants.O_WRONLY | constants.O_CREAT, mode);
  } catch (error) {
    if (!isLinkRefusal(error)) throw error;
    rmSync(path, { force: true });
    return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  }
}

/** Appends `text` to `path` (created with `mode`), never through a symbolic link. */
export function appendFileNoFollow(path: string, text: string, mode: number): void {
  const fd = openForWritingSync(path, constants.O_APPEND, mode);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates or replaces `path` with `text` (created with `mode`), never through a symbolic link:
 * the old file (or link) is removed and the new one created exclusively.
 */
export async function replaceFileNoFollow(path: string, text: string, mode: number): Promise<void> {
  await rm(path, { force: true });
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Opening flags for reading a profile file: no link, and no wait on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** What {@link readFileNoFollow} refuses before reading, from the file's fstat. */
function checkReadable(
  path: string,
  stats: { isFile(): boolean; size: number },
  maxBytes: number,
): void {
  if (!stats.isFile()) throw refused(path, said('errors:profile.notRegular'));
  if (stats.size > maxBytes) {
    throw refused(path, said('errors:profile.tooLarge', { size: stats.size, max: maxBytes }));
  }
}

function openFailure(path: string, error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  if (isLinkRefusal(error)) throw refused(path, said('errors:profile.symlink'));
  throw error;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The buffer to read the file into: one of its fstat size and a byte more (so the read that
 * finds its end needs no room), bounded by `maxBytes` + 1.
 */
function bufferFor(size: number, maxBytes: number): Buffer {
  return Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
}

/**
 * `buffer` while it has room after `filled` bytes; else (the file grew since its fstat) one twice
 * as large holding them, at most `maxBytes` + 1: a file grown past `maxBytes` is refused.
 */
function roomToRead(path: string, buffer: Buffer, filled: number, maxBytes: number): Buffer {
  if (filled < buffer.length) return buffer;
  if (filled > maxBytes) throw refused(path, said('errors:profile.grew', { max: maxBytes }));
  const larger = Buffer.allocUnsafe(
    Math.min(Math.max(2 * buffer.length, CHUNK_BYTES), maxBytes + 1),
  );
  buffer.copy(larger, 0, 0, filled);
  return larger;
}

/**
 * The text of the profile file `path`, or undefined when there is none. A symbolic link, a file
 * that is not a regular file (a FIFO, a device) or one larger than `maxBytes` is refused with a
 * CallbarError `profile_file_refused` naming the file and why; it is never read into memory.
 */
export async function readFileNoFollow(
  path: string,
  maxBytes: number,
): Promise<string | undefined> {
  return (await readBytesNoFollow(path, maxBytes))?.toString('utf8');
}

/**
 * {@link readFileNoFollow}'s bytes, undecoded (a binary file): one buffer of the file's fstat
 * size, its length what was read.
 */
export async function readBytesNoFollow(
  path: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  refuseLinkWithoutNoFollow(path);
  const handle = await open(path, READ_FLAGS).catch((error: unknown) => openFailure(path, error));
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    checkReadable(path, stats, maxBytes);
    return await readWhole(path, stats.size, maxBytes, (buffer, filled) =>
      handle.read(buffer, filled, buffer.length - filled, null),
    );
  } finally {
    await handle.close();
  }
}

/**
 * {@link readBytesNoFollow} for a read started ahead of a busy main thread (a start's cache file,
 * read while the program loads): the file is opened and measured at once, synchronously, and its
 * bytes asked of the I/O thread in one request before this returns. Each `await` between those
 * steps would wait until the main thread is free, which at a start is after the program loaded.
 */
export function readBytesNoFollowAhead(
  path: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  let opened: { fd: number; size: number } | undefined;
  try {
    opened = openCheckedSync(path, maxBytes);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  if (!opened) return Promise.resolve(undefined);
  const { fd, size } = opened;
  return readWhole(path, size, maxBytes, (buffer, filled) =>
    readFd(fd, buffer, filled, buffer.length - filled, null),
  ).finally(() => closeSync(fd));
}

/**
 * The bytes of a file of fstat `size`, read by `readInto` (into the buffer after `filled` bytes)
 * until it finds the end; the first read is asked before this returns.
 */
async function readWhole(
  path: string,
  size: number,
  maxBytes: number,
  readInto: (buffer: Buffer, filled: number) => Promise<{ bytesRead: number }>,
): Promise<Buffer> {
  let buffer = bufferFor(size, maxBytes);
  let filled = 0;
  for (;;) {
    buffer = roomToRead(path, buffer, filled, maxBytes);
    const { bytesRead } = await readInto(buffer, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * `path` opened for reading (never through a link) and its fstat checked (checkReadable);
 * undefined when there is no such file. The caller closes `fd`.
 */
function openCheckedSync(path: string, maxBytes: number): { fd: number; size: number } | undefined {
  let fd: number;
  try {
    refuseLinkWithoutNoFollow(path);
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return openFailure(path, error);
  }
  try {
    const stats = fstatSync(fd);
    checkReadable(path, stats, maxBytes);
    return { fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** {@link readFileNoFollow}, synchronously (settings and the call log are read at start). */
export function readFileNoFollowSync(path: string, maxBytes: number): string | undefined {
  const opened = openCheckedSync(path, maxBytes);
  if (!opened) return undefined;
  try {
    let buffer = bufferFor(opened.size, maxBytes);
    let filled = 0;
    for (;;) {
      buffer = roomToRead(path, buffer, filled, maxBytes);
      const bytesRead = readSync(opened.fd, buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(opened.fd);
  }
}

function refused(path: string, why: Said): CallbarError {
  return new CallbarError(
    'profile_file_refused',
    said('errors:profile.fileRefused', { path, why }),
  );
}

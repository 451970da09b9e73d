/**
 * A small non-secret JSON file of the profile that several processes read (who was connected, why
 * a session ended): read and written in its own versioned format (file-format.ts), replaced
 * atomically, and treated as absent when it is missing or unreadable (logged), never as an error.
 * A file a newer Callbar wrote is set aside under its own name (logged), not overwritten; so is one
 * that cannot be parsed (a hand edit, a broken disk write), or cannot be read at all (larger than
 * its bound, a folder or a device in its place), as `<file>.unreadable`, before the next write
 * could replace what it still holds (every star of a malformed favourites.json).
 */
import { rename, rm } from 'node:fs/promises';
import type { Logger } from '../log/logger';
import { writeFileAtomic } from '../files/atomic-write';
import { NewerFileFormat, setAsideName, type FileFormat } from './file-format';
import { readFileNoFollow } from '../files/no-follow-file';
import { setAsideIfStill } from '../files/kept-aside';

/** The profile's small state files hold a few lines of JSON. */
const MAX_STATE_FILE_BYTES = 64 * 1024;

export interface StateFile<T> {
  /** The content, or undefined when there is none (an unreadable file counts as none). */
  read(): Promise<T | undefined>;
  write(value: T): Promise<void>;
  clear(): Promise<void>;
}

/** The same in memory only (unit tests; one process). */
export function memoryStateFile<T>(): StateFile<T> {
  let value: T | undefined;
  return {
    read: () => Promise.resolve(value),
    write: (next) => {
      value = next;
      return Promise.resolve();
    },
    clear: () => {
      value = undefined;
      return Promise.resolve();
    },
  };
}

/** The name a state file that cannot be parsed is kept under, beside it (one; the latest). */
export function unreadableName(file: string): string {
  return `${file}.unreadable`;
}

/**
 * Moves `file`, whose content `text` cannot be parsed (undefined: which could not be read at all:
 * too large, not a regular file), to {@link unreadableName} (replacing an older one) and says
 * where, once: the file is gone afterwards, so later reads find none. Another process may have
 * moved it and written a new file meanwhile: only what this one found is moved (setAsideIfStill).
 */
function keepUnreadableAside(
  file: string,
  text: string | undefined,
  maxBytes: number,
  log: Logger,
  what: string,
  readError?: unknown,
): void {
  const aside = unreadableName(file);
  let moved: boolean;
  try {
    moved = setAsideIfStill(file, text, aside, maxBytes);
  } catch (error) {
    log.warn(`the ${what} cannot be read and could not be kept aside`, { file, error });
    return;
  }
  if (moved) {
    log.warn(`the ${what} cannot be read: kept aside, starting a new one`, {
      file: aside,
      ...(readError === undefined ? {} : { error: readError }),
    });
  } else if (readError !== undefined) {
    log.warn(`could not read the ${what}`, { error: readError });
  }
}

/**
 * `file` (in the profile's folder), owner-only, with `what` naming it in the log; a file larger
 * than `maxBytes` (default 64 kB) counts as unreadable.
 */
export function profileStateFile<T>(
  file: string,
  format: FileFormat<T>,
  log: Logger,
  what: string,
  maxBytes = MAX_STATE_FILE_BYTES,
): StateFile<T> {
  return {
    async read() {
      let text: string;
      try {
        const read = await readFileNoFollow(file, maxBytes);
        if (read === undefined) return undefined;
        text = read;
      } catch (error) {
        // Too large, not a regular file, not readable: kept aside too, or the next write would
        // replace it. A link is left (that write replaces the link, not what it points to).
        keepUnreadableAside(file, undefined, maxBytes, log, what, error);
        return undefined;
      }
      try {
        return format.parse(JSON.parse(text));
      } catch (error) {
        if (error instanceof NewerFileFormat) {
          const aside = setAsideName(file, error.version);
          await rename(file, aside).catch(() => undefined);
          log.warn(`the ${what} was ${error.message}: kept aside, starting a new one`, {
            file: aside,
          });
          return undefined;
        }
        keepUnreadableAside(file, text, maxBytes, log, what);
        return undefined;
      }
    },
    write: (value) =>
      writeFileAtomic(file, JSON.stringify(format.serialize(value)) + '\n', {
        mode: 0o600,
        dirMode: 0o700,
      }),
    clear: () => rm(file, { force: true }),
  };
}

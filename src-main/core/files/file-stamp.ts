/**
 * A file's stamp: its identity (inode), size and times as one string, so that a process can tell
 * without reading it whether another process or an editor changed the file since it last looked
 * (a `stat`, no read). Two stamps are only compared, never taken apart.
 *
 * Two forms, for two kinds of change:
 * - {@link fileStamp} has the change time too: any change of the file counts, its mode and owner
 *   included (the settings and policy files, where a change of who may write them matters).
 * - {@link contentStamp} leaves it out: only a new file, or new contents, count (a cache or log
 *   another process writes, where a chmod in a loop must not make the file be read again and
 *   again).
 */
import { lstatSync, statSync, type Stats } from 'node:fs';

export interface StampOptions {
  /** Stamp a symbolic link itself (`lstat`), never what it points to; else it is followed. */
  link?: 'itself';
}

/** The file's identity, size, modification and change times; undefined when it is not there. */
export function fileStamp(file: string, options: StampOptions = {}): string | undefined {
  const stats = statOf(file, options);
  return stats && `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * The file's identity, size and modification time, without the change time (a change of only its
 * mode or owner is no change); undefined when it is not there.
 */
export function contentStamp(file: string, options: StampOptions = {}): string | undefined {
  const stats = statOf(file, options);
  return stats && `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function statOf(file: string, { link }: StampOptions): Stats | undefined {
  try {
    return link === 'itself' ? lstatSync(file) : statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * One watch on the profile folder, for what another process of the profile (the CLI, a second
 * window, the demo) changes there while Callbar runs: the settings file, the favourites, the
 * directory's cache, the session's lock. Each listener names one file of the folder and is told,
 * once per flood of changes (a burst of writes is told once, {@link SETTLE_MS} after its last),
 * that the file changed; by whom it does not say, so a listener compares what it holds with the
 * file (this process's own writes are told too). Where the platform cannot say which file changed
 * every listener is told. Without a watch (the CLI's short runs, or a folder that cannot be
 * watched) nobody is told: each use reads the files again.
 *
 * A listener that answers with a promise (it reads the keychain, or a cache of hundreds of
 * megabytes) is not told again about its file before that settles: the changes meanwhile are told
 * once after it. A flood (`session.lock` taken and left in a loop) then costs one such read at a
 * time and one after it; before, each round of the flood queued another read behind a keychain
 * answering one call at a time, dozens deep, and the session's own writes waited behind them.
 */
import { watch, type FSWatcher } from 'node:fs';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';

/** How long a change waits for more before its listeners are told (an editor's writes). */
export const SETTLE_MS = 50;

export interface FolderWatch {
  /**
   * Tells `listener` when the file `name` of the folder changed (not again before the promise it
   * may answer with settled); returns its unsubscribe.
   */
  onFile(name: string, listener: () => unknown): () => void;
  close(): void;
}

/** A watch that tells nobody anything (the CLI's, and tests without a folder). */
export const unwatchedFolder: FolderWatch = { onFile: () => () => undefined, close: () => {} };

/** Watches `folder` (see above); a folder that cannot be watched is logged, and not watched. */
export function watchFolder(folder: string, log: Logger): FolderWatch {
  const listeners = new Map<string, Set<() => unknown>>();
  const settling = new Map<string, NodeJS.Timeout>();
  /** The files whose listeners' work is under way, and whether they changed again meanwhile. */
  const busy = new Map<string, { again: boolean }>();
  const tell = (name: string) => {
    settling.delete(name);
    const working = busy.get(name);
    if (working) {
      working.again = true;
      return;
    }
    const answers = [...(listeners.get(name) ?? [])].map((listener) => listener());
    const pending = answers.filter((answer) => answer instanceof Promise);
    if (pending.length === 0) return;
    const work = { again: false };
    busy.set(name, work);
    void Promise.allSettled(pending).then(() => {
      busy.delete(name);
      if (work.again) changed(name);
    });
  };
  const changed = (name: string) => {
    if (!listeners.has(name) || settling.has(name)) return;
    settling.set(name, setTimeout(() => tell(name), SETTLE_MS).unref());
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, { persistent: false }, (_event, name) => {
      if (name === null) for (const each of listeners.keys()) changed(each);
      else changed(name);
    });
    watcher.on('error', () => watcher?.close());
  } catch (error) {
    log.debug('the profile folder is not watched; its files are read again on use', {
      error: errorMessage(error),
    });
  }
  return {
    onFile(name, listener) {
      const forName = listeners.get(name) ?? new Set();
      listeners.set(name, forName.add(listener));
      return () => {
        forName.delete(listener);
        if (forName.size === 0) listeners.delete(name);
      };
    },
    close() {
      watcher?.close();
      for (const timer of settling.values()) clearTimeout(timer);
      settling.clear();
      listeners.clear();
    },
  };
}

/**
 * The profile's settings file, followed while Callbar runs. The app, the CLI and the demo share a
 * profile, and people may edit `settings.json` by hand (docs/configuration.md): what another
 * process or an editor writes there is read again at once, by one watch on the profile folder
 * (and a look at the file's identity, size and times on each use, for a change the watch has not
 * told yet), so the running Callbar follows it (core/profile.ts applies the live settings, the
 * region source reads its region here).
 *
 * A file that cannot be applied (invalid, half-written by an editor that writes in place, a link
 * planted in its place, too large) changes nothing: the last valid read stays, whole, and
 * {@link SettingsFileSource.problem} says why (with the field) until the file is fixed. A flood
 * of changes is read once (files/folder-watch.ts).
 */
import { CallbarError, errorMessage } from '../errors';
import { fileStamp } from '../files/file-stamp';
import type { FolderWatch } from '../files/folder-watch';
import type { Logger } from '../log/logger';
import { said, type Said } from '../text/said';
import { SETTINGS_FILE_NAME, settingsFilePath } from './data-dir';
import type { Policies } from './policy/policies';
import { mergeSettings, readStoredSettings, type StoredSettings } from './settings-store';
import type { Settings } from './settings';

export interface SettingsFileSource {
  /** The settings as the file, the environment and the policies make them now (the last valid). */
  current(): Settings;
  /** The file's own values (the last valid read), without the environment and the policies. */
  stored(): StoredSettings;
  /** Why the file as it is now is not applied (it names the setting), until it is fixed. */
  problem(): Said | undefined;
  /** Called whenever what the file or the policies say changed (here or in another process). */
  onChange(listener: () => void): () => void;
  /** Reads the file again now if it changed (after this process saved it). */
  refresh(): void;
  close(): void;
}

export interface SettingsFileOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The machine's policies now (a changed policy applies at the next read). */
  policies: () => Policies;
  log: Logger;
  /**
   * The profile folder's one watch (profile.ts; files/folder-watch.ts's unwatchedFolder for the
   * CLI's short runs), which its owner closes.
   */
  folder: FolderWatch;
}

/**
 * Follows the profile's settings file.
 * @throws CallbarError `settings_invalid` or `settings_unreadable` when the file cannot be read
 *   at the start (Callbar does not start with a broken file; docs/configuration.md).
 */
export function followSettingsFile(options: SettingsFileOptions): SettingsFileSource {
  const { dataDir, env, policies, log } = options;
  const file = settingsFilePath(dataDir);
  const listeners = new Set<() => void>();
  let seen = stamp(file);
  let seenPolicies = policies();
  let stored = readStoredSettings(dataDir);
  let settings = mergeSettings(stored, env, seenPolicies);
  let problem: CallbarError | undefined;

  const read = (): void => {
    const now = stamp(file);
    const machine = policies();
    // Compared after both were asked: asking the policies may have read them (and this) again.
    if (now === seen && machine === seenPolicies) return;
    const before = JSON.stringify([stored, settings, problem?.message]);
    seen = now;
    seenPolicies = machine;
    try {
      // Validated whole before anything changes: no half of an edit applies.
      const values = readStoredSettings(dataDir);
      settings = mergeSettings(values, env, machine);
      stored = values;
      if (problem) log.info('the settings file can be read again; applied it');
      problem = undefined;
    } catch (error) {
      const refused =
        error instanceof CallbarError
          ? error
          : new CallbarError('settings_unreadable', errorMessage(error));
      // Once per problem, not once per write of a flood.
      if (refused.message !== problem?.message) {
        log.warn('the settings file changed but cannot be applied; the running settings stay', {
          error: refused.message,
          ...(refused.field === undefined ? {} : { field: refused.field }),
        });
      }
      problem = refused;
    }
    if (JSON.stringify([stored, settings, problem?.message]) === before) return;
    for (const listener of listeners) listener();
  };

  const unwatch = options.folder.onFile(SETTINGS_FILE_NAME, read);
  return {
    current: () => {
      read();
      return settings;
    },
    stored: () => {
      read();
      return stored;
    },
    problem: () => {
      read();
      return problem === undefined
        ? undefined
        : said('errors:settings.notApplied', { problem: problem.saying });
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: read,
    close: () => {
      unwatch();
      listeners.clear();
    },
  };
}

/** The file's identity, size and times (of a link itself, never what it points to), or none. */
function stamp(file: string): string {
  return fileStamp(file, { link: 'itself' }) ?? 'none';
}

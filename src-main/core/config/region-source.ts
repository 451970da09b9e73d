/**
 * The one source of the user's region, live: every path that reads, matches or shows a number
 * (search, dial, links, import, the contact editor, the tray, the CLI) asks it at the moment it
 * needs the region, so a change applies at once everywhere, without a restart. The app, the CLI
 * and the demo share a profile: a region saved by one process is seen by the others, because the
 * source reads the settings file again whenever it changed (a stat on each use, and a watch on the
 * profile folder that tells listeners without waiting for a use).
 *
 * The region is the first of: a locked policy, `CALLBAR_REGION`, the settings file, a recommended
 * policy (as every setting, settings-store.ts); else the system's (numbers/system-region.ts).
 * Only the first three are the person's or the organisation's choice: `confirmed` says whether
 * one of them set it (the window asks the person to confirm the system's region otherwise).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import type { CountryCode } from 'libphonenumber-js/max';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import { FALLBACK_REGION, knownRegion } from '../numbers/system-region';
import { SETTINGS_FILE_NAME, settingsFilePath } from './data-dir';
import type { Policies } from './policy/policies';
import { loadSettings } from './settings-store';

export interface RegionSource {
  /** The region numbers are read and shown in now. */
  current(): CountryCode;
  /** Whether someone chose it (the settings file, CALLBAR_REGION, a policy), not the system. */
  confirmed(): boolean;
  /** The system's region (the default), or FALLBACK_REGION when the system names none. */
  system(): CountryCode;
  /** Called with the new region whenever it changes (in this process or another's save). */
  onChange(listener: (region: CountryCode) => void): () => void;
  /** Reads the settings file again now (after this process saved it). */
  refresh(): CountryCode;
  close(): void;
}

/** A region that never changes (tests; a core with no profile folder). */
export function fixedRegion(region: string, confirmed = true): RegionSource {
  const code = knownRegion(region) ?? FALLBACK_REGION;
  return {
    current: () => code,
    confirmed: () => confirmed,
    system: () => code,
    onChange: () => () => undefined,
    refresh: () => code,
    close: () => undefined,
  };
}

export interface ProfileRegionOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The machine's policies now (a locked or recommended region changed by the organisation applies at once). */
  policies: () => Policies;
  /** The system's region (numbers/system-region.ts), when it names one. */
  system: CountryCode | undefined;
  log: Logger;
  /** Watch the profile folder (default true; the CLI's short runs need not). */
  watch?: boolean;
}

/** The profile's region, read again whenever its settings file changes. */
export function profileRegion(options: ProfileRegionOptions): RegionSource {
  const { dataDir, env, policies, log } = options;
  const file = settingsFilePath(dataDir);
  const system = options.system ?? FALLBACK_REGION;
  const listeners = new Set<(region: CountryCode) => void>();
  let seen = '';
  let seenPolicies: Policies | undefined;
  let chosen: CountryCode | undefined;
  let warned = false;

  const stamp = () => {
    try {
      const stats = statSync(file);
      return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  const region = () => chosen ?? system;
  const read = (): CountryCode => {
    const now = stamp();
    const machine = policies();
    if (now === seen && machine === seenPolicies) return region();
    const before = region();
    try {
      chosen = knownRegion(loadSettings({ dataDir, env, policies: machine }).region);
      seen = now;
      seenPolicies = machine;
      warned = false;
    } catch (error) {
      // A file being edited by hand, or broken: the last region read stays until it is fixed.
      if (!warned) {
        log.warn('the settings file could not be read for the region; the last one stays', {
          error: errorMessage(error),
        });
      }
      warned = true;
    }
    const after = region();
    if (after !== before) for (const listener of listeners) listener(after);
    return after;
  };
  read();

  let watcher: FSWatcher | undefined;
  if (options.watch !== false) {
    try {
      watcher = watch(dataDir, { persistent: false }, (_event, name) => {
        if (name === null || name === SETTINGS_FILE_NAME) read();
      });
      watcher.on('error', () => watcher?.close());
    } catch (error) {
      log.debug('the profile folder is not watched; the region is read again on use', {
        error: errorMessage(error),
      });
    }
  }
  return {
    current: read,
    confirmed: () => {
      read();
      // Set in the file, the environment or a policy: loadSettings merged them all.
      return chosen !== undefined;
    },
    system: () => system,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: read,
    close: () => {
      watcher?.close();
      listeners.clear();
    },
  };
}

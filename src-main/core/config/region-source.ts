/**
 * The one source of the user's region, live: every path that reads, matches or shows a number
 * (search, dial, links, import, the contact editor, the tray, the CLI) asks it at the moment it
 * needs the region, so a change applies at once everywhere, without a restart. The app, the CLI
 * and the demo share a profile: a region saved by one process is seen by the others, because the
 * source asks the profile's followed settings file (settings-file-source.ts: a stat on each use,
 * and a watch on the profile folder that tells listeners without waiting for a use).
 *
 * The region is the first of: a locked policy, `CALLBAR_REGION`, the settings file, a recommended
 * policy (as every setting, settings-store.ts); else the system's (numbers/system-region.ts).
 * Only the first three are the person's or the organisation's choice: `confirmed` says whether
 * one of them set it (the window asks the person to confirm the system's region otherwise).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { FALLBACK_REGION, knownRegion } from '../numbers/system-region';
import type { SettingsFileSource } from './settings-file-source';

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
  /** The profile's settings file, followed (settings-file-source.ts). */
  file: SettingsFileSource;
  /** The system's region (numbers/system-region.ts), when it names one. */
  system: CountryCode | undefined;
}

/** The profile's region, read again whenever its settings file or the policies change. */
export function profileRegion(options: ProfileRegionOptions): RegionSource {
  const { file } = options;
  const system = options.system ?? FALLBACK_REGION;
  const listeners = new Set<(region: CountryCode) => void>();
  // Set in the file, the environment or a policy: mergeSettings merged them all.
  const chosen = (): CountryCode | undefined => knownRegion(file.current().region);
  const current = (): CountryCode => chosen() ?? system;
  let told = current();
  const stop = file.onChange(() => {
    const now = current();
    if (now === told) return;
    told = now;
    for (const listener of listeners) listener(now);
  });
  return {
    current,
    confirmed: () => chosen() !== undefined,
    system: () => system,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: () => {
      file.refresh();
      return current();
    },
    close: () => {
      stop();
      listeners.clear();
    },
  };
}

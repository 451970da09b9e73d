/**
 * A profile: one data folder (settings, logs) and the keychain entry keyed by it, with the
 * account service on top. The app, the CLI and the web preview all start from here, so they
 * read the same settings and environment variables the same way.
 */
import { join } from 'node:path';
import { profileAccountHistory } from './account/account-history';
import { AccountService } from './account/account-service';
import { profileEndedMarker } from './account/session-ended-marker';
import { profileSessionLock } from './account/session-lock';
import { parseBodySignature } from './account/body-signature';
import { resolveDataDir } from './config/data-dir';
import { secureProfileFolder } from './files/profile-folder';
import { unwatchedFolder, watchFolder } from './files/folder-watch';
import {
  livePolicies,
  readPoliciesSync,
  type Policies,
  type PolicyLocation,
} from './config/policy/policies';
import { LIVE_SETTINGS } from './config/settings-editor';
import { followSettingsFile, type SettingsFileSource } from './config/settings-file-source';
import { profileRegion } from './config/region-source';
import { systemRegion } from './numbers/system-region';
import { profileStateFile } from './config/state-file';
import { parseHeaderList } from './http/header-list';
import { createFileLogger, type Logger } from './log/logger';
import { RelayCursorFile } from './relay/relay-link';
import { openVault } from './vault/keytar-vault';
import type { Vault } from './vault/vault';
import type { Profile } from './account/account-profile';

export type { Profile };

export interface ProfileOptions {
  env?: NodeJS.ProcessEnv;
  /** Replaces the OS keychain (tests of other modules only). */
  vault?: Vault;
  log?: Logger;
  /**
   * The machine's policies, read beforehand with readPolicies (the live Windows registry is only
   * read asynchronously); without them, those in files (readPoliciesSync).
   */
  policies?: Policies;
  /**
   * Where those policies were read (default: `env`'s CALLBAR_POLICY_DIR, else the system's): they
   * are read there again whenever a policy file changes. The packaged app gives its own, without
   * the user's CALLBAR_POLICY_DIR.
   */
  policyLocation?: PolicyLocation;
  /** How long to wait for the keychain (a desktop prompt may need a person). */
  keychainTimeoutMs?: number;
  /**
   * The operating system's region (the desktop shell's `app.getLocaleCountryCode()`); without
   * it, the locale variables of `env` say it (numbers/system-region.ts).
   */
  systemRegion?: string;
  /**
   * Watch the profile folder for another process's change (settings, favourites, the directory,
   * the session), and the policy folder for the administrator's (default true; the CLI's short
   * runs read them again on use).
   */
  watchSettings?: boolean;
  /** Relay mode: how long `listen()` waits at most for the relay's backlog (default 5 s). */
  relayCatchUpMs?: number;
}

export function openProfile(options: ProfileOptions = {}): Profile {
  const env = options.env ?? process.env;
  const dataDir = resolveDataDir(env);
  const folder = secureProfileFolder(dataDir);
  const location = options.policyLocation ?? { env };
  const firstPolicies = options.policies ?? readPoliciesSync(location);
  const log = options.log ?? createFileLogger(join(dataDir, 'logs', 'callbar.log'));
  const watch = options.watchSettings !== false;
  // What another process of the profile changes in its folder (files/folder-watch.ts).
  const changes = watch ? watchFolder(dataDir, log) : unwatchedFolder;
  // An administrator's change applies to this running process at once: the region (its source
  // asks the policies), the locks the window and a link's "always" answer obey, and the live
  // settings, read again with them (below).
  const policies = livePolicies(location, firstPolicies, {
    watch,
    onChange: (changed) => {
      for (const problem of changed.problems) log.warn(`policy: ${problem}`);
      log.info('the policies changed; applied them');
      // After the read that asked for them (which applies them itself), or the watch's look.
      queueMicrotask(() => file.refresh());
    },
  });
  // The settings file as this process, another one (a CLI, a second window) or a hand edit left
  // it; the policies as they are now. Throws at the start when the file is broken.
  let file: SettingsFileSource;
  try {
    file = followSettingsFile({
      dataDir,
      env,
      policies: () => policies.current(),
      log,
      folder: changes,
    });
  } catch (error) {
    policies.close();
    changes.close();
    throw error;
  }
  const settings = { ...file.current() };
  // A change applies to this running process at once, whoever made it: the settings a running
  // Callbar follows live (LIVE_SETTINGS; the region through its source, below); the others when
  // it starts again (the window says so).
  file.onChange(() => {
    const fresh = file.current();
    for (const name of LIVE_SETTINGS) Object.assign(settings, { [name]: fresh[name] });
  });
  if (folder.tightenedFrom !== undefined) {
    log.warn('the profile folder was open to other users; closed it (0700)', {
      was: folder.tightenedFrom.toString(8),
    });
  }
  const account = new AccountService({
    settings,
    clientSecret: env.CALLBAR_CLIENT_SECRET,
    receiverHeaders: parseHeaderList(env.CALLBAR_RECEIVER_HEADERS, 'CALLBAR_RECEIVER_HEADERS'),
    // The secret stays in memory only (see body-signature.ts).
    receiverSignature: parseBodySignature(
      env.CALLBAR_RECEIVER_HMAC,
      env.CALLBAR_RECEIVER_HMAC_SECRET,
    ),
    vault:
      options.vault ??
      openVault({
        dataDir,
        ...(options.keychainTimeoutMs ? { timeoutMs: options.keychainTimeoutMs } : {}),
      }),
    log,
    ...(options.relayCatchUpMs === undefined ? {} : { relayCatchUpMs: options.relayCatchUpMs }),
    // The app, the CLI and the demo of one profile share its session: one refresh at a time.
    coordination: {
      lock: profileSessionLock(dataDir, { log }),
      endedMarker: profileEndedMarker(dataDir, log),
    },
    history: profileAccountHistory(dataDir, log),
    relayCursor: profileStateFile(
      join(dataDir, 'relay-cursor.json'),
      RelayCursorFile,
      log,
      'position in the relay stream',
    ),
  });
  for (const problem of firstPolicies.problems) log.warn(`policy: ${problem}`);
  const region = profileRegion({ file, system: systemRegion(env, options.systemRegion) });
  return {
    dataDir,
    // Each use first reads the settings file and the policies again if one changed (which
    // updates these).
    get settings() {
      file.refresh();
      return settings;
    },
    region,
    settingsFile: file,
    changes,
    get policies() {
      return policies.current();
    },
    env,
    log,
    account,
    close: () => {
      policies.close();
      region.close();
      file.close();
      changes.close();
      return account.close();
    },
  };
}

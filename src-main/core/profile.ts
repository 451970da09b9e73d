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
import { readPoliciesSync, type Policies } from './config/policy/policies';
import { loadSettings } from './config/settings-store';
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
  /** How long to wait for the keychain (a desktop prompt may need a person). */
  keychainTimeoutMs?: number;
  /**
   * The operating system's region (the desktop shell's `app.getLocaleCountryCode()`); without
   * it, the locale variables of `env` say it (numbers/system-region.ts).
   */
  systemRegion?: string;
  /** Watch the profile folder for another process's region change (default true). */
  watchRegion?: boolean;
  /** Relay mode: how long `listen()` waits at most for the relay's backlog (default 5 s). */
  relayCatchUpMs?: number;
}

export function openProfile(options: ProfileOptions = {}): Profile {
  const env = options.env ?? process.env;
  const dataDir = resolveDataDir(env);
  const folder = secureProfileFolder(dataDir);
  const policies = options.policies ?? readPoliciesSync({ env });
  const settings = loadSettings({ dataDir, env, policies });
  const log = options.log ?? createFileLogger(join(dataDir, 'logs', 'callbar.log'));
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
  for (const problem of policies.problems) log.warn(`policy: ${problem}`);
  const region = profileRegion({
    dataDir,
    env,
    policies,
    system: systemRegion(env, options.systemRegion),
    log,
    ...(options.watchRegion === undefined ? {} : { watch: options.watchRegion }),
  });
  return {
    dataDir,
    settings,
    region,
    policies,
    env,
    log,
    account,
    close: () => {
      region.close();
      return account.close();
    },
  };
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { silentLogger, type Logger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { Vault } from '../../src-main/core/vault/vault';
import { freePort } from './free-port';
import { profileEnv } from './profile-env';

export interface TestCoreOptions {
  env?: NodeJS.ProcessEnv;
  vault?: Vault;
  log?: Logger;
  opened?: string[];
  /** The desktop shell's answer to app.showMain (none: the web preview's). */
  showMainWindow?: () => boolean;
  /** How long listen() waits for the relay's backlog (profile.ts's default unless given). */
  relayCatchUpMs?: number;
}

/**
 * A real core on a throwaway profile: its own data folder and receiver port, an in-memory vault
 * (the keychain itself is tested in test/integration/core/vault), and the platform at `env` (none by default).
 */
export async function startTestCore(options: TestCoreOptions = {}): Promise<CallbarCore> {
  const profile = openProfile({
    env: {
      // No system region whatever the machine's locale (US until chosen); a test may set one.
      LC_TELEPHONE: 'C.UTF-8',
      CALLBAR_DATA_DIR: mkdtempSync(join(tmpdir(), 'callbar-core-')),
      CALLBAR_RECEIVER_PORT: String(await freePort()),
      ...options.env,
    },
    vault: options.vault ?? new MemoryVault(),
    log: options.log ?? silentLogger,
    ...(options.relayCatchUpMs === undefined ? {} : { relayCatchUpMs: options.relayCatchUpMs }),
  });
  return startCore({
    runtime: 'preview',
    profile,
    ...(options.showMainWindow ? { showMainWindow: options.showMainWindow } : {}),
    openUrl: (url) => {
      options.opened?.push(url);
      return Promise.resolve();
    },
  });
}

/**
 * A real core whose profile talks to `sim` through the relay at `relayUrl` (CALLBAR_RELAY_URL:
 * origins joined by commas, the first tried first), on a throwaway profile folder unless
 * `dataDir` names one (a desktop started again on the same profile).
 */
export async function startRelayCore(
  sim: Parameters<typeof profileEnv>[0],
  relayUrl: string,
  options: Omit<TestCoreOptions, 'env'> & { dataDir?: string } = {},
): Promise<CallbarCore> {
  const { dataDir = mkdtempSync(join(tmpdir(), 'callbar-relay-')), ...rest } = options;
  return startTestCore({
    ...rest,
    env: { ...profileEnv(sim, dataDir, await freePort()), CALLBAR_RELAY_URL: relayUrl },
  });
}

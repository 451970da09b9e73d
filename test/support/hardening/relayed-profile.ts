/**
 * A profile whose `callbar` processes talk to the simulator through a {@link PlatformRelay} (so a
 * test sees the moment the platform rotated a pair) and keep their session in the real keychain
 * (scripts/with-keyring.sh), for the tests that end processes during refreshes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '../../../simulator/index';
import { openVault, type KeytarVault } from '../../../src-main/core/vault/keytar-vault';
import { freePort } from '../free-port';
import { issuedSession, profileEnv, startSim } from '../sim-harness';
import { startPlatformRelay, type PlatformRelay } from './platform-relay';

export interface RelayedProfile {
  sim: RunningSimulator;
  relay: PlatformRelay;
  dataDir: string;
  /** The environment of a `callbar` process of this profile. */
  env: NodeJS.ProcessEnv;
  vault: KeytarVault;
  /** Stores a new session as an activation leaves it (a new connect after a lost one). */
  connect(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelayedProfile(name: string): Promise<RelayedProfile> {
  const sim = await startSim({ profile: 'minimal' });
  const relay = await startPlatformRelay(sim.base_url);
  const dataDir = mkdtempSync(join(tmpdir(), `callbar-${name}-`));
  const vault = openVault({ dataDir });
  return {
    sim,
    relay,
    dataDir,
    // Callbar talks to the platform through the relay: its base URL is the relay's.
    env: {
      ...profileEnv({ ...sim, base_url: relay.url }, dataDir, await freePort()),
      CALLBAR_PORTAL_URL: `${relay.url}/portal`,
    },
    vault,
    async connect() {
      const session = await issuedSession(sim, sim.users[0]!, Date.now() + 24 * 3600_000);
      await vault.save({ ...session, base_url: relay.url });
      rmSync(join(dataDir, 'session-ended.json'), { force: true });
    },
    async close() {
      await vault.clear().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      await relay.close();
      await sim.close();
    },
  };
}

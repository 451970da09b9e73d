/**
 * A Callbar profile for the felt benchmark: a simulator as the platform, the account signed in
 * (its tokens in the profile's vault, as after Connect) and the directory already cached with
 * `contacts` (written by Callbar's own writeCache, synced just now, so no sync starts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../simulator/index';
import type { DirectoryContact } from '../../src-shared/contract';
import { writeCache } from '../../src-main/core/directory/directory-cache';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import type { Vault } from '../../src-main/core/vault/vault';
import { freePort } from '../../test/support/free-port';
import { profileEnv } from '../../test/support/sim-harness';

export interface FeltProfile {
  sim: RunningSimulator;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  account: StoredAccount;
  /** Replaces the cached directory with `contacts`. */
  cache(contacts: readonly DirectoryContact[], priorities: Map<number, number>): Promise<void>;
  close(): Promise<void>;
}

export async function feltProfile(vaultOf: (dataDir: string) => Vault): Promise<FeltProfile> {
  // Call control without the platform's rate limit: the bench dials a few hundred times.
  const sim = await startSimulator({
    contacts: 40,
    autoAnswer: true,
    rateLimits: {
      phonebook: { limit: 600, window_seconds: 60 },
      'call-control': { limit: 100_000, window_seconds: 60 },
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-felt-'));
  const env = {
    ...profileEnv(sim, dataDir, await freePort()),
    CALLBAR_REGION: 'DE',
  };
  const user = sim.users[0]!;
  const issued = (await (
    await fetch(`${sim.base_url}/__sim/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: sim.tenant_id, user_extension: user.extension }),
    })
  ).json()) as { access_token: string; refresh_token: string };
  const account: StoredAccount = {
    ...issued,
    expires_at: Date.now() + 3600_000,
    tenant_id: sim.tenant_id,
    user_extension: user.extension,
    client_id: sim.client_id,
    client_secret: sim.client_secret,
    base_url: sim.base_url,
  };
  const vault = vaultOf(dataDir);
  await vault.save(account);
  return {
    sim,
    dataDir,
    env,
    account,
    cache: (contacts, priorities) =>
      writeCache(dataDir, {
        owner: { tenant_id: sim.tenant_id, user_extension: user.extension, base_url: sim.base_url },
        synced_at: new Date().toISOString(),
        phonebooks: [...priorities].map(([id, priority]) => ({
          id,
          description: `Phonebook ${id}`,
          priority,
        })),
        contacts: [...contacts],
      }),
    close: async () => {
      await vault.clear().catch(() => undefined);
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A Callbar profile for the felt benchmark: a simulator as the platform, the account signed in
 * (its tokens in the profile's vault, as after Connect) and the directory already cached with
 * `contacts` (written by Callbar's own writeCache with the search texts for the profile's region,
 * as a sync writes it, synced just now, so no sync starts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../simulator/index';
import type { DirectoryContact } from '../../src-shared/contract';
import {
  legacyCacheFile,
  writeCache,
  type CachedDirectory,
} from '../../src-main/core/directory/directory-cache';
import { contactColumns } from '../../src-main/core/directory/directory-cache-format';
import { searchTextsOf } from '../../src-main/core/directory/search-texts';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import type { Vault } from '../../src-main/core/vault/vault';
import { freePort } from '../../test/support/free-port';
import { profileEnv } from '../../test/support/sim-harness';

export interface FeltProfile {
  sim: RunningSimulator;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  account: StoredAccount;
  /**
   * Replaces the cached directory with `contacts`. `withFormat4`: a `directory.json` of format 4
   * too (what Callbar wrote before issue 45), for an older build started on the same profile
   * (the start probe's before/after); today's build reads `directory.bin` and leaves it.
   */
  cache(
    contacts: readonly DirectoryContact[],
    priorities: Map<number, number>,
    withFormat4?: boolean,
  ): Promise<void>;
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
  const region = env.CALLBAR_REGION;
  return {
    sim,
    dataDir,
    env,
    account,
    cache: async (contacts, priorities, withFormat4 = false) => {
      const cache: CachedDirectory = {
        owner: { tenant_id: sim.tenant_id, user_extension: user.extension, base_url: sim.base_url },
        synced_at: new Date().toISOString(),
        phonebooks: [...priorities].map(([id, priority]) => ({
          id,
          description: `Phonebook ${id}`,
          priority,
        })),
        contacts: [...contacts],
      };
      await writeCache(dataDir, cache, searchTextsOf(contacts, region));
      if (withFormat4) {
        const { contacts: rows, ...head } = cache;
        writeFileSync(
          legacyCacheFile(dataDir),
          JSON.stringify({ format: 4, ...head, contacts: contactColumns(rows) }),
          { mode: 0o600 },
        );
      }
    },
    close: async () => {
      await vault.clear().catch(() => undefined);
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

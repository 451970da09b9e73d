/**
 * The platform API as the app builds it, signed in to a running simulator as its first user (the
 * view-all role), for benchmarks against the simulator.
 */
import type { RunningSimulator } from '../simulator/index';
import { TokenManager } from '../src-main/core/account/token-manager';
import { createPlatformApi, type PlatformApi } from '../src-main/core/api/platform-api';
import { silentLogger } from '../src-main/core/log/logger';
import { MemoryVault } from '../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../src-main/core/vault/stored-account';

/** A session for the simulator's first user (the view-all role), as activation stores it. */
export async function issuedAccount(
  sim: RunningSimulator,
  expiresAt = Date.now() + 3600_000,
): Promise<StoredAccount> {
  const issued = (await (
    await fetch(`${sim.base_url}/__sim/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: sim.tenant_id, user_extension: sim.users[0]!.extension }),
    })
  ).json()) as { access_token: string; refresh_token: string };
  return {
    ...issued,
    expires_at: expiresAt,
    tenant_id: sim.tenant_id,
    user_extension: sim.users[0]!.extension,
    client_id: sim.client_id,
    client_secret: sim.client_secret,
    base_url: sim.base_url,
  };
}

export async function signedInApi(sim: RunningSimulator): Promise<PlatformApi> {
  const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
  await tokens.adopt(await issuedAccount(sim));
  return createPlatformApi({ baseUrl: sim.base_url, tokens, log: silentLogger });
}

import type { RunningSimulator } from '../../simulator/index';
import { TokenManager } from '../../src-main/core/account/token-manager';
import { createPlatformApi, type PlatformApi } from '../../src-main/core/api/platform-api';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import { issuedSession } from './sim-harness';

/** The platform API as the app builds it, signed in as `sim.users[userIndex]`. */
export async function apiFor(
  sim: RunningSimulator,
  userIndex = 0,
  adjust: (account: StoredAccount) => StoredAccount = (account) => account,
): Promise<{ api: PlatformApi; tokens: TokenManager }> {
  const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
  await tokens.adopt(adjust(await issuedSession(sim, sim.users[userIndex]!)));
  const api = createPlatformApi({
    baseUrl: sim.base_url,
    tokens,
    log: silentLogger,
    client: { retry: { limit: 3, baseDelayMs: 20, maxDelayMs: 200 } },
  });
  return { api, tokens };
}

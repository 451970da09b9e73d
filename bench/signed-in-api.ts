/**
 * The platform API as the app builds it, signed in to a running simulator as its first user (the
 * view-all role), for benchmarks against the simulator.
 */
import type { RunningSimulator } from '../simulator/index';
import { TokenManager } from '../src-main/core/account/token-manager';
import { createPlatformApi, type PlatformApi } from '../src-main/core/api/platform-api';
import { silentLogger } from '../src-main/core/log/logger';
import { MemoryVault } from '../src-main/core/vault/memory-vault';
import { issuedSession } from '../test/support/issued-session';

export async function signedInApi(sim: RunningSimulator): Promise<PlatformApi> {
  const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
  await tokens.adopt(await issuedSession(sim, sim.users[0]!));
  return createPlatformApi({ baseUrl: sim.base_url, tokens, log: silentLogger });
}

import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';

/** Tokens for `user` issued by the simulator (no portal), as a stored account. */
export async function issuedSession(
  sim: RunningSimulator,
  user: { extension: string },
  expiresAt = Date.now() + 3600_000,
): Promise<StoredAccount> {
  const tokens = await new SimControl(sim.base_url).issueTokens({
    tenant_id: sim.tenant_id,
    user_extension: user.extension,
  });
  return {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_at: expiresAt,
    tenant_id: sim.tenant_id,
    user_extension: user.extension,
    client_id: sim.client_id,
    client_secret: sim.client_secret,
    base_url: sim.base_url,
  };
}

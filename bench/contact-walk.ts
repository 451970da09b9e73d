/**
 * Walking every contact through the platform client, at the contract's default page size (48)
 * and at the simulator's maximum (1000): the figure behind the design's "full sync with the
 * largest page_size the platform accepts". Real HTTP against the simulator on loopback.
 */
import { startSimulator } from '../simulator/index';
import { TokenManager } from '../src-main/core/account/token-manager';
import { createPlatformApi } from '../src-main/core/api/platform-api';
import { silentLogger } from '../src-main/core/log/logger';
import { MemoryVault } from '../src-main/core/vault/memory-vault';

export async function contactWalk(contacts = 8000): Promise<void> {
  const sim = await startSimulator({
    contacts,
    autoAnswer: false,
    rateLimits: { phonebook: { limit: 1_000_000, window_seconds: 60 } },
  });
  try {
    const issued = (await (
      await fetch(`${sim.base_url}/__sim/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenant_id: sim.tenant_id, user_extension: sim.users[0]!.extension }),
      })
    ).json()) as { access_token: string; refresh_token: string };
    const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
    await tokens.adopt({
      ...issued,
      expires_at: Date.now() + 3600_000,
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      client_id: sim.client_id,
      client_secret: sim.client_secret,
      base_url: sim.base_url,
    });
    const api = createPlatformApi({ baseUrl: sim.base_url, tokens, log: silentLogger });
    console.log(`${contacts} contacts in the simulator, user with the view-all role`);
    console.log('page_size  requests  seconds  contacts/s');
    for (const pageSize of [48, 200, 1000]) {
      const started = performance.now();
      let count = 0;
      for await (const contact of api.phonebooks.allContacts({ page_size: pageSize })) {
        if (contact.id) count++;
      }
      const seconds = (performance.now() - started) / 1000;
      const requests = Math.ceil(count / pageSize);
      console.log(
        `${String(pageSize).padStart(9)}  ${String(requests).padStart(8)}  ${seconds.toFixed(2).padStart(7)}  ${Math.round(
          count / seconds,
        )
          .toString()
          .padStart(10)}`,
      );
    }
  } finally {
    await sim.close();
  }
}

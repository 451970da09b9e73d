/**
 * A full directory sync against the simulator at its largest tenant (8,700 contacts), under the
 * rich profile (pages of up to 1000, 600 requests a minute) and the minimal one (pages of 100,
 * 120 requests a minute): seconds, requests sent, and whether any request met a 429.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../simulator/index';
import { TokenManager } from '../src-main/core/account/token-manager';
import { createPlatformApi } from '../src-main/core/api/platform-api';
import { Directory } from '../src-main/core/directory/directory';
import { silentLogger } from '../src-main/core/log/logger';
import { MemoryVault } from '../src-main/core/vault/memory-vault';

export interface SyncFigures {
  contacts: number;
  requests: number;
  seconds: number;
  /** Requests the platform answered 429. */
  throttled: number;
}

const PROFILES = {
  rich: { maxPageSize: 1000, rateLimits: { phonebook: { limit: 600, window_seconds: 60 } } },
  minimal: { maxPageSize: 100, rateLimits: { phonebook: { limit: 120, window_seconds: 60 } } },
};

async function syncOnce(profile: keyof typeof PROFILES, contacts: number): Promise<SyncFigures> {
  const sim = await startSimulator({ contacts, autoAnswer: false, ...PROFILES[profile] });
  const dataDir = await mkdtemp(join(tmpdir(), 'callbar-bench-sync-'));
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
    const directory = new Directory({
      dataDir,
      region: 'US',
      log: silentLogger,
      phonebooks: () => api.phonebooks,
      owner: () => 'bench',
      intervalMs: 15 * 60_000,
    });
    const started = performance.now();
    const outcome = await directory.sync();
    const seconds = (performance.now() - started) / 1000;
    await directory.close();
    const log = (await (await fetch(`${sim.base_url}/__sim/requests`)).json()) as {
      status: number | null;
    }[];
    return {
      contacts: outcome.status.contacts,
      requests: outcome.requests,
      seconds: Number(seconds.toFixed(2)),
      throttled: log.filter((entry) => entry.status === 429).length,
    };
  } finally {
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Median of `runs` syncs per profile (each against a fresh simulator). */
export async function syncDirectory(
  contacts = 8700,
  runs = 3,
): Promise<Record<string, SyncFigures>> {
  console.log(`${contacts} contacts, user with the view-all role; median of ${runs} syncs`);
  console.log('profile   page size  limit/min  contacts  requests  seconds  429s');
  const figures: Record<string, SyncFigures> = {};
  for (const profile of ['rich', 'minimal'] as const) {
    const results: SyncFigures[] = [];
    for (let run = 0; run < runs; run++) results.push(await syncOnce(profile, contacts));
    results.sort((a, b) => a.seconds - b.seconds);
    const f = results[Math.floor(results.length / 2)]!;
    figures[profile] = f;
    const { maxPageSize, rateLimits } = PROFILES[profile];
    console.log(
      `${profile.padEnd(8)} ${String(maxPageSize).padStart(10)} ${String(rateLimits.phonebook.limit).padStart(10)} ${String(f.contacts).padStart(9)} ${String(f.requests).padStart(9)} ${f.seconds.toFixed(2).padStart(8)} ${String(f.throttled).padStart(5)}`,
    );
  }
  return figures;
}

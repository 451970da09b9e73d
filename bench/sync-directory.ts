/**
 * A full directory sync against the simulator at its largest tenant (8,700 contacts), under the
 * rich profile (pages of up to 1000, 600 requests a minute) and the minimal one (pages of 100,
 * 120 requests a minute): seconds, requests sent, and whether any request met a 429.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../simulator/index';
import { signedInApi } from './signed-in-api';
import { Directory } from '../src-main/core/directory/directory';
import { silentLogger } from '../src-main/core/log/logger';

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

/** A directory of its own profile syncing through `api`, as the app's does. */
function benchDirectory(dataDir: string, api: Awaited<ReturnType<typeof signedInApi>>): Directory {
  return new Directory({
    dataDir,
    region: 'US',
    log: silentLogger,
    phonebooks: () => api.phonebooks,
    owner: () => ({ tenant_id: 'bench', user_extension: '201', base_url: 'bench' }),
    intervalMs: 15 * 60_000,
  });
}

async function syncOnce(profile: keyof typeof PROFILES, contacts: number): Promise<SyncFigures> {
  const sim = await startSimulator({ contacts, autoAnswer: false, ...PROFILES[profile] });
  const dataDir = await mkdtemp(join(tmpdir(), 'callbar-bench-sync-'));
  try {
    const api = await signedInApi(sim);
    const directory = benchDirectory(dataDir, api);
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

/** A first sync over a slow link: when its contacts could be searched, and when it completed. */
export interface SlowLinkFigures {
  contacts: number;
  requests: number;
  /** Seconds until the directory as walked could be searched (its boundaries still asked about). */
  searchable_s: number;
  /** Seconds until the sync completed ("ready"). */
  complete_s: number;
}

/**
 * A first sync of `contacts` in pages of 100 (the minimal profile) where every contact page takes
 * `delayMs` to come (a platform across the internet): every page boundary is exposed, and the
 * walk asks about each before the sync completes (page-walk.ts); the directory can be searched
 * from the moment the pages are in.
 */
async function slowLinkSync(contacts: number, delayMs: number): Promise<SlowLinkFigures> {
  const sim = await startSimulator({ contacts, autoAnswer: false, ...PROFILES.minimal });
  const dataDir = await mkdtemp(join(tmpdir(), 'callbar-bench-sync-'));
  try {
    await fetch(`${sim.base_url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v3/phonebook/contact/', match: 'prefix', delay_ms: delayMs }),
    });
    const api = await signedInApi(sim);
    const directory = benchDirectory(dataDir, api);
    const started = performance.now();
    let searchable: number | undefined;
    directory.onChange((status) => {
      if (searchable === undefined && status.state === 'syncing' && status.contacts > 0) {
        searchable = performance.now();
      }
    });
    const outcome = await directory.sync();
    const complete = performance.now();
    await directory.close();
    return {
      contacts: outcome.status.contacts,
      requests: outcome.requests,
      searchable_s: Number((((searchable ?? complete) - started) / 1000).toFixed(2)),
      complete_s: Number(((complete - started) / 1000).toFixed(2)),
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
): Promise<Record<string, SyncFigures | SlowLinkFigures>> {
  console.log(`${contacts} contacts, user with the view-all role; median of ${runs} syncs`);
  console.log('profile   page size  limit/min  contacts  requests  seconds  429s');
  const figures: Record<string, SyncFigures | SlowLinkFigures> = {};
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
  const slow = await slowLinkSync(3000, 120);
  figures.first_sync_slow_link = slow;
  console.log(
    `first sync of ${slow.contacts} contacts, pages of 100 taking 120 ms each (every boundary asked about): searchable after ${slow.searchable_s} s, complete after ${slow.complete_s} s (${slow.requests} requests)`,
  );
  return figures;
}

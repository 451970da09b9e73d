/**
 * The profile's sync problem (`sync-problem.json`), which `callbar status` in another process
 * reads: two directories on one profile folder, as the app and a CLI command are, against the
 * real simulator over HTTP. A failed sync says so until one completes; a sync that fails after
 * another process completed one since it began leaves nothing to say (the cache is complete).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { Directory } from '../../../../src-main/core/directory/directory';
import { lastSyncProblem, syncProblemFile } from '../../../../src-main/core/directory/sync-problem';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { apiFor } from '../../../support/api-rig';
import { control, startSim } from '../../../support/sim-harness';

const CONTACTS = '/v3/phonebook/contact/';
const OWNER = { tenant_id: 'acme', user_extension: '201', base_url: 'sim' };

function directoryOf(api: PlatformApi, dataDir: string): Directory {
  return new Directory({
    dataDir,
    region: 'DE',
    log: silentLogger,
    phonebooks: () => api.phonebooks,
    owner: () => OWNER,
    intervalMs: 15 * 60_000,
  });
}

/** What `callbar status` says of the profile's last sync. */
function problemOf(dataDir: string) {
  return lastSyncProblem(syncProblemFile(dataDir, silentLogger), OWNER);
}

/** Resolves once the simulator has used up `id`'s fault (of count 1) on a request. */
async function faultHit(sim: RunningSimulator, id: string): Promise<void> {
  for (;;) {
    const faults = await control<{ id: string }[]>(sim, 'GET', 'faults');
    if (!faults.some((fault) => fault.id === id)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the profile's sync problem, with two processes on one profile", () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ contacts: 300 });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('a failed sync is said to the other process until a sync completes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-sync-problem-'));
    const [app, cli] = [directoryOf(api, dataDir), directoryOf(api, dataDir)];
    await app.sync();
    await control(sim, 'POST', 'faults', { method: 'GET', path: CONTACTS, malformed: true });
    await expect(cli.sync()).rejects.toThrow(/not JSON/);
    await control(sim, 'DELETE', 'faults');
    expect((await problemOf(dataDir))?.message).toMatch(
      /^The last sync did not complete: .*not JSON/,
    );
    await app.sync();
    expect(await problemOf(dataDir)).toBeUndefined();
    await Promise.all([app.close(), cli.close()]);
  });

  it('a sync that fails after the other process completed one since it began says nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-sync-problem-'));
    const [app, cli] = [directoryOf(api, dataDir), directoryOf(api, dataDir)];
    await app.sync();
    // The app's next sync: its first page held back, then lost (not JSON).
    const { id } = await control<{ id: string }>(sim, 'POST', 'faults', {
      method: 'GET',
      path: CONTACTS,
      delay_ms: 4000,
      malformed: true,
      count: 1,
    });
    const order: string[] = [];
    const failing = app.sync().then(
      () => order.push('app completed'),
      (error: unknown) => order.push(`app failed: ${String(error)}`),
    );
    await faultHit(sim, id);
    // Meanwhile the CLI syncs the whole directory, the cache is complete and newer.
    await cli.sync();
    order.push('cli completed');
    await failing;
    expect(order).toEqual(['cli completed', expect.stringMatching(/^app failed: .*not JSON/)]);
    expect(await problemOf(dataDir)).toBeUndefined();
    // The failing process says so of its own copy, which is the previous one.
    expect(app.status().last_error).toMatch(/^The last sync did not complete/);
    await Promise.all([app.close(), cli.close()]);
  });
});

/**
 * The directory through the core's IPC channels, as the renderer uses it: directory.sync starts a
 * sync whose progress and completion arrive as directory.changed events; directory.search and
 * directory.status answer from the index; the core exposes caller lookup for the calls feature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { CallbarEvent, DirectoryStatus, SearchResult } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { WARM_UP_QUERIES } from '../../../../src-main/core/ipc/search-warm-up';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { startTestCore } from '../../../support/test-core';
import { capturingLogger, issuedSession, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

/** The warm-up's log lines among what `lines` (a capturingLogger's) kept. */
function warmUps(lines: string[]): Record<string, unknown>[] {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === 'search warmed up');
}

describe('directory channels', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSim({ contacts: 120 });
  });
  afterAll(() => sim.close());

  it('refuses to sync before the account is connected, with a sentence saying what to do', async () => {
    const core = await startTestCore({ env: { CALLBAR_BASE_URL: sim.base_url } });
    try {
      expect(await core.router.invoke('directory.sync', {})).toEqual({
        ok: false,
        error: { code: 'not_connected', message: 'Connect Callbar to your phone account first.' },
      });
      expect(await core.router.invoke('directory.status', {})).toEqual({
        ok: true,
        value: { state: 'empty', contacts: 0, phonebooks: 0 },
      });
    } finally {
      await core.close();
    }
  });

  it('syncs on connection, publishes progress and completion, then searches', async () => {
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    let core: CallbarCore | undefined;
    const events: CallbarEvent[] = [];
    const ready = new Promise<DirectoryStatus>((resolve) => {
      void startTestCore({ env: { CALLBAR_BASE_URL: sim.base_url }, vault }).then((started) => {
        core = started;
        core.events.subscribe((event) => {
          events.push(event);
          if (event.type === 'directory.changed' && event.status.state === 'ready') {
            resolve(event.status);
          }
        });
      });
    });
    // A connected profile with no directory syncs by itself at start.
    const status = await ready;
    try {
      expect(status).toMatchObject({ state: 'ready', contacts: 120, phonebooks: 7 });
      const changes = events.flatMap((event) =>
        event.type === 'directory.changed' ? [event.status] : [],
      );
      expect(changes.some((change) => change.state === 'syncing' && change.progress)).toBe(true);

      const searched = await core!.router.invoke('directory.search', { query: 'a', limit: 3 });
      expect(searched.ok).toBe(true);
      const result = (searched as { value: SearchResult }).value;
      expect(result.hits).toHaveLength(3);
      const first = result.hits[0]!.contact;
      expect(core!.directory.lookupByNumber(first.number)?.id).toBe(first.id);

      // On demand: answers at once with "syncing", then a ready event follows.
      const again = new Promise<void>((resolve) =>
        core!.events.subscribe((event) => {
          if (event.type === 'directory.changed' && event.status.state === 'ready') resolve();
        }),
      );
      const started = await core!.router.invoke('directory.sync', {});
      expect(started).toMatchObject({ ok: true, value: { state: 'syncing' } });
      await again;
      expect(await core!.router.invoke('directory.status', {})).toMatchObject({
        ok: true,
        value: { state: 'ready', contacts: 120 },
      });
    } finally {
      await core?.close();
    }
  }, 30_000);

  it('warms its search up once the index holds contacts, once a start, and not while it is empty', async () => {
    const empty = capturingLogger();
    const unconnected = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url },
      log: empty.log,
    });
    await unconnected.directory.indexReady();
    await new Promise((turn) => setTimeout(turn, 50));
    await unconnected.close();
    expect(warmUps(empty.lines)).toEqual([]);

    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    const kept = capturingLogger();
    const core = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url },
      vault,
      log: kept.log,
    });
    try {
      // The first sync fills the index (no cache yet): then every warm-up search is asked.
      const warmed = await until('the warm-up', () => Promise.resolve(warmUps(kept.lines)[0]));
      expect(warmed).toMatchObject({ searches: WARM_UP_QUERIES.length });
      const synced = new Promise<void>((resolve) =>
        core.events.subscribe((event) => {
          if (event.type === 'directory.changed' && event.status.state === 'ready') resolve();
        }),
      );
      expect(await core.router.invoke('directory.sync', {})).toMatchObject({ ok: true });
      await synced;
      await core.directory.indexReady();
      await new Promise((turn) => setTimeout(turn, 50));
      expect(warmUps(kept.lines)).toHaveLength(1);
    } finally {
      await core.close();
    }
  }, 30_000);
});

/**
 * `callbar sync` and `callbar search` as a user runs them (the CLI inside the test's process; the
 * first sync through the real bin), against the simulator, with the session in the real keychain
 * of a throwaway profile.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import type { DirectoryStatus, SearchResult } from '../../../src-shared/contract';
import { cacheFile, writeCache } from '../../../src-main/core/directory/directory-cache';
import { readSnapshot } from '../../../src-main/core/directory/directory-snapshot';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbar, runCallbarInProcess } from '../../support/cli-process';
import { issuedSession, startSim } from '../../support/sim-harness';

describe('callbar sync / search', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  beforeAll(async () => {
    sim = await startSim({ contacts: 400, maxPageSize: 100 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-directory-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url, CALLBAR_REGION: 'us' };
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  it('search says when there is nothing synced yet', async () => {
    const run = await runCallbarInProcess(['search', 'anna'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Run `callbar sync` first.');
  });

  it('sync prints one JSON object; search then answers from the cache', async () => {
    const synced = await runCallbar(['sync', '--json'], env);
    expect(synced.code).toBe(0);
    const lines = synced.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const status = JSON.parse(lines[0]!) as DirectoryStatus & { requests: number };
    expect(status).toMatchObject({ state: 'ready', contacts: 400, phonebooks: 7 });
    // 400 contacts in pages of 100 over 7 phonebooks, plus the phonebook list.
    expect(status.requests).toBeGreaterThanOrEqual(8);

    const human = await runCallbarInProcess(['sync'], env);
    expect(human.stdout).toMatch(
      /^Synced 400 contacts from 7 phonebooks in [\d.]+ s \(\d+ requests\)\.$/,
    );
  }, 60_000);

  it('finds what a contact created through the CLI holds, at once, by digits however typed', async () => {
    const created = await runCallbarInProcess(
      [
        'contacts',
        'create',
        '--phonebook',
        '3',
        '--name',
        'Grete Nørgaard',
        '--number',
        '+1 (907) 555-0163',
        '--speed-dial',
        '7602',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: number };
    for (const query of ['9075550163', '555 0163', 'grete norg', '7602']) {
      const found = await runCallbarInProcess(['search', query, '--json'], env);
      const result = JSON.parse(found.stdout) as SearchResult;
      expect(result.hits[0]?.contact.id, query).toBe(id);
    }
    const table = await runCallbarInProcess(['search', 'nørgaard'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+COMPANY\s+NUMBER/);
    expect(table.stdout).toContain('Grete Nørgaard');

    const deleted = await runCallbarInProcess(['contacts', 'delete', String(id)], env);
    expect(deleted.code).toBe(0);
    const gone = JSON.parse(
      (await runCallbarInProcess(['search', 'grete norg', '--json'], env)).stdout,
    ) as SearchResult;
    expect(gone.hits).toEqual([]);
  }, 60_000);

  it('limits the hits, and refuses a bad limit', async () => {
    const limited = JSON.parse(
      (await runCallbarInProcess(['search', 'a', '--limit', '3', '--json'], env)).stdout,
    ) as SearchResult;
    expect(limited.hits).toHaveLength(3);
    const bad = await runCallbarInProcess(['search', 'a', '--limit', '0'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 500');
  });

  it('says when the directory is stale', async () => {
    const { head, rows } = readSnapshot(readFileSync(cacheFile(dataDir)));
    await writeCache(dataDir, {
      ...head,
      synced_at: '2020-01-01T00:00:00.000Z',
      contacts: Array.from({ length: rows.length }, (_, i) => rows.make(i)),
    });
    const run = await runCallbarInProcess(['search', 'a', '--limit', '1'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('last synced at 2020-01-01T00:00:00.000Z');
    expect(run.stderr).toContain('run `callbar sync` to refresh it');
  });
});

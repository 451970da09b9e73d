/**
 * One profile's `directory.bin` written by two processes: the app (a Directory of this process,
 * as the window's core has it) and the `callbar` bin. The app keeps the directory it last read or
 * synced in memory; a contact saved through it must not write that copy back over what the CLI
 * wrote since (a contact it created), and a sync it was running must not write back a contact
 * the CLI deleted meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import type { SearchResult } from '../../../src-shared/contract';
import { TokenManager } from '../../../src-main/core/account/token-manager';
import { createPlatformApi, type PlatformApi } from '../../../src-main/core/api/platform-api';
import { Directory } from '../../../src-main/core/directory/directory';
import { readCache } from '../../../src-main/core/directory/directory-cache';
import { silentLogger } from '../../../src-main/core/log/logger';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import type { StoredAccount } from '../../../src-main/core/vault/stored-account';
import { runCallbar } from '../../support/cli-process';
import { issuedSession, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';

let sim: RunningSimulator;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let session: StoredAccount;
let api: PlatformApi;

beforeAll(async () => {
  sim = await startSim({ contacts: 20 });
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-shared-cache-'));
  session = await issuedSession(sim, sim.users[0]!);
  await openVault({ dataDir }).save(session);
  env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url, CALLBAR_REGION: 'us' };
  const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
  await tokens.adopt(session);
  api = createPlatformApi({ baseUrl: sim.base_url, tokens, log: silentLogger });
});
afterAll(async () => {
  await openVault({ dataDir }).clear();
  rmSync(dataDir, { recursive: true, force: true });
  await sim.close();
});

function appDirectory(phonebooks: PlatformApi['phonebooks'] = api.phonebooks): Directory {
  return new Directory({
    dataDir,
    region: 'US',
    log: silentLogger,
    phonebooks: () => phonebooks,
    owner,
    intervalMs: 15 * 60_000,
  });
}

const owner = () => ({
  tenant_id: session.tenant_id,
  user_extension: session.user_extension,
  base_url: session.base_url,
});

async function search(query: string): Promise<SearchResult> {
  const run = await runCallbar(['search', query, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as SearchResult;
}

it('keeps the contact the CLI created when the app then saves one of its own', async () => {
  const app = appDirectory();
  try {
    await app.load();
    await app.sync();
    const phonebook = (await api.phonebooks.listPhonebooks()).results[0]!.id;

    // Another process (the bin) creates a contact: the platform has it, and so does the cache.
    const created = await runCallbar(
      [
        'contacts',
        'create',
        '--phonebook',
        String(phonebook),
        '--name',
        'Zora Quist',
        '--number',
        '+1 907 555 0199',
        '--speed-dial',
        '7611',
        '--json',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const fromCli = (JSON.parse(created.stdout) as { id: number }).id;

    // The app, whose copy is from before, saves a contact through the platform as the window does.
    const fromApp = await api.phonebooks.createContact({
      phonebook,
      display_name: 'Ulla Brekke',
      number: '+1 907 555 0188',
      secondary_number: null,
      speed_dial: 7612,
    });
    await app.upsertLocal(fromApp);

    // Both are in the profile's directory, for the next process and for the app itself.
    expect((await search('zora quist')).hits.map((hit) => hit.contact.id)).toEqual([fromCli]);
    expect((await search('ulla brekke')).hits.map((hit) => hit.contact.id)).toEqual([fromApp.id]);
    const cached = await readCache(dataDir, owner());
    const ids = cached.status === 'ok' ? cached.cache.contacts.map((contact) => contact.id) : [];
    expect(ids).toEqual(expect.arrayContaining([fromCli, fromApp.id]));
    expect(app.search('zora quist').hits.map((hit) => hit.contact.id)).toEqual([fromCli]);
  } finally {
    await app.close();
  }
}, 60_000);

it('keeps a contact the CLI deleted while the app synced deleted', async () => {
  // The app's sync is held once it fetched every page (its last phonebook's walk waits).
  const books = (await api.phonebooks.listPhonebooks()).count;
  let walked = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const real = api.phonebooks;
  const held = new Proxy(real, {
    get(target, name) {
      if (name === 'walkContacts') {
        return async function* (...args: Parameters<typeof real.walkContacts>) {
          yield* target.walkContacts(...args);
          if (++walked === books) await gate;
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const app = appDirectory(held);
  try {
    await app.load();
    const victim = await api.phonebooks.createContact({
      phonebook: (await api.phonebooks.listPhonebooks()).results[0]!.id,
      display_name: 'Vera Lindqvist',
      number: '+1 907 555 0177',
      secondary_number: null,
      speed_dial: 7613,
    });
    const syncing = app.sync();
    await until('the sync to have fetched every page', () => (walked === books ? true : undefined));

    const deleted = await runCallbar(['contacts', 'delete', String(victim.id)], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    release();
    await syncing;

    const found = (query: SearchResult) => query.hits.map((hit) => hit.contact.id);
    expect(found(await search(victim.display_name))).not.toContain(victim.id);
    expect(found(app.search(victim.display_name))).not.toContain(victim.id);
  } finally {
    release();
    await app.close();
  }
}, 60_000);

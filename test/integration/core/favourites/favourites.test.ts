/**
 * Favourites: the person's stars kept in the profile (listed in the order starred, bounded),
 * policy favourites first and read-only, what the tray menu gets, and two CLI processes starring
 * at the same moment without losing either's star.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { DirectoryContact, FavouriteContact } from '../../../../src-shared/contract';
import { processOnlyLock } from '../../../../src-main/core/account/session-lock';
import { memoryStateFile } from '../../../../src-main/core/config/state-file';
import {
  trayFavourites,
  trayMenu,
  type TrayMenuItem,
} from '../../../../src-main/core/desktop/tray-model';
import { ContactIndex } from '../../../../src-main/core/directory/contact-index';
import {
  Favourites,
  MAX_FAVOURITES,
  profileFavourites,
} from '../../../../src-main/core/favourites/favourites';
import { createLogger, silentLogger } from '../../../../src-main/core/log/logger';
import { openVault } from '../../../../src-main/core/vault/keytar-vault';
import { allOutput, callbar, runCallbarInProcess } from '../../../support/cli-process';
import { apiFor } from '../../../support/api-rig';
import { issuedSession, startSim } from '../../../support/sim-harness';

function contact(id: number, name: string, number: string): DirectoryContact {
  return {
    id,
    phonebook: 1,
    phonebook_name: 'Team',
    display_name: name,
    company: '',
    number,
    secondary_number: null,
    speed_dial: null,
  };
}

const CONTACTS = Array.from({ length: MAX_FAVOURITES + 5 }, (_, i) =>
  contact(i + 1, `Person ${i + 1}`, `+1202555${String(1000 + i)}`),
);
const directory = ContactIndex.build(CONTACTS, { region: 'US', priorityOf: () => 1 });

describe('favourites', () => {
  it('lists stars in the order they were made, keeps them in the profile, and unstars', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-favourites-'));
    try {
      const favourites = profileFavourites(dataDir, silentLogger, directory);
      await favourites.set(3, true);
      await favourites.set(1, true);
      await favourites.set(3, true); // twice is once
      // Another process of the profile reads the same file.
      const again = profileFavourites(dataDir, silentLogger, directory);
      const listed = await again.list();
      expect(listed.map((f) => f.id)).toEqual([3, 1]);
      expect(listed[0]).toMatchObject({
        display_name: 'Person 3',
        source: 'user',
        read_only: false,
      });
      await again.set(3, false);
      expect((await favourites.list()).map((f) => f.id)).toEqual([1]);
      const file = JSON.parse(await readFile(join(dataDir, 'favourites.json'), 'utf8')) as {
        version: number;
        favourites: { contact_id: number; starred_at: number }[];
      };
      expect(file.version).toBe(1);
      expect(file.favourites.map((entry) => entry.contact_id)).toEqual([1]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps an unreadable favourites.json aside before a new star replaces it, said once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-favourites-'));
    try {
      const file = join(dataDir, 'favourites.json');
      // A hand edit left a trailing comma: every earlier star is still in there.
      const edited = '{"version":1,"favourites":[{"contact_id":4,"starred_at":1},]}\n';
      writeFileSync(file, edited);
      const lines: string[] = [];
      const log = createLogger((line) => lines.push(line));
      const favourites = profileFavourites(dataDir, log, directory);
      expect(await favourites.list()).toEqual([]);
      await favourites.list(); // the window follows the file: it reads again
      await favourites.set(2, true);
      expect((await favourites.list()).map((f) => f.id)).toEqual([2]);
      expect(readFileSync(`${file}.unreadable`, 'utf8')).toBe(edited);
      const said = lines.filter((line) => line.includes('favourites'));
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0]!)).toMatchObject({
        level: 'warn',
        message: 'the favourites cannot be read: kept aside, starting a new one',
        file: `${file}.unreadable`,
      });
      // Broken again later: the newer unreadable file replaces the older one kept aside.
      writeFileSync(file, 'not json');
      await favourites.set(3, true);
      expect(readFileSync(`${file}.unreadable`, 'utf8')).toBe('not json');
      expect(existsSync(file)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps at most MAX_FAVOURITES stars and says so', async () => {
    const favourites = new Favourites({
      file: memoryStateFile(),
      lock: processOnlyLock,
      directory,
    });
    for (let id = 1; id <= MAX_FAVOURITES; id++) await favourites.set(id, true);
    await expect(favourites.set(MAX_FAVOURITES + 1, true)).rejects.toThrow(
      `You have ${MAX_FAVOURITES} favourites, the most Callbar keeps; unstar one first.`,
    );
    expect(await favourites.list()).toHaveLength(MAX_FAVOURITES);
  });

  it('lists a policy’s favourites first, read-only, by number', async () => {
    const favourites = new Favourites({
      file: memoryStateFile(),
      lock: processOnlyLock,
      directory,
      sources: [{ name: 'policy', numbers: () => ['(202) 555-1004', '+19995550000'] }],
    });
    await favourites.set(2, true);
    await favourites.set(5, true); // also the policy's: listed once, as the policy's
    const listed = await favourites.list();
    expect(listed.map((f) => [f.id, f.source, f.read_only])).toEqual([
      [5, 'policy', true],
      [2, 'user', false],
    ]);
    await expect(favourites.set(5, false)).rejects.toThrow(/Your administrator made this contact/);
  });

  it('gives the tray menu its favourites, first, each dialling its number', () => {
    const listed: FavouriteContact[] = [
      {
        ...contact(9, 'Reception', '+12025550100'),
        source: 'user',
        read_only: false,
        shown: { number: '(202) 555-0100', secondary_number: null },
      },
    ];
    const menu = trayMenu({
      account: { state: 'connected', tenant_id: 't', user_extension: '201' },
      calls: { current: [], recent: [], pending: null },
      favourites: trayFavourites(listed),
    });
    const submenus = menu.filter(
      (item): item is Extract<TrayMenuItem, { type: 'submenu' }> => item.type === 'submenu',
    );
    expect(submenus.map((item) => item.label)).toEqual(['Favourites', 'Recent calls']);
    expect(submenus[0]!.submenu[0]).toMatchObject({
      type: 'normal',
      action: { kind: 'dial', number: '+12025550100' },
    });
  });
});

/**
 * A profile signed in to a simulator of 20 contacts and synced by `callbar sync`, for the CLI
 * tests of a describe block (started before them, removed after).
 */
function syncedCliProfile(): { sim: RunningSimulator; env: NodeJS.ProcessEnv } {
  const rig = {} as { sim: RunningSimulator; env: NodeJS.ProcessEnv };
  let dataDir: string;
  beforeAll(async () => {
    rig.sim = await startSim({ contacts: 20 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-favourites-'));
    await openVault({ dataDir }).save(await issuedSession(rig.sim, rig.sim.users[0]!));
    rig.env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: rig.sim.base_url };
    expect((await runCallbarInProcess(['sync'], rig.env)).code).toBe(0);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await rig.sim.close();
  });
  return rig;
}

describe('callbar favourites (two processes at once)', () => {
  const rig = syncedCliProfile();

  it('keeps both stars when two processes star at the same moment', async () => {
    const { env } = rig;
    const search = await runCallbarInProcess(['search', '5', '--json', '--limit', '6'], env);
    const ids = (JSON.parse(search.stdout) as { hits: { contact: { id: number } }[] }).hits.map(
      (hit) => hit.contact.id,
    );
    expect(ids.length).toBeGreaterThanOrEqual(6);
    for (let pair = 0; pair < 3; pair++) {
      const runs = [ids[pair * 2]!, ids[pair * 2 + 1]!].map((id) =>
        allOutput(callbar(['favourites', 'add', String(id)], env)),
      );
      for (const run of await Promise.all(runs)) expect(run.code, run.stderr).toBe(0);
    }
    const list = await runCallbarInProcess(['favourites', 'list', '--json'], env);
    const starred = (JSON.parse(list.stdout) as FavouriteContact[]).map((f) => f.id);
    expect(starred.sort()).toEqual([...ids.slice(0, 6)].sort());

    const removed = await runCallbarInProcess(['favourites', 'remove', String(ids[0])], env);
    expect(removed.code).toBe(0);
    // A star that is not there (removed already, a typo) is not found, exit 6 as documented
    // (before: exit 0 and the list, as if it had been removed).
    const again = await runCallbarInProcess(['favourites', 'remove', String(ids[0])], env);
    expect(again.code).toBe(6);
    expect(again.stderr).toBe(`callbar: Contact ${ids[0]} is not one of your favourites.\n`);
    const german = await runCallbarInProcess(['favourites', 'remove', '999999', '--json'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(german.code).toBe(6);
    expect(JSON.parse(german.stdout)).toMatchObject({
      error: { code: 'not_found', message: 'Contact 999999 is not one of your favourites.' },
    });
    const germanText = await runCallbarInProcess(['favourites', 'remove', '999999'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(germanText.stderr).toBe('callbar: Kontakt 999999 ist keiner Ihrer Favoriten.\n');
    const unknown = await runCallbarInProcess(['favourites', 'add', '999999'], env);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain("This computer's directory has no contact 999999");
  });
});

describe('callbar favourites list when the starred contacts are gone from the directory', () => {
  const rig = syncedCliProfile();

  it('says how many stars it does not show (their contacts deleted), not "no favourites yet"', async () => {
    const { env, sim } = rig;
    const search = await runCallbarInProcess(['search', 'a', '--json', '--limit', '12'], env);
    const ids = (JSON.parse(search.stdout) as { hits: { contact: { id: number } }[] }).hits.map(
      (hit) => hit.contact.id,
    );
    for (const id of ids) {
      expect((await runCallbarInProcess(['favourites', 'add', String(id)], env)).code).toBe(0);
    }
    // A coworker deletes two of them in the portal (one a call queue uses cannot be); this
    // computer's next sync drops them.
    const { api } = await apiFor(sim, 0);
    const deleted: number[] = [];
    for (const id of ids) {
      if (deleted.length === 2) break;
      if (
        await api.phonebooks.deleteContact(id).then(
          () => true,
          () => false,
        )
      )
        deleted.push(id);
    }
    expect(deleted).toHaveLength(2);
    expect((await runCallbarInProcess(['sync'], env)).code).toBe(0);
    const list = await runCallbarInProcess(['favourites', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("2 contacts you starred are not in this computer's directory");
    const german = await runCallbarInProcess(['favourites', 'list'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(german.stdout).toContain(
      '2 Kontakte, die Sie markiert haben, sind nicht im Verzeichnis',
    );
    // Once the others are unstarred, the note is all there is: not "No favourites yet".
    for (const id of ids.filter((each) => !deleted.includes(each))) {
      expect((await runCallbarInProcess(['favourites', 'remove', String(id)], env)).code).toBe(0);
    }
    const only = await runCallbarInProcess(['favourites', 'list'], env);
    expect(only.stdout.trim()).toMatch(
      /^2 contacts you starred are not in this computer's directory/,
    );
  });
});

describe('callbar favourites with the machine’s policy', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let policyDir: string;
  beforeAll(async () => {
    sim = await startSim({ contacts: 20 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-policy-favourites-'));
    policyDir = mkdtempSync(join(tmpdir(), 'callbar-policy-favourites-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = {
      CALLBAR_DATA_DIR: dataDir,
      CALLBAR_BASE_URL: sim.base_url,
      CALLBAR_POLICY_DIR: policyDir,
    };
    expect((await runCallbarInProcess(['sync'], env)).code).toBe(0);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(policyDir, { recursive: true, force: true });
    await sim.close();
  });

  it('lists the favourites an administrator pushes first, and they cannot be unstarred', async () => {
    const search = await runCallbarInProcess(['search', '5', '--json', '--limit', '2'], env);
    const [pushed, own] = (
      JSON.parse(search.stdout) as { hits: { contact: { id: number; number: string } }[] }
    ).hits.map((hit) => hit.contact);
    writeFileSync(
      join(policyDir, 'policies.json'),
      JSON.stringify({ locked: { favourites: [pushed!.number] } }),
    );
    expect((await runCallbarInProcess(['favourites', 'add', String(own!.id)], env)).code).toBe(0);
    const list = await runCallbarInProcess(['favourites', 'list', '--json'], env);
    const listed = JSON.parse(list.stdout) as FavouriteContact[];
    expect(listed.map((favourite) => [favourite.id, favourite.source])).toEqual([
      [pushed!.id, 'policy'],
      [own!.id, 'user'],
    ]);
    const unstar = await runCallbarInProcess(['favourites', 'remove', String(pushed!.id)], env);
    expect(unstar.code).toBe(1);
    expect(unstar.stderr).toContain('Your administrator made this contact a favourite');
  });
});

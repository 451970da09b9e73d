/**
 * The built CLI reads, matches, shows and dials numbers with the window's one model (issue 41,
 * CLI side of points 1, 2, 5 and 6), on a profile whose country the window saved as Germany
 * (settings.json, as Settings → Your country → Save writes it): a contact's "030 1234567" and
 * "0171 2345678" are stored in E.164 and a number that is none is refused with the editor's
 * sentence; the search table shows numbers the national way and --json keeps them as stored; a
 * caller's "+44 20 7123 4567" names nobody whose number only ends the same; `callbar dial
 * "030 1234567"` dials Berlin, not +1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { Call, CallsSnapshot, ContactView, SearchHit } from '../../../src-shared/contract';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { apiFor } from '../../support/api-rig';
import { runCallbar } from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import {
  advanceClock,
  issuedSession,
  profileEnv,
  registerProfile,
  startSim,
} from '../../support/sim-harness';
import { phonebookWith } from '../../support/transfer-rig';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('the CLI’s numbers, in the country the window saved', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let book: number;

  beforeAll(async () => {
    sim = await startSim({ contacts: 0 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-numbers-'));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ region: 'DE' }));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = profileEnv(sim, dataDir, await freePort());
    await registerProfile(sim, env);
    book = await phonebookWith((await apiFor(sim)).api);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim?.close();
  });

  it('stores a contact’s numbers in E.164, and refuses a non-number as the editor does', async () => {
    const created = await runCallbar(
      [
        'contacts',
        'create',
        '--phonebook',
        String(book),
        '--name',
        'Hanna Berg',
        '--number',
        '030 1234567',
        '--secondary',
        '0171 2345678',
        '--speed-dial',
        '4101',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout) as ContactView).toMatchObject({
      number: '+49301234567',
      secondary_number: '+491712345678',
    });
    const refused = await runCallbar(
      [
        'contacts',
        'create',
        '--phonebook',
        String(book),
        '--name',
        'Kai',
        '--number',
        '0171 2345678 9012345',
        '--speed-dial',
        '4102',
      ],
      env,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'That is not a phone number: 0171 2345678 9012345 (a phone number has at most 15 digits).',
    );
    // A written extension is said, not dropped: the contact was saved as 030 7654321 alone.
    const extension = await runCallbar(
      [
        'contacts',
        'create',
        '--phonebook',
        String(book),
        '--name',
        'Ida Ext',
        '--number',
        '030 7654321 ext. 12',
        '--speed-dial',
        '4103',
      ],
      env,
    );
    expect(extension.code).not.toBe(0);
    expect(extension.stderr).toContain(
      'The platform keeps a contact’s number without an extension: remove the extension 12 to save the number alone.',
    );
    const listed = await runCallbar(
      ['contacts', 'list', '--phonebook', String(book), '--json'],
      env,
    );
    expect(listed.stdout).not.toContain('Ida Ext');
  });

  it('shows numbers the national way in the table, as stored with --json', async () => {
    expect((await runCallbar(['sync'], env)).code).toBe(0);
    const table = await runCallbar(['search', 'Hanna'], env);
    expect(table.code).toBe(0);
    const row = table.stdout.split('\n').find((line) => line.includes('Hanna Berg'))!;
    expect(row).toContain('030 1234567');
    expect(row).toContain('0171 2345678');
    expect(row).not.toContain('+49');
    const json = await runCallbar(['search', 'Hanna', '--json'], env);
    const { hits } = JSON.parse(json.stdout) as { hits: SearchHit[] };
    expect(hits[0]!.contact).toMatchObject({
      number: '+49301234567',
      secondary_number: '+491712345678',
    });
  });

  it('names nobody whose number only ends like a stranger’s', async () => {
    const found = await runCallbar(['search', '+44 20 7123 4567', '--json'], env);
    const { hits } = JSON.parse(found.stdout) as { hits: SearchHit[] };
    expect(hits.map((hit) => hit.contact.display_name)).not.toContain('Hanna Berg');
    // The same number written the German way is hers.
    const hers = await runCallbar(['search', '030 1234567', '--json'], env);
    expect((JSON.parse(hers.stdout) as { hits: SearchHit[] }).hits[0]!.contact.display_name).toBe(
      'Hanna Berg',
    );
  });

  it('dials "030 1234567" in Germany', async () => {
    await advanceClock(sim, 61);
    const dialed = await runCallbar(['dial', '030 1234567', '--json'], env);
    expect(dialed.code).toBe(0);
    expect(JSON.parse(dialed.stdout)).toMatchObject({ status: 'dialing' });
    const control = new SimControl(sim.base_url);
    const call = await until('the platform places the call', async () =>
      (await control.calls()).find((each) => each.to === '+49301234567'),
    );
    expect(call.to).toBe('+49301234567');
    expect((await runCallbar(['hangup'], env)).code).toBe(0);
  });

  it('says a written extension when it dials, as `calls` and the window show the call (before: dropped)', async () => {
    await advanceClock(sim, 61);
    const dialed = await runCallbar(['dial', '030 7654321 ext. 12'], env);
    expect(dialed.code).toBe(0);
    expect(dialed.stdout).toMatch(/^Calling 030 7654321 ext\. 12: /);
    await runCallbar(['hangup'], env);
    await advanceClock(sim, 61);
    const german = await runCallbar(['dial', '030 7654322 ext. 12'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(german.stdout).toMatch(/^Anruf an 030 7654322 Nebenstelle 12: /);
    await runCallbar(['hangup'], env);
    await advanceClock(sim, 61);
    const json = await runCallbar(['dial', '+49 30 7654323;ext=12', '--json'], env);
    const { call } = JSON.parse(json.stdout) as { call: Call };
    const listed = JSON.parse((await runCallbar(['calls', '--json'], env)).stdout) as CallsSnapshot;
    const same = [...listed.current, ...listed.recent].find((each) => each.id === call.id)!;
    expect(call.party).toEqual({
      number: '+49307654323',
      display: '030 7654323 ext. 12',
      number_shown: '030 7654323',
      extension: '12',
    });
    expect(same.party).toEqual(call.party);
    await runCallbar(['hangup'], env);
  });
});

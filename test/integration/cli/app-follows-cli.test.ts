/**
 * What a person does with `callbar` while the app runs on the same profile, and what the app
 * shows at once: the app (a core in this process, as the window's, on the profile's real
 * keychain entry) and the real `callbar` bin, against the simulator under `minimal` and `variant`.
 * Before, the app learnt none of it until it happened to read the files again: a star made in the
 * CLI stayed missing from the tray and the window, a contact the CLI created was not found and a
 * `callbar sync` left the app saying the older time, and after `callbar deactivate-local` the app
 * went on saying "connected" and using the forgotten session for its syncs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import type {
  CallbarEvent,
  DirectoryStatus,
  FavouriteContact,
  PhonebookView,
} from '../../../src-shared/contract';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbar } from '../../support/cli-process';
import { connectedCore, type ConnectedCore } from '../../support/hardening/connected-core';
import { profileEnv, requestLog, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

describe.each(['minimal', 'variant'] as const)(
  'the app follows the CLI (simulator profile %s)',
  (profile) => {
    let sim: RunningSimulator;
    let app: ConnectedCore;
    let env: NodeJS.ProcessEnv;
    const events: CallbarEvent[] = [];

    beforeAll(async () => {
      sim = await startSim({ profile });
      const dataDir = mkdtempSync(join(tmpdir(), 'callbar-app-follows-cli-'));
      app = await connectedCore(sim, {
        dataDir,
        vault: openVault({ dataDir }),
        log: () => silentLogger,
      });
      const port = Number(new URL((await app.core.profile.account.listen()).origin).port);
      env = profileEnv(sim, dataDir, port);
      await app.core.directory.sync();
      app.core.events.subscribe((event) => events.push(event));
    });
    afterAll(async () => {
      await app?.core.close();
      if (app) await openVault({ dataDir: app.dataDir }).clear();
      await sim?.close();
    });

    const cli = async (...args: string[]) => {
      const run = await runCallbar(args, env);
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    /** The favourites the app last told the window and the tray. */
    const told = () =>
      events.findLast(
        (event): event is Extract<CallbarEvent, { type: 'favourites.changed' }> =>
          event.type === 'favourites.changed',
      )?.favourites;
    const appFinds = (name: string) =>
      app.core.directory.search(name, 5).hits.some((hit) => hit.contact.display_name === name);

    it('a star made or taken in the CLI is in the tray and the window at once', async () => {
      const [first, second] = app.core.directory.contacts;
      await cli('favourites', 'add', String(first!.id));
      await cli('favourites', 'add', String(second!.id));
      const ids = (listed: FavouriteContact[] | undefined) => listed?.map((each) => each.id);
      await until('the app tells both stars', () => (ids(told())?.length === 2 ? true : undefined));
      expect(ids(told())).toEqual([first!.id, second!.id]);
      await cli('favourites', 'remove', String(first!.id));
      await until('the app tells the star taken', () =>
        ids(told())?.length === 1 ? true : undefined,
      );
      expect(ids(told())).toEqual([second!.id]);
    });

    it('a contact the CLI creates or deletes, and a `callbar sync`, are the app’s at once', async () => {
      const made = await app.invoke('phonebooks.create', {
        description: 'Shared desk',
        priority: 1,
        is_shared: false,
      });
      if (!made.ok) throw new Error(made.error.message);
      const book = made.value as PhonebookView;
      const created = await cli(
        'contacts',
        'create',
        '--phonebook',
        String(book.id),
        '--name',
        'Zebedee Quux',
        '--number',
        '+49 30 555111',
        '--speed-dial',
        '7341',
        '--json',
      );
      const { id } = JSON.parse(created) as { id: number };
      await until(
        'the app finds the contact the CLI created',
        () => appFinds('Zebedee Quux') || undefined,
      );
      await cli('contacts', 'delete', String(id));
      await until('the app no longer finds it', () =>
        appFinds('Zebedee Quux') ? undefined : true,
      );

      const synced = JSON.parse(await cli('sync', '--json')) as DirectoryStatus;
      await until('the app says when the CLI synced', () =>
        app.core.directory.status().synced_at === synced.synced_at ? true : undefined,
      );
      expect(app.core.directory.status()).toMatchObject({
        state: 'ready',
        contacts: synced.contacts,
      });
    });

    it('`callbar deactivate-local`: the app says it is not connected and stops using the session', async () => {
      await cli('deactivate-local');
      await until(
        'the app says so',
        () =>
          events.some(
            (event) => event.type === 'account.changed' && event.status.state === 'not-connected',
          ) || undefined,
      );
      expect(app.core.profile.account.status().state).toBe('not-connected');
      expect(app.core.directory.status().contacts).toBe(0);
      const phonebookRequests = async () =>
        (await requestLog(sim)).filter((entry) => entry.path.startsWith('/v3/phonebooks')).length;
      const before = await phonebookRequests();
      const sync = await app.invoke('directory.sync');
      expect(sync.ok ? sync.value : sync.error).toMatchObject({ code: 'not_connected' });
      expect(await phonebookRequests()).toBe(before);
    });
  },
);

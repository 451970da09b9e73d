/**
 * A sync, an export and an import that never lose a contact (issue 39), against the simulator's
 * `variant` profile, another implementation of the contract: ties of an ordering in a new order
 * at every query, a page_size above 50 refused with 400 `max_value`, `next` links as a query
 * only. Every list is asked for in a total order, its page size learnt at once (and kept for the
 * profile's other processes), its links resolved against the page that carried them, and what
 * came checked against the platform's count: a phonebook that gives fewer than it counts is
 * named, never reported complete (the window's status, `callbar sync`, `callbar status`).
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { LoggedRequest } from '../../../../simulator/request-log';
import type { TokenManager } from '../../../../src-main/core/account/token-manager';
import { createPlatformApi, type PlatformApi } from '../../../../src-main/core/api/platform-api';
import { exportContacts } from '../../../../src-main/core/contacts-io/contact-export';
import { phonebookContacts } from '../../../../src-main/core/contacts-io/import-plan';
import { Directory } from '../../../../src-main/core/directory/directory';
import { RequestPacer } from '../../../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { apiFor } from '../../../support/api-rig';
import { runCallbarInProcess } from '../../../support/cli-process';
import { signedInCli } from '../../../support/signed-in-cli';
import { control, startSim } from '../../../support/sim-harness';

const CONTACTS = '/v3/phonebook/contact/';
/** Contacts of one phonebook that all tie on display_name (the variant's default order). */
const TIED = 120;
const TIED_NAME = 'Anna Weber';

/** The simulator's variant profile, with room in its rate limit for a test. */
const VARIANT = {
  profile: 'variant' as const,
  contacts: 60,
  rateLimits: { phonebook: { limit: 100_000, window_seconds: 60 } },
};

/** A phonebook of TIED contacts named alike (speed dials: the first free ones from 2000). */
async function tiedPhonebook(api: PlatformApi): Promise<number> {
  const book = await api.phonebooks.createPhonebook({
    description: 'Ties',
    priority: 1,
    is_shared: true,
  });
  let speedDial = 2000;
  for (let index = 0; index < TIED; index++) {
    for (;;) {
      try {
        await api.phonebooks.createContact({
          phonebook: book.id,
          display_name: TIED_NAME,
          number: `+4930555${String(10_000 + index)}`,
          secondary_number: null,
          speed_dial: speedDial++,
        });
        break;
      } catch (error) {
        if ((error as { field?: string }).field !== 'speed_dial') throw error;
      }
    }
  }
  return book.id;
}

/**
 * The pages of the walks, without the one-item questions a complete-looking walk asks at each
 * boundary between its pages (page_size 1: is the item before a page still the last of the page
 * before?).
 */
const walked = (log: LoggedRequest[]) => log.filter((entry) => entry.query.page_size !== '1');

/** The requests the simulator logged, with their queries. */
function requestLog(sim: { base_url: string }): Promise<LoggedRequest[]> {
  return control<LoggedRequest[]>(sim, 'GET', 'requests');
}

/** What the platform counts: every contact the user sees. */
async function counted(api: PlatformApi): Promise<number> {
  return (await api.phonebooks.listContacts({ page_size: 1 })).count;
}

function directoryOf(phonebooks: PlatformApi['phonebooks'], dataDir: string) {
  return new Directory({
    dataDir,
    region: 'DE',
    log: silentLogger,
    phonebooks: () => phonebooks,
    owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
    intervalMs: 15 * 60_000,
    pacer: new RequestPacer({ budget: 1000, windowMs: 1000 }),
  });
}

/** The API as a process of the profile in `dataDir` builds it (its page size kept there). */
function profileApi(sim: RunningSimulator, tokens: TokenManager, dataDir: string): PlatformApi {
  return createPlatformApi({ baseUrl: sim.base_url, tokens, log: silentLogger, dataDir });
}

describe('a sync against another implementation of the contract (variant)', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  let tokens: TokenManager;
  let tied: number;
  let total: number;

  beforeAll(async () => {
    sim = await startSim(VARIANT);
    ({ api, tokens } = await apiFor(sim, 0));
    tied = await tiedPhonebook(api);
    total = await counted(api);
  }, 60_000);
  afterAll(() => sim.close());

  const patch = (config: Record<string, string>) => control(sim, 'PATCH', 'config', config);
  const variantConfig = () =>
    patch({ pageSizeAboveMax: 'refuse', nextLinks: 'query-only', orderingTies: 'unordered' });

  it('holds every contact the platform counts when ties come in no fixed order', async () => {
    // Pages capped silently and absolute links: only the ties stand between a sync and all.
    await patch({ pageSizeAboveMax: 'clamp', nextLinks: 'absolute' });
    try {
      await control(sim, 'DELETE', 'requests');
      const directory = directoryOf(api.phonebooks, await mkdtemp(join(tmpdir(), 'callbar-')));
      const { status } = await directory.sync();
      expect(status).toMatchObject({ state: 'ready', contacts: total });
      expect(directory.search(TIED_NAME, 500).hits).toHaveLength(TIED);
      // Asked for in a total order: by number, unique in a phonebook.
      const pages = (await requestLog(sim)).filter((entry) => entry.path === CONTACTS);
      expect(pages.length).toBeGreaterThan(TIED / 50);
      for (const page of pages) expect(page.query.ordering).toBe('number');
      await directory.close();
    } finally {
      await variantConfig();
    }
  });

  it('asks again at once with the page size a 400 allows, and the profile’s next process starts from it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-'));
    await control(sim, 'DELETE', 'requests');
    const first = directoryOf(profileApi(sim, tokens, dataDir).phonebooks, dataDir);
    expect((await first.sync()).status).toMatchObject({ state: 'ready', contacts: total });
    const log = await requestLog(sim);
    // One 400 (the first list asked for 1000), then pages of 50, the query-only links followed.
    expect(log.filter((entry) => entry.status === 400)).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 400, query: { page_size: '1000' } });
    expect(walked(log.slice(1)).every((entry) => entry.query.page_size === '50')).toBe(true);
    expect(log.some((entry) => entry.query.page === '2')).toBe(true);
    await first.close();

    await control(sim, 'DELETE', 'requests');
    const second = directoryOf(profileApi(sim, tokens, dataDir).phonebooks, dataDir);
    expect((await second.sync()).status).toMatchObject({ state: 'ready', contacts: total });
    expect((await requestLog(sim)).filter((entry) => entry.status === 400)).toEqual([]);
    await second.close();
  });

  it('learns the page size from shorter pages a platform gives without a word, for its next walk', async () => {
    await patch({ pageSizeAboveMax: 'clamp' });
    try {
      const dataDir = await mkdtemp(join(tmpdir(), 'callbar-'));
      const first = directoryOf(profileApi(sim, tokens, dataDir).phonebooks, dataDir);
      expect((await first.sync()).status).toMatchObject({ state: 'ready', contacts: total });
      await first.close();
      await control(sim, 'DELETE', 'requests');
      const second = directoryOf(profileApi(sim, tokens, dataDir).phonebooks, dataDir);
      expect((await second.sync()).status).toMatchObject({ state: 'ready', contacts: total });
      const pages = (await requestLog(sim)).filter((entry) => entry.path === CONTACTS);
      expect(pages.length).toBeGreaterThan(0);
      expect(walked(pages).every((entry) => entry.query.page_size === '50')).toBe(true);
      await second.close();
    } finally {
      await variantConfig();
    }
  });

  it('follows next links given as a query only from the page that carried them', async () => {
    await patch({ pageSizeAboveMax: 'clamp', orderingTies: 'by-id' });
    try {
      const directory = directoryOf(api.phonebooks, await mkdtemp(join(tmpdir(), 'callbar-')));
      expect((await directory.sync()).status).toMatchObject({ state: 'ready', contacts: total });
      await directory.close();
    } finally {
      await variantConfig();
    }
  });

  it('exports and reads for an import every contact of a phonebook of ties, each walk learning the page size from a 400', async () => {
    /** A process of a new profile: no page size learnt yet. */
    const fresh = async () =>
      profileApi(sim, tokens, await mkdtemp(join(tmpdir(), 'callbar-'))).phonebooks;
    const refusedOnce = async () => {
      const log = (await requestLog(sim)).filter((entry) => entry.path === CONTACTS);
      expect(log.filter((entry) => entry.status === 400)).toHaveLength(1);
      expect(log[0]).toMatchObject({ status: 400, query: { page_size: '1000' } });
      expect(walked(log.slice(1)).every((entry) => entry.query.page_size === '50')).toBe(true);
    };
    await control(sim, 'DELETE', 'requests');
    let lines = 0;
    for await (const piece of exportContacts(await fresh(), { format: 'csv', phonebook: tied })) {
      lines += piece.split('\r\n').filter((line) => line !== '').length;
    }
    expect(lines).toBe(1 + TIED);
    await refusedOnce();

    await control(sim, 'DELETE', 'requests');
    const existing = await phonebookContacts(await fresh(), tied);
    expect(new Set(existing.map((contact) => contact.id)).size).toBe(TIED);
    await refusedOnce();
  });

  it('names a phonebook that gives fewer contacts than it counts; the previous directory stays', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-'));
    const directory = directoryOf(api.phonebooks, dataDir);
    expect((await directory.sync()).status).toMatchObject({ state: 'ready', contacts: total });
    // The platform counts 12 in "Ties" but its pages hold 10.
    await control(sim, 'POST', 'hostile', {
      kind: 'undercounted',
      phonebook: tied,
      contacts: 10,
      count: 12,
      page_size: 5,
    });
    try {
      await control(sim, 'DELETE', 'requests');
      const why =
        'the platform counted 12 contacts in “Ties” but gave Callbar 10 of them, even after walking its pages 3 times';
      await expect(directory.sync()).rejects.toThrow(
        `Callbar stopped the directory sync: ${why}. The previous directory stays in use; the next sync tries again.`,
      );
      // Walked three times, then said: in the status the window and `callbar status` show.
      const walked = (await requestLog(sim)).filter(
        (entry) => entry.path === CONTACTS && entry.query.phonebook === String(tied),
      );
      expect(walked).toHaveLength(3 * 2);
      expect(directory.status()).toMatchObject({ state: 'stale', contacts: total });
      expect(directory.status().last_error).toContain(why);

      // The export and the import say so too, rather than work from part of the phonebook.
      const exporting = async () => {
        for await (const piece of exportContacts(api.phonebooks, {
          format: 'vcard',
          phonebook: tied,
        }))
          void piece;
      };
      await expect(exporting()).rejects.toThrow(
        `The export stopped: ${why}. Nothing of it was saved.`,
      );
      await expect(phonebookContacts(api.phonebooks, tied)).rejects.toMatchObject({
        code: 'import_incomplete',
      });
    } finally {
      await control(sim, 'DELETE', 'hostile');
      await directory.close();
    }
  });
});

describe('callbar sync and status when a phonebook comes incomplete', () => {
  let cli: Awaited<ReturnType<typeof signedInCli>>;
  beforeAll(async () => {
    cli = await signedInCli(VARIANT);
  });
  afterAll(() => cli.close());

  it('fail the sync naming the phonebook, and status keeps saying it', async () => {
    const { access_token: token } = await control<{ access_token: string }>(
      cli.sim,
      'POST',
      'tokens',
      {
        tenant_id: cli.sim.tenant_id,
        user_extension: cli.sim.users[0]!.extension,
      },
    );
    const listed = (await (
      await fetch(`${cli.sim.base_url}/v3/phonebook/phonebook/?page_size=1`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { results: { id: number; description: string }[] };
    const book = listed.results[0]!;
    await control(cli.sim, 'POST', 'hostile', {
      kind: 'undercounted',
      phonebook: book.id,
      contacts: 3,
      count: 4,
      page_size: 5,
    });
    const synced = await runCallbarInProcess(['sync'], cli.env);
    expect(synced.code).toBe(1);
    expect(synced.stderr).toContain(
      `counted 4 contacts in “${book.description}” but gave Callbar 3`,
    );
    const status = await runCallbarInProcess(['status'], cli.env);
    expect(status.stdout + status.stderr).toContain(`“${book.description}”`);

    // An export to a file saves nothing; one to standard output says how far it got, and that
    // what it wrote is incomplete (before: "Nothing of it was saved." after three rows).
    const why = `the platform counted 4 contacts in “${book.description}” but gave Callbar 3 of them, even after walking its pages 3 times`;
    const folder = await mkdtemp(join(tmpdir(), 'callbar-export-'));
    const saved = await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book.id), '--output', join(folder, 'a.csv')],
      cli.env,
    );
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain(`The export stopped: ${why}. Nothing of it was saved.`);
    expect(await readdir(folder)).toEqual([]);
    const piped = await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book.id)],
      cli.env,
    );
    expect(piped.code).toBe(1);
    expect(piped.stdout.split('\n').filter((line) => line !== '')).toHaveLength(1 + 3);
    expect(piped.stderr).toBe(
      `callbar: The export stopped after 3 contacts; what it wrote to standard output is incomplete: ${why}.\n`,
    );
    const german = await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book.id), '--format', 'vcard'],
      { ...cli.env, LC_ALL: 'de_DE.UTF-8' },
    );
    expect(german.code).toBe(1);
    expect(german.stderr).toContain(
      'Der Export wurde nach 3 Kontakten angehalten; was er in die Standardausgabe geschrieben hat, ist unvollständig: die Telefonanlage hat in „',
    );
    expect(german.stderr).toContain('4 Kontakte gezählt, Callbar aber nur 3 davon gegeben');
    // The platform failing once the heading is out: said the same way, with its reason.
    await control(cli.sim, 'POST', 'faults', {
      method: 'GET',
      path: CONTACTS,
      status: 503,
      body: { detail: 'Down for maintenance.' },
    });
    const failed = await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book.id)],
      cli.env,
    );
    await control(cli.sim, 'DELETE', 'faults');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^callbar: The export stopped after 0 contacts; what it wrote to standard output is incomplete\. \S/,
    );
  });
});

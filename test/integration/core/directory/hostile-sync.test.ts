/**
 * The directory sync against a malicious or broken platform (issue 24, item 4), the simulator's
 * `hostile` behaviour over real HTTP: endless `next` pages, a `next` to another origin, fields of a
 * megabyte, a page larger than the answer cap, more contacts than Callbar keeps, a sync past its
 * deadline. Each sync stops at its bound with a sentence, and the previous directory (in memory
 * and `directory.bin`) stays.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import { ForeignOrigin } from '../../../../simulator/hostile-platform';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { MAX_TEXT_CHARS, TRUNCATION_MARK } from '../../../../src-main/core/api/schemas';
import { systemClock, type Clock } from '../../../../src-main/core/clock';
import { cacheFile } from '../../../../src-main/core/directory/directory-cache';
import { Directory } from '../../../../src-main/core/directory/directory';
import { fetchDirectory } from '../../../../src-main/core/directory/directory-sync';
import { RequestPacer } from '../../../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { said } from '../../../../src-main/core/text/said';
import {
  inEnglish,
  sayAgainIn,
  spokenSaid,
  translatorFor,
} from '../../../../src-main/core/text/translators';
import { apiFor } from '../../../support/api-rig';
import { describeEachProfile, startSim } from '../../../support/sim-harness';
import { failure } from '../../../support/failure';

const CONTACTS = '/v3/phonebook/contact/';
const PHONEBOOKS = 7;

describeEachProfile('a directory sync against a hostile platform', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let api: PlatformApi;
  let directory: Directory;
  let dataDir: string;
  let cacheBefore: Buffer;

  beforeAll(async () => {
    sim = await startSim({ contacts: 30, profile });
    control = new SimControl(sim.base_url);
    ({ api } = await apiFor(sim));
    dataDir = await mkdtemp(join(tmpdir(), 'callbar-hostile-'));
    directory = new Directory({
      dataDir,
      region: 'DE',
      log: silentLogger,
      phonebooks: () => api.phonebooks,
      owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
      intervalMs: 15 * 60_000,
      pacer: new RequestPacer({ budget: 1000, windowMs: 1000 }),
    });
    // The directory the user had before the platform turned hostile.
    const first = await directory.sync();
    expect(first.status).toMatchObject({ state: 'ready', contacts: 30, phonebooks: PHONEBOOKS });
    cacheBefore = await readFile(cacheFile(dataDir));
  });
  afterEach(async () => {
    await control.clearHostile();
    await control.clearRequests();
  });
  afterAll(async () => {
    await directory.close();
    await sim.close();
  });

  /** The sync fails with `says`; the directory in memory and on disk is the one before. */
  async function refusedKeepingTheDirectory(says: string): Promise<void> {
    const error = await failure(directory.sync());
    expect(error.message).toContain(says);
    const status = directory.status();
    expect(status).toMatchObject({ contacts: 30, phonebooks: PHONEBOOKS });
    expect(status.last_error).toContain(says);
    expect(await readFile(cacheFile(dataDir))).toEqual(cacheBefore);
    expect(directory.search('Endless', 5).hits).toEqual([]);
  }

  it('stops endless next pages at what the count implies, keeping the previous directory', async () => {
    await control.setHostile({ kind: 'endless-pages', count: 2, page_size: 1 });
    await refusedKeepingTheDirectory('its pages go on past what its count (2) implies');
    // count 2 in pages of 1: 2 pages, plus 2 of slack, for each phonebook at most.
    const pages = (await control.requests()).filter((entry) => entry.path === CONTACTS);
    expect(pages.length).toBeLessThanOrEqual(PHONEBOOKS * 4);
  });

  it('refuses a next link to another origin, and sends nothing there', async () => {
    const foreign = await ForeignOrigin.start();
    try {
      await control.setHostile({ kind: 'foreign-next', to: foreign.origin });
      await refusedKeepingTheDirectory(`the next page link points outside ${sim.base_url}`);
      expect(foreign.received).toEqual([]);
    } finally {
      await foreign.close();
    }
  });

  it('refuses a page larger than the answer cap', async () => {
    // 10 contacts with two 1 MiB fields in one page: a 20 MiB answer.
    await control.setHostile({
      kind: 'oversized-fields',
      contacts: 10,
      field_chars: 1024 * 1024,
      page_size: 10,
    });
    await refusedKeepingTheDirectory('the answer is larger than 16 MiB');
  });

  // 20 MiB of hostile fields made, sent, read and cut: more than the default 20 s on 2 busy cores.
  it('keeps megabyte names and companies cut with a mark: the cache stays small', async () => {
    await control.setHostile({
      kind: 'oversized-fields',
      contacts: 10,
      field_chars: 1024 * 1024,
      page_size: 5,
    });
    const outcome = await directory.sync();
    expect(outcome.status).toMatchObject({ state: 'ready', contacts: 10 });
    const [hit] = directory.search('WWW', 1).hits;
    expect(hit?.contact.display_name).toHaveLength(MAX_TEXT_CHARS);
    expect(hit?.contact.display_name.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(hit?.contact.company).toHaveLength(MAX_TEXT_CHARS);
    // 10 contacts of ~600 characters: a few KiB, not the 20 MiB the platform sent.
    expect((await stat(cacheFile(dataDir))).size).toBeLessThan(16 * 1024);
    // Back to the user's real directory for the other tests.
    await control.clearHostile();
    await directory.sync();
    cacheBefore = await readFile(cacheFile(dataDir));
  }, 60_000);
});

describe("a sync's own bounds", () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let api: PlatformApi;

  beforeAll(async () => {
    sim = await startSim({ contacts: 30 });
    control = new SimControl(sim.base_url);
    ({ api } = await apiFor(sim));
  });
  afterAll(() => sim.close());

  function sync(
    limits: Parameters<typeof fetchDirectory>[0]['limits'],
    clock: Clock = systemClock,
  ) {
    return fetchDirectory({
      phonebooks: api.phonebooks,
      pacer: new RequestPacer({ budget: 1000, windowMs: 1000 }),
      clock,
      signal: new AbortController().signal,
      limits,
    });
  }

  it('stops past its contact cap', async () => {
    const error = await failure(sync({ maxContacts: 25 }));
    expect(error.code).toBe('sync_limit');
    expect(error.message).toBe(
      'Callbar stopped the directory sync: the platform lists more than 25 contacts, the most Callbar keeps. The previous directory stays in use.',
    );
    // The window in German reads it in German (the sync status's last_error carries it).
    const status = sayAgainIn(translatorFor('de', 'errors'), {
      last_error: inEnglish(
        said('errors:directory.syncIncomplete', { reason: spokenSaid(error.message) }),
      ),
    });
    expect(status.last_error).toBe(
      'Die letzte Synchronisierung wurde nicht abgeschlossen: Callbar hat den Verzeichnisabgleich angehalten: die Telefonanlage führt mehr als 25 Kontakte, mehr als Callbar behält. Das bisherige Verzeichnis bleibt in Gebrauch.',
    );
    await expect(sync({ maxContacts: 30 })).resolves.toMatchObject({ contacts: { length: 30 } });
  });

  it('stops past its text budget', async () => {
    const error = await failure(sync({ maxChars: 500 }));
    expect(error.code).toBe('sync_limit');
    expect(error.message).toContain('more than 500 characters of text');
  });

  it('stops a walk whose count lies, at its deadline (on the sync clock)', async () => {
    await control.setHostile({ kind: 'endless-pages', count: 1_000_000_000, page_size: 1 });
    try {
      // A clock a minute further on each time it is read: the deadline comes after a few pages.
      let now = Date.now();
      const clock: Clock = {
        now: () => (now += 60_000),
        sleep: (ms, signal) => systemClock.sleep(ms, signal),
      };
      const error = await failure(sync({ deadlineMs: 10 * 60_000 }, clock));
      expect(error.code).toBe('sync_limit');
      expect(error.message).toContain('it took longer than 10 minutes');
    } finally {
      await control.clearHostile();
    }
  });
});

/**
 * The directory against the real simulator over HTTP: a paced sync over many small pages under a
 * tight rate limit, a 429 in the middle, faults and cancellation that keep the old directory,
 * local changes reflected at once, and the cache in the profile folder.
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { DirectoryStatus } from '../../../../src-shared/contract';
import type { AccountOwner } from '../../../../src-main/core/account/account-history';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { cacheFile, legacyCacheFile } from '../../../../src-main/core/directory/directory-cache';
import { Directory } from '../../../../src-main/core/directory/directory';
import {
  LEARNT_RATE_FILE,
  learntRateFile,
  RequestPacer,
} from '../../../../src-main/core/directory/request-pacer';
import { createPlatformApi } from '../../../../src-main/core/api/platform-api';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { apiFor } from '../../../support/api-rig';
import {
  advanceClock,
  capturingLogger,
  control,
  describeJourney,
  requestLog,
  startSim,
} from '../../../support/sim-harness';

const CONTACTS = '/v3/phonebook/contact/';

async function openDirectory(
  api: PlatformApi,
  options: {
    dataDir?: string;
    pacer?: RequestPacer;
    owner?: AccountOwner;
    pageSize?: number;
  } = {},
) {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'callbar-directory-')));
  const { log, lines } = capturingLogger();
  const directory = new Directory({
    dataDir,
    region: 'DE',
    log,
    phonebooks: () => api.phonebooks,
    owner: () => options.owner ?? { tenant_id: 'acme', user_extension: '201', base_url: 'sim' },
    intervalMs: 15 * 60_000,
    ...(options.pacer ? { pacer: options.pacer } : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  });
  const statuses: DirectoryStatus[] = [];
  directory.onChange((status) => statuses.push(status));
  return { directory, dataDir, statuses, lines };
}

async function platformCount(api: PlatformApi): Promise<number> {
  return (await api.phonebooks.listContacts({ page_size: 1 })).count;
}

describe('sync under the minimal profile (page_size ≤ 100, a tight rate limit)', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    // 10 requests per 2 s at the platform; the directory paces itself at 8 per 2 s.
    sim = await startSim({
      contacts: 650,
      maxPageSize: 100,
      rateLimits: { phonebook: { limit: 10, window_seconds: 2 } },
    });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('walks every page of every phonebook without running into a 429', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the window of apiFor's set-up
    await control(sim, 'DELETE', 'requests');
    const pacer = new RequestPacer({ budget: 8, windowMs: 2000 });
    const { directory, statuses } = await openDirectory(api, { pacer });
    const outcome = await directory.sync();

    const log = await requestLog(sim);
    const pages = log.filter((entry) => entry.path === CONTACTS);
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    expect(outcome.status.state).toBe('ready');
    expect(outcome.status.contacts).toBe(650);
    expect(outcome.status.phonebooks).toBe(7);
    // 650 contacts in pages of at most 100, per phonebook: more requests than pages of 1000.
    expect(pages.length).toBeGreaterThanOrEqual(7 + 1);
    expect(outcome.requests).toBe(log.length);
    // Progress: phonebooks done count up to all of them; the total is the platform's count.
    const progress = statuses.flatMap((status) => (status.progress ? [status.progress] : []));
    expect(progress.at(-1)).toMatchObject({
      phonebooks_done: 7,
      phonebooks_total: 7,
      contacts: 650,
    });
    expect(progress.at(-1)?.contacts_total).toBe(650);
    const done = progress.map((p) => p.phonebooks_done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(statuses.at(-1)?.state).toBe('ready');
    // The directory answers from what it synced.
    const someone = directory.search('a', 1).hits[0];
    expect(someone).toBeDefined();
    await directory.close();
  }, 60_000);
});

describe('a platform stricter than the pacer (10 requests per 2 s, the pacer at 20)', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    // The variant profile's 60 a minute (issue 26), in a window short enough for a test.
    sim = await startSim({
      profile: 'variant',
      contacts: 300,
      maxPageSize: 10,
      rateLimits: { phonebook: { limit: 10, window_seconds: 2 } },
    });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('meets one 429, learns the limit, and another process of the profile starts from it', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the window of apiFor's set-up
    await control(sim, 'DELETE', 'requests');
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-directory-'));
    const { log } = capturingLogger();
    const pacer = () =>
      new RequestPacer({ budget: 20, windowMs: 2000, memory: learntRateFile(dataDir, log) });
    const first = await openDirectory(api, { dataDir, pacer: pacer(), pageSize: 10 });
    const outcome = await first.directory.sync();
    expect(outcome.status).toMatchObject({ state: 'ready', contacts: 300 });
    const log1 = await requestLog(sim);
    // 300 contacts in pages of 10: over 30 requests, 3 windows' worth, and one 429 (two at most:
    // both walks' requests in flight when the first came back).
    expect(log1.length).toBeGreaterThan(30);
    const refused = log1.filter((entry) => entry.status === 429).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(2);
    await first.directory.close();

    // Another process of the profile (a new pacer on the same folder): no 429 at all.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await control(sim, 'DELETE', 'requests');
    const second = await openDirectory(api, { dataDir, pacer: pacer(), pageSize: 10 });
    expect((await second.directory.sync()).status).toMatchObject({ state: 'ready' });
    expect((await requestLog(sim)).filter((entry) => entry.status === 429)).toEqual([]);
    await second.directory.close();
  }, 90_000);
});

describe('a passing 429 that names no wait (a fault, not a limit), the pacer at 20 per 2 s', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ contacts: 300, maxPageSize: 10 });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('teaches the pacer nothing: its budget and the profile stay as they were', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'callbar-directory-'));
    const { log } = capturingLogger();
    const pacer = new RequestPacer({
      budget: 20,
      windowMs: 2000,
      memory: learntRateFile(dataDir, log),
    });
    const { directory } = await openDirectory(api, { dataDir, pacer, pageSize: 10 });
    await control(sim, 'DELETE', 'requests');
    // Once a hundred contacts came (over ten requests in the pacer's window), one 429 with
    // `Retry-After: 0`, as the network-faults run injects them.
    let faulting: Promise<unknown> | undefined;
    directory.onChange((status) => {
      if ((status.progress?.contacts ?? 0) >= 100 && !faulting) {
        faulting = control(sim, 'POST', 'faults', {
          method: 'GET',
          path: CONTACTS,
          status: 429,
          headers: { 'retry-after': '0' },
          count: 1,
        });
      }
    });
    expect((await directory.sync()).status).toMatchObject({ state: 'ready', contacts: 300 });
    await faulting;
    expect((await requestLog(sim)).filter((entry) => entry.status === 429)).toHaveLength(1);
    expect(pacer.budget).toBe(20);
    await expect(stat(join(dataDir, LEARNT_RATE_FILE))).rejects.toThrow(/ENOENT/);
    await directory.close();
  }, 60_000);
});

describe('a platform that announces its limit (RateLimit-Policy: 10;w=2), the pacer at 20', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({
      profile: 'variant',
      contacts: 300,
      maxPageSize: 10,
      rateLimits: { phonebook: { limit: 10, window_seconds: 2 } },
      rateLimitPolicyHeader: true,
    });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('keeps under the announced limit from the first answer on: no 429 at all', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the window of apiFor's set-up
    await control(sim, 'DELETE', 'requests');
    const pacer = new RequestPacer({ budget: 20, windowMs: 2000 });
    const { directory } = await openDirectory(api, { pacer, pageSize: 10 });
    expect((await directory.sync()).status).toMatchObject({ state: 'ready', contacts: 300 });
    const log = await requestLog(sim);
    expect(log.length).toBeGreaterThan(30);
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    expect(pacer.budget).toBe(8);
    await directory.close();
  }, 60_000);
});

describeJourney("a full sync with the profile's own page size and rate limit", (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ contacts: 650, profile });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());

  it('walks every page of every phonebook without running into a 429', async () => {
    await control(sim, 'DELETE', 'requests');
    const { directory } = await openDirectory(api);
    const outcome = await directory.sync();

    const log = await requestLog(sim);
    const pages = log.filter((entry) => entry.path === CONTACTS);
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    expect(outcome.status).toMatchObject({ state: 'ready', contacts: 650, phonebooks: 7 });
    expect(outcome.requests).toBe(log.length);
    // Pages of 1000 asked for: one a phonebook where the platform honours it, more where it
    // caps pages at 100 (the minimal profile).
    if (profile === 'rich') expect(pages).toHaveLength(7);
    else expect(pages.length).toBeGreaterThanOrEqual(7 + 1);
    expect(directory.search('a', 1).hits).toHaveLength(1);
    await directory.close();
  }, 60_000);
});

describeJourney('sync faults, local changes and the cache', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ contacts: 300, profile });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());
  afterEach(async () => {
    await control(sim, 'DELETE', 'faults');
    // Each test syncs afresh: a new rate-limit window for it (the minimal profile's is tight).
    await advanceClock(sim, 60);
  });

  it('waits out a 429 in the middle of a sync and goes on', async () => {
    const { directory } = await openDirectory(api);
    await control(sim, 'DELETE', 'requests');
    // More 429s in a row than the client's own retries: the sync itself waits and resends.
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: CONTACTS,
      status: 429,
      headers: { 'retry-after': '1' },
      count: 5,
    });
    const outcome = await directory.sync();
    expect(outcome.status.state).toBe('ready');
    expect(outcome.status.contacts).toBe(await platformCount(api));
    const statuses = (await requestLog(sim))
      .filter((e) => e.path === CONTACTS)
      .map((e) => e.status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    await directory.close();
  }, 60_000);

  it('says at once a 429 whose wait would outlast the sync (Retry-After of 2 hours or 40 days)', async () => {
    const { tokens } = await apiFor(sim, 0);
    for (const seconds of ['7200', '3456000']) {
      // A client of its own each (it keeps the platform's wait), its own retries off (they wait
      // a Retry-After up to a minute before the sync sees it).
      const unretried = createPlatformApi({
        baseUrl: sim.base_url,
        tokens,
        log: silentLogger,
        client: { retry: { limit: 0, baseDelayMs: 20, maxDelayMs: 200 } },
      });
      const { directory } = await openDirectory(unretried);
      await control(sim, 'POST', 'faults', {
        method: 'GET',
        path: CONTACTS,
        status: 429,
        headers: { 'retry-after': seconds },
      });
      // Not after the wait (hours; at once past a timer's longest, 24.8 days): said now.
      const error = await directory.sync().then(
        () => undefined,
        (refused: unknown) => refused,
      );
      expect(String(error)).toMatch(/Too many requests to the platform; try again in [\d,]+ s\./);
      expect(String(error).replace(/\D/g, '')).toBe(seconds);
      expect(directory.status().state).not.toBe('ready');
      await control(sim, 'DELETE', 'faults');
      await directory.close();
    }
  });

  it('keeps the previous directory and its cache when a sync fails, and says why', async () => {
    const { directory, dataDir } = await openDirectory(api);
    await directory.sync();
    const before = await readFile(cacheFile(dataDir));
    const [hit] = directory.search('a', 1).hits;
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: CONTACTS,
      malformed: true,
      when: 'after',
    });
    await expect(directory.sync()).rejects.toThrow(/not JSON/);
    await control(sim, 'DELETE', 'faults');
    const status = directory.status();
    expect(status.state).toBe('stale');
    expect(status.last_error).toMatch(/The last sync did not complete: .*not JSON/);
    expect(status.contacts).toBe(await platformCount(api));
    expect(directory.search('a', 1).hits[0]?.contact).toEqual(hit?.contact);
    expect((await readFile(cacheFile(dataDir))).equals(before)).toBe(true);
    await directory.close();
  });

  it('skips a phonebook deleted while the sync runs: its contacts dropped, the rest kept', async () => {
    const doomed = await api.phonebooks.createPhonebook({
      description: 'Trade fair leads',
      priority: 1,
      is_shared: true,
    });
    for (const [index, name] of ['Quirin Vanished', 'Quirina Vanished'].entries()) {
      await api.phonebooks.createContact({
        phonebook: doomed.id,
        display_name: name,
        number: `+49 30 55500${index}`,
        secondary_number: null,
        speed_dial: 7700 + index,
      });
    }
    const { directory, statuses } = await openDirectory(api);
    await directory.sync();
    expect(directory.search('vanished').hits).toHaveLength(2);
    const others = (await platformCount(api)) - 2;

    // Each contact page takes 300 ms; the phonebook goes as soon as the phonebooks are listed,
    // before its walk's first answer (or in the middle of it): the platform then refuses the
    // `phonebook` filter with 400 invalid_choice.
    await control(sim, 'POST', 'faults', { method: 'GET', path: CONTACTS, delay_ms: 300 });
    await control(sim, 'DELETE', 'requests');
    let deleting: Promise<unknown> | undefined;
    directory.onChange((status) => {
      if (status.progress && !deleting) deleting = api.phonebooks.deletePhonebook(doomed.id);
    });
    const outcome = await directory.sync();
    await deleting;

    const refused = (await requestLog(sim)).filter(
      (entry) => entry.path === CONTACTS && entry.status === 400,
    );
    expect(refused).toHaveLength(1);
    expect(outcome.status).toMatchObject({ state: 'ready', contacts: others, phonebooks: 7 });
    expect(statuses.at(-1)?.last_error).toBeUndefined();
    expect(directory.search('vanished').hits).toEqual([]);
    expect(directory.search('a', 1).hits).toHaveLength(1);
    await directory.close();
  });

  it('keeps the previous directory when the platform refuses every phonebook as unknown', async () => {
    const { directory } = await openDirectory(api);
    await directory.sync();
    const count = directory.status().contacts;
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: CONTACTS,
      status: 400,
      body: {
        type: 'validation_error',
        errors: [{ code: 'invalid_choice', detail: 'Select a valid choice.', attr: 'phonebook' }],
      },
    });
    await expect(directory.sync()).rejects.toThrow(/refused every phonebook as unknown/);
    expect(directory.status()).toMatchObject({ state: 'stale', contacts: count });
    await directory.close();
  });

  it('keeps the previous directory when a sync is cancelled', async () => {
    const { directory } = await openDirectory(api);
    await directory.sync();
    const count = directory.status().contacts;
    await control(sim, 'POST', 'faults', { method: 'GET', path: CONTACTS, delay_ms: 300 });
    const running = directory.sync();
    expect(directory.status().state).toBe('syncing');
    directory.cancelSync();
    await expect(running).rejects.toThrow('The sync was cancelled.');
    expect(directory.status()).toMatchObject({
      state: 'stale',
      contacts: count,
      last_error: 'The last sync did not complete: The sync was cancelled.',
    });
    await directory.close();
  });

  it('reflects contacts created, edited and deleted through Callbar at once, cache included', async () => {
    const { directory, dataDir } = await openDirectory(api);
    await directory.sync();
    const created = await api.phonebooks.createContact({
      phonebook: 3,
      display_name: 'Ximena Quetzalli',
      number: '+49 30 9988776',
      secondary_number: null,
      speed_dial: 9876,
    });
    await directory.upsertLocal(created);
    expect(directory.search('ximena').hits.map((hit) => hit.contact.id)).toEqual([created.id]);
    expect(directory.findBySpeedDial(9876)?.id).toBe(created.id);
    expect(directory.lookupByNumber('030 9988776')?.id).toBe(created.id);

    const edited = await api.phonebooks.updateContact(created.id, {
      phonebook: 3,
      display_name: 'Ximena Quetzalli-Ortega',
      number: '+49 30 9988776',
      secondary_number: null,
      speed_dial: 9876,
    });
    await directory.upsertLocal(edited);
    expect(directory.search('ortega').hits.map((hit) => hit.contact.id)).toEqual([created.id]);

    // A second directory on the same profile (another process, a restart) sees the change.
    const reopened = (await openDirectory(api, { dataDir })).directory;
    await reopened.load();
    expect(reopened.search('ortega').hits.map((hit) => hit.contact.id)).toEqual([created.id]);

    await api.phonebooks.deleteContact(created.id);
    await directory.removeLocal([created.id]);
    expect(directory.search('ximena').hits).toEqual([]);
    expect(directory.findBySpeedDial(9876)).toBeUndefined();
    await reopened.load();
    expect(reopened.search('ximena').hits).toEqual([]);
    await directory.close();
    await reopened.close();
  });

  it('loads the cache at start: search works before any sync', async () => {
    const first = await openDirectory(api);
    await first.directory.sync();
    const synced = first.directory.status();
    const mode = (await stat(cacheFile(first.dataDir))).mode & 0o777;
    expect(mode).toBe(0o600);

    const second = await openDirectory(api, { dataDir: first.dataDir });
    expect(second.directory.status().state).toBe('empty');
    const loaded = await second.directory.load();
    expect(loaded).toMatchObject({
      state: 'ready',
      contacts: synced.contacts,
      synced_at: synced.synced_at,
    });
    expect(second.directory.search('a', 5).hits).toEqual(first.directory.search('a', 5).hits);
    // The cache of another account, or of the same account on another platform, is not used.
    const cached = await readFile(cacheFile(first.dataDir));
    for (const owner of [
      { tenant_id: 'acme', user_extension: '202', base_url: 'sim' },
      { tenant_id: 'acme', user_extension: '201', base_url: 'other-sim' },
    ]) {
      await writeFile(cacheFile(first.dataDir), cached);
      const other = await openDirectory(api, { dataDir: first.dataDir, owner });
      expect((await other.directory.load()).state).toBe('empty');
    }
    await first.directory.close();
  });

  it.each([
    ['a corrupt directory.json', legacyCacheFile, '{"format": 3, "contacts": [', /not valid JSON/],
    [
      'an old-format directory.json',
      legacyCacheFile,
      JSON.stringify({ format: 2, contacts: [] }),
      /format 2, which Callbar no longer reads/,
    ],
    [
      'a directory.json of the wrong shape',
      legacyCacheFile,
      JSON.stringify({ format: 3, contacts: 'x' }),
      /not a directory/,
    ],
    ['a directory.bin that is JSON', cacheFile, '{"format": 5}', /not a directory snapshot/],
    [
      'a directory.bin cut short',
      cacheFile,
      Buffer.concat([
        Buffer.from([0x89, 0x43, 0x42, 0x44, 0x49, 0x52, 0x0d, 0x0a, 5, 0, 0, 0]),
        Buffer.alloc(40),
      ]),
      /another byte order|checksum|cut short/,
    ],
  ])('discards %s with a log line, then syncs again', async (_what, fileOf, content, reason) => {
    const { directory, dataDir, lines } = await openDirectory(api);
    await writeFile(fileOf(dataDir), content);
    const status = await directory.load();
    expect(status.state).toBe('empty');
    const warning = lines.map((line) => JSON.parse(line) as { message: string; reason?: string });
    expect(warning.find((line) => line.message.includes('discarded'))?.reason).toMatch(reason);
    await expect(stat(fileOf(dataDir))).rejects.toThrow();
    expect((await directory.sync()).status.state).toBe('ready');
    await directory.close();
  });
});

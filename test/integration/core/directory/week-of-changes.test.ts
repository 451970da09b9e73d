/**
 * A week of a coworker's changes, refreshed by the directory's own schedule: contacts added,
 * edited and deleted in the portal between syncs, and once in the week the machine's clock set
 * back a day (a wrong time corrected). After each round of changes the directory refreshes by
 * itself and its copy is exactly the platform's (every contact, every field), read over plain
 * HTTP in a total order. The clock set back must not stop the refreshes (a last sync "in the
 * future" is no reason to wait a day), and the sync's pacing must not ask to wait longer than its
 * window (requests "in the future" are no reason either).
 *
 * The directory's clock is the machine's as the test moves it: real time plus an offset; a wait
 * on it (the pacer's, under a tight budget) moves it on at once instead of waiting, and is
 * recorded.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import type { Clock } from '../../../../src-main/core/clock';
import { Directory } from '../../../../src-main/core/directory/directory';
import { RequestPacer } from '../../../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { apiFor } from '../../../support/api-rig';
import { Api, type ContactBody, type Page } from '../../../support/raw-api';
import { describeJourney, issuedSession, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

const DAY = 24 * 3600_000;
const WINDOW_MS = 60_000;
const ROUNDS = 8;
/** The round before which the machine's clock is set back a day. */
const CLOCK_BACK_AT = 3;

/** The platform's contacts as any integrator reads them: every page (asked for by id), by id. */
async function platformContacts(raw: Api): Promise<string[]> {
  const all: ContactBody[] = [];
  for (let page = 1; ; page++) {
    const response = await raw.get(`/v3/phonebook/contact/?ordering=id&page_size=50&page=${page}`);
    expect(response.status).toBe(200);
    const body = response.json as Page<ContactBody>;
    all.push(...body.results);
    if (!body.next) break;
  }
  return rows(all, (contact) => [
    contact.company ?? '',
    contact.secondary_number || null,
    contact.speed_dial ?? null,
  ]);
}

function localContacts(directory: Directory): string[] {
  return rows([...directory.contacts], (contact) => [
    contact.company,
    contact.secondary_number,
    contact.speed_dial,
  ]);
}

/**
 * Each contact's fields that must agree, one line per contact, by id: the ones both sides hold
 * alike, then `rest` (company, secondary number, speed dial, each side's way of saying "none").
 */
function rows<T extends Pick<ContactBody, 'id' | 'phonebook' | 'display_name' | 'number'>>(
  contacts: T[],
  rest: (contact: T) => unknown[],
): string[] {
  return contacts
    .sort((a, b) => a.id - b.id)
    .map((contact) =>
      JSON.stringify([
        contact.id,
        contact.phonebook,
        contact.display_name,
        contact.number,
        ...rest(contact),
      ]),
    );
}

describeJourney('a week of a coworker changing contacts', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  let raw: Api;
  let directory: Directory | undefined;

  beforeEach(async () => {
    sim = await startSim({
      profile,
      contacts: 40,
      rateLimits: { phonebook: { limit: 100_000, window_seconds: 60 } },
    });
    ({ api } = await apiFor(sim, 0));
    raw = new Api(sim.base_url, (await issuedSession(sim, sim.users[0]!)).access_token);
  }, 30_000);
  afterEach(async () => {
    await directory?.close();
    await sim.close();
  });

  it('refreshes by itself through the week, a clock set back included, and holds exactly what the platform has', async () => {
    let offset = 0;
    const waits: number[] = [];
    const clock: Clock = {
      now: () => Date.now() + offset,
      sleep: (ms) => {
        waits.push(ms);
        offset += Math.max(0, ms);
        return Promise.resolve();
      },
    };
    directory = new Directory({
      dataDir: await mkdtemp(join(tmpdir(), 'callbar-week-')),
      region: 'DE',
      log: silentLogger,
      phonebooks: () => api.phonebooks,
      owner: () => ({ tenant_id: sim.tenant_id, user_extension: '201', base_url: sim.base_url }),
      // Refreshed every 300 ms of the clock (its timer looks every 300 ms of real time).
      intervalMs: 300,
      pageSize: 10,
      // A tight budget, so every sync is paced (and waits on the clock).
      pacer: new RequestPacer({ budget: 4, windowMs: WINDOW_MS, clock }),
      clock,
    });
    await directory.load();
    directory.startRefresh(() => true);
    await until('the first sync', () => (directory!.status().synced_at ? true : undefined));
    const book = (await api.phonebooks.listPhonebooks({ page_size: 50 })).results.find(
      (each) => each.is_shared,
    )!;
    const created: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round === CLOCK_BACK_AT) offset -= DAY;
      // The coworker's day: two contacts added, one edited, one deleted.
      for (let index = 0; index < 2; index++) {
        const contact = await api.phonebooks.createContact({
          phonebook: book.id,
          display_name: `Week ${round}-${index}`,
          number: `+49307770${round}${index}0`,
          secondary_number: index === 0 ? null : `+49307771${round}${index}0`,
          speed_dial: 6000 + round * 10 + index,
        });
        created.push(contact.id);
      }
      // One of the shared phonebook's contacts (the seed's first, then the week's) edited.
      const shared = (await platformContacts(raw))
        .map((row) => JSON.parse(row) as [number, number])
        .filter(([, phonebook]) => phonebook === book.id);
      const edited = shared[round % shared.length]![0];
      const before = await api.phonebooks.getContact(edited);
      await api.phonebooks.updateContact(edited, {
        phonebook: before.phonebook,
        display_name: `Edited ${round}`,
        number: `+49307772${round}00`,
        secondary_number: before.secondary_number,
        speed_dial: before.speed_dial!,
        company: 'Moved on',
      });
      // Yesterday's second contact deleted (today's first, on the first day).
      await api.phonebooks.deleteContact(created.splice(round === 0 ? 0 : -3, 1)[0]!);
      const platform = await platformContacts(raw);
      await until(`the directory to hold the platform's contacts after round ${round}`, () => {
        const status = directory!.status();
        return status.state !== 'syncing' &&
          JSON.stringify(localContacts(directory!)) === JSON.stringify(platform)
          ? true
          : undefined;
      });
      expect(directory.status().contacts).toBe(platform.length);
    }
    // Paced all week, and never asked to wait more than the pacer's window.
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(WINDOW_MS);
  }, 120_000);
});

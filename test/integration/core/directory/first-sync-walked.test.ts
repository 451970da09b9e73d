/**
 * A first sync over a slow link: every page boundary is exposed (page-walk.ts), so once the pages
 * are walked the sync still asks about each boundary, a request each under the rate limit. The
 * person waiting for an empty directory searches the directory as walked meanwhile; the status
 * stays "syncing" until the questions are answered, and a sync that fails after all leaves the
 * directory empty again (nothing is called complete on less).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { EXPOSED_MS } from '../../../../src-main/core/api/page-walk';
import { Directory } from '../../../../src-main/core/directory/directory';
import { RequestPacer } from '../../../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { apiFor } from '../../../support/api-rig';
import { describeJourney, requestLog, startSim } from '../../../support/sim-harness';

/** A pacer whose requests wait on `gate`: each page as over a slow link, or held by the test. */
class GatedPacer extends RequestPacer {
  gate: () => Promise<unknown> = () => Promise.resolve();

  override async take(signal?: AbortSignal): Promise<void> {
    await this.gate();
    return super.take(signal);
  }
}

const PAGE = 2;
const NAMES = ['Hanna Adler', 'Jonas Berg', 'Lea Christ', 'Milan Dorn', 'Nora Engel', 'Oskar Falk'];
const slowLink = () => new Promise((resolve) => setTimeout(resolve, EXPOSED_MS + 20));

describeJourney('a first sync over a slow link', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;

  beforeEach(async () => {
    sim = await startSim({
      profile,
      contacts: 0,
      rateLimits: { phonebook: { limit: 100_000, window_seconds: 60 } },
    });
    ({ api } = await apiFor(sim, 0));
    const book = await api.phonebooks.createPhonebook({
      description: 'Slow',
      priority: 1,
      is_shared: true,
    });
    for (const [index, name] of NAMES.entries()) {
      await api.phonebooks.createContact({
        phonebook: book.id,
        display_name: name,
        number: `+4930555100${index}`,
        secondary_number: null,
        speed_dial: 2000 + index,
      });
    }
  }, 30_000);
  afterEach(() => sim.close());

  /** A directory syncing in pages of two; `held` resolves once it shows the walked directory. */
  const firstSync = async () => {
    const pacer = new GatedPacer({ budget: 1000, windowMs: 1000 });
    pacer.gate = slowLink;
    const directory = new Directory({
      dataDir: await mkdtemp(join(tmpdir(), 'callbar-')),
      region: 'DE',
      log: silentLogger,
      phonebooks: () => api.phonebooks,
      owner: () => ({ tenant_id: sim.tenant_id, user_extension: '201', base_url: sim.base_url }),
      intervalMs: 15 * 60_000,
      pageSize: PAGE,
      pacer,
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = new Promise<void>((resolve) => {
      directory.onChange((status) => {
        if (status.state !== 'syncing' || status.contacts !== 6) return;
        // The questions about the boundaries wait until the test has looked.
        pacer.gate = () => released;
        resolve();
      });
    });
    return { directory, held, release };
  };

  /** The questions about the contacts' page boundaries (the phonebooks' walk asks its own). */
  const boundaryQuestions = async () =>
    (await requestLog(sim)).filter(
      (entry) => entry.path === '/v3/phonebook/contact/' && entry.query.page_size === '1',
    );

  it('searches the directory as walked while the boundaries are asked about, then says it is ready', async () => {
    const { directory, held, release } = await firstSync();
    const syncing = directory.sync();
    await held;
    expect(directory.status()).toMatchObject({ state: 'syncing', contacts: 6 });
    // The window says the contacts are in and being checked (not still loading).
    expect(directory.status().progress?.checking).toBe(true);
    expect(directory.status().phonebooks).toBeGreaterThan(0);
    expect(directory.search('dorn').hits.map((hit) => hit.contact.display_name)).toEqual([
      'Milan Dorn',
    ]);
    expect(directory.lookupByNumber('+49305551004')?.display_name).toBe('Nora Engel');
    expect(await boundaryQuestions()).toEqual([]);

    release();
    const { status } = await syncing;
    expect(status).toMatchObject({ state: 'ready', contacts: 6 });
    // Both boundaries of the three pages were asked about, after the directory was shown.
    expect(await boundaryQuestions()).toHaveLength(2);
    await directory.close();
  });

  it('a sync that fails after showing the walked directory leaves it empty, and says why', async () => {
    const { directory, held, release } = await firstSync();
    const syncing = directory.sync();
    await held;
    directory.cancelSync();
    release();
    await expect(syncing).rejects.toThrow();
    expect(directory.status()).toMatchObject({ state: 'empty', contacts: 0, phonebooks: 0 });
    expect(directory.status().last_error).toMatch(/cancel/i);
    expect(directory.search('dorn').hits).toEqual([]);
    await directory.close();
  });
});

/**
 * A first sync over a slow link: every page boundary is exposed (page-walk.ts), so once the pages
 * are walked the sync still asks about each boundary, a request each under the rate limit. The
 * person waiting for an empty directory searches the directory as walked meanwhile; the status
 * stays "syncing" until the questions are answered, and a sync that fails after all leaves the
 * directory empty again (nothing is called complete on less), but for the contacts the person
 * saved meanwhile: those are on the platform, and stay searchable.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { EXPOSED_MS } from '../../../../src-main/core/api/page-walk';
import { PhonebookEditor } from '../../../../src-main/core/phonebooks/phonebook-editor';
import { GatedPacer, pagedDirectory, simWithBook } from '../../../support/paged-sync-rig';
import { describeJourney, requestLog } from '../../../support/sim-harness';

const NAMES = ['Hanna Adler', 'Jonas Berg', 'Lea Christ', 'Milan Dorn', 'Nora Engel', 'Oskar Falk'];
const slowLink = () => new Promise((resolve) => setTimeout(resolve, EXPOSED_MS + 20));

describeJourney('a first sync over a slow link', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  let contacts: { phonebook: number }[];

  beforeEach(async () => {
    ({ sim, api, contacts } = await simWithBook(profile, 'Slow', NAMES));
  }, 30_000);
  afterEach(() => sim.close());

  /** A directory syncing in pages of two; `held` resolves once it shows the walked directory. */
  const firstSync = async () => {
    const pacer = new GatedPacer();
    pacer.gate = slowLink;
    const directory = await pagedDirectory(sim, api, pacer);
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

  it('a contact saved while the walked directory was shown stays searchable when the sync fails', async () => {
    const { directory, held, release } = await firstSync();
    const editor = new PhonebookEditor(api.phonebooks, directory, () => 'DE');
    const syncing = directory.sync();
    await held;
    // Saved in the window (it reaches the platform) while the boundaries are asked about.
    await editor.createContact({
      phonebook: contacts[0]!.phonebook,
      display_name: 'Paula Graf',
      number: '+49305551099',
      secondary_number: null,
      speed_dial: 2099,
      company: '',
    });
    expect(directory.search('graf').hits).toHaveLength(1);
    directory.cancelSync();
    release();
    await expect(syncing).rejects.toThrow();
    // The walked contacts are gone again; the one saved meanwhile is on the platform: kept.
    expect(directory.search('dorn').hits).toEqual([]);
    expect(directory.search('graf').hits.map((hit) => hit.contact.display_name)).toEqual([
      'Paula Graf',
    ]);
    expect(directory.lookupByNumber('+49305551099')?.display_name).toBe('Paula Graf');
    expect(directory.status()).toMatchObject({ state: 'empty', contacts: 1 });
    expect(directory.status().last_error).toMatch(/cancel/i);
    await directory.close();
  });
});

/**
 * A first sync against a platform whose phonebook looks complete once walked, and then moves
 * forever (a contact added before every request it answers from then on): the directory shown as
 * walked meanwhile (directory-sync.ts onWalked) is only searched while the sync checks it. The
 * sync ends (page-walk.ts walks a list MAX_WALKS times at most), says why, and leaves the
 * directory empty: no status on the way says "ready", and nothing of the walked directory stays.
 */
import { expect, it } from 'vitest';
import type { DirectoryStatus } from '../../src-shared/contract';
import { EXPOSED_MS, MAX_WALKS } from '../../src-main/core/api/page-walk';
import { GatedPacer, PAGE, pagedDirectory, simWithBook } from '../support/paged-sync-rig';
import { requestLog } from '../support/sim-harness';

const NAMES = ['Hanna Adler', 'Jonas Berg', 'Lea Christ', 'Milan Dorn', 'Nora Engel', 'Oskar Falk'];
const slowLink = () => new Promise((resolve) => setTimeout(resolve, EXPOSED_MS + 20));

it('a phonebook that moves forever once walked: the sync fails within its walks, the directory is empty again', async () => {
  const { sim, api, contacts } = await simWithBook('minimal', 'Moving', NAMES);
  try {
    const book = contacts[0]!.phonebook;
    const pacer = new GatedPacer();
    pacer.gate = slowLink;
    const directory = await pagedDirectory(sim, api, pacer);
    const seen: DirectoryStatus[] = [];
    let added = 0;
    directory.onChange((status) => {
      seen.push(status);
      if (status.state !== 'syncing' || status.contacts !== NAMES.length || added > 0) return;
      // From now on, every request finds one more contact than the one before.
      pacer.gate = async () => {
        added++;
        await api.phonebooks.createContact({
          phonebook: book,
          display_name: `Newcomer ${added}`,
          number: `+4930555200${added}`,
          secondary_number: null,
          speed_dial: 3000 + added,
        });
        await slowLink();
      };
    });
    const before = (await requestLog(sim)).length;
    await expect(directory.sync()).rejects.toThrow();
    const requests = (await requestLog(sim)).length - before;

    expect(added).toBeGreaterThan(0);
    expect(seen.some((status) => status.progress?.checking === true)).toBe(true);
    expect(seen.filter((status) => status.state === 'ready')).toEqual([]);
    expect(directory.status()).toMatchObject({ state: 'empty', contacts: 0 });
    expect(directory.status().last_error).toBeDefined();
    expect(directory.search('dorn').hits).toEqual([]);
    // Bounded: each walk pages through what was there plus what came meanwhile, MAX_WALKS times.
    const pagesAtMost = MAX_WALKS * Math.ceil((NAMES.length + added) / PAGE) + NAMES.length;
    expect(requests).toBeLessThanOrEqual(pagesAtMost + 2 * added);
    await directory.close();
  } finally {
    await sim.close();
  }
}, 60_000);

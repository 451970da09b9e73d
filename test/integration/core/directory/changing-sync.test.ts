/**
 * A phonebook that changes while a sync walks its pages. The platform pages by offset: a contact
 * deleted from a page already read moves every later contact one place up, so the first contact
 * of the next page slides onto the page already read and no page of the walk holds it. The
 * platform's count drops by the same one, so a walk that only compares what came with the last
 * count sees "all of them" and reports a complete directory without a contact nobody touched.
 * A walk whose count changed under it is of a list that moved: it is walked again. A coworker
 * who deletes one contact and adds another leaves the count as it was: each page boundary is
 * checked (the contact before a page must still be the last of the page before), and a page
 * the list shrank away from (the platform's 404) is a list that moved too.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { EXPOSED_MS } from '../../../../src-main/core/api/page-walk';
import type { Contact } from '../../../../src-main/core/api/schemas';
import { GatedPacer, PAGE, pagedDirectory, simWithBook } from '../../../support/paged-sync-rig';
import { describeJourney } from '../../../support/sim-harness';

describeJourney('a sync while a coworker deletes a contact', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  let contacts: Contact[];

  beforeEach(async () => {
    const names = Array.from({ length: 6 }, (_, index) => `Person ${index}`);
    ({ sim, api, contacts } = await simWithBook(profile, 'Changing', names));
  }, 30_000);
  afterEach(() => sim.close());

  it('holds every contact still there when one of a page already read is deleted', async () => {
    const pacer = new GatedPacer();
    const directory = await pagedDirectory(sim, api, pacer);
    // Once the first page (Person 0 and 1, by number) is in, Person 0 is deleted in the portal.
    let deleted = false;
    directory.onChange((status) => {
      if (!deleted && (status.progress?.contacts ?? 0) >= PAGE) {
        deleted = true;
        const deletion = api.phonebooks.deleteContact(contacts[0]!.id);
        pacer.gate = () => deletion;
      }
    });
    const { status } = await directory.sync();
    expect(deleted).toBe(true);
    expect(status.state).toBe('ready');
    const held = new Set(directory.contacts.map((contact) => contact.display_name));
    // Person 2 was never touched: the first of page 2 before the deletion, on page 1 after it.
    for (const contact of contacts.slice(1)) expect(held).toContain(contact.display_name);
    expect(directory.lookupByNumber('+49305551002')?.id).toBe(contacts[2]!.id);
    await directory.close();
  });

  it('holds every contact still there when one already read is deleted and another added: the count stays', async () => {
    const pacer = new GatedPacer();
    const directory = await pagedDirectory(sim, api, pacer);
    // Once the first page is in, Person 0 is deleted and Person 9 (last by number) added: the
    // count stays 6, Person 2 slides onto page 1 and page 3 brings Person 9.
    let changed = false;
    directory.onChange((status) => {
      if (!changed && (status.progress?.contacts ?? 0) >= PAGE) {
        changed = true;
        const change = (async () => {
          await api.phonebooks.deleteContact(contacts[0]!.id);
          await api.phonebooks.createContact({
            phonebook: contacts[0]!.phonebook,
            display_name: 'Person 9',
            number: '+493055510099',
            secondary_number: null,
            speed_dial: 2009,
          });
          // Two requests to a platform across a network take at least this long (EXPOSED_MS);
          // the simulator on loopback answers them in a few milliseconds.
          await new Promise((resolve) => setTimeout(resolve, EXPOSED_MS + 20));
        })();
        pacer.gate = () => change;
      }
    });
    const { status } = await directory.sync();
    expect(changed).toBe(true);
    expect(status.state).toBe('ready');
    const held = new Set(directory.contacts.map((contact) => contact.display_name));
    for (const contact of contacts.slice(1)) expect(held).toContain(contact.display_name);
    expect(held).toContain('Person 9');
    await directory.close();
  });

  it('walks again when the page it goes to is gone: two deleted from pages already read', async () => {
    const pacer = new GatedPacer();
    const directory = await pagedDirectory(sim, api, pacer);
    // Pages 1 and 2 are in when Person 0 and 1 are deleted: four are left, and the third page
    // the second linked to is no more (the platform answers 404 "Invalid page.").
    let deleted = false;
    directory.onChange((status) => {
      if (!deleted && (status.progress?.contacts ?? 0) >= 2 * PAGE) {
        deleted = true;
        const deletions = Promise.all(
          contacts.slice(0, 2).map((contact) => api.phonebooks.deleteContact(contact.id)),
        );
        pacer.gate = () => deletions;
      }
    });
    const { status } = await directory.sync();
    expect(deleted).toBe(true);
    expect(status).toMatchObject({ state: 'ready' });
    const held = new Set(directory.contacts.map((contact) => contact.display_name));
    for (const contact of contacts.slice(2)) expect(held).toContain(contact.display_name);
    await directory.close();
  });
});

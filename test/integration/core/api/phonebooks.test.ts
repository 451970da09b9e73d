/**
 * Phonebooks and contacts through the typed client, against the simulator over real HTTP: every
 * operation and every error row of the contract (section 7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { ApiError } from '../../../../src-main/core/api/api-errors';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import type { Contact } from '../../../../src-main/core/api/schemas';
import {
  advanceClock,
  control,
  describeEachProfile,
  requestLog,
  startSim,
} from '../../../support/sim-harness';
import { apiFor } from '../../../support/api-rig';
import { failure } from '../../../support/failure';

describeEachProfile('phonebooks and contacts', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ profile, contacts: 120 });
    ({ api } = await apiFor(sim, 0)); // users[0] may view all phonebooks
  });
  afterAll(() => sim.close());

  it('lists phonebooks with owners as objects and timestamps with a UTC offset', async () => {
    const page = await api.phonebooks.listPhonebooks();
    expect(page.count).toBeGreaterThan(0);
    const book = page.results[0]!;
    expect(book.owners.every((owner) => typeof owner.username === 'string')).toBe(true);
    expect(book.created).toMatch(/(Z|[+-]\d\d:\d\d)$/);
  });

  it('passes search and ordering through', async () => {
    const all = (await api.phonebooks.listPhonebooks({ ordering: 'description' })).results;
    const descending = (await api.phonebooks.listPhonebooks({ ordering: '-description' })).results;
    expect(descending.map((b) => b.id)).toEqual([...all].reverse().map((b) => b.id));
    const term = all[0]!.description.slice(0, 4);
    const found = await api.phonebooks.listPhonebooks({ search: term });
    expect(
      found.results.every(
        (b) =>
          b.description.toLowerCase().includes(term.toLowerCase()) ||
          b.owners.some((o) => o.username.toLowerCase().includes(term.toLowerCase())),
      ),
    ).toBe(true);
    const log = await requestLog(sim);
    expect(log.some((entry) => JSON.stringify(entry).includes('ordering'))).toBe(true);
  });

  it('walks every contact across many pages by following next', async () => {
    const first = await api.phonebooks.listContacts({ page_size: 7 });
    expect(first.next).not.toBeNull();
    const ids: number[] = [];
    for await (const contact of api.phonebooks.allContacts({ page_size: 7 })) ids.push(contact.id);
    expect(ids.length).toBe(first.count);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('walks every contact when it asks for more per page than the platform gives (silently capped)', async () => {
    const first = await api.phonebooks.listContacts({ page_size: 1000 });
    const ids: number[] = [];
    for await (const contact of api.phonebooks.allContacts({ page_size: 1000 }))
      ids.push(contact.id);
    expect(ids.length).toBe(first.count);
    expect(new Set(ids).size).toBe(ids.length);
    // The minimal profile caps page_size at 100: the walk took more than one page.
    if (profile === 'minimal') expect(first.next).not.toBeNull();
  });

  it('creates, retrieves, updates and deletes a phonebook', async () => {
    const created = await api.phonebooks.createPhonebook({
      description: 'Suppliers (test)',
      priority: 5,
      is_shared: true,
    });
    expect(created).toMatchObject({
      description: 'Suppliers (test)',
      priority: 5,
      is_shared: true,
    });
    expect(created.owners.every((owner) => typeof owner === 'number')).toBe(true);
    const read = await api.phonebooks.getPhonebook(created.id);
    expect(read.description).toBe('Suppliers (test)');
    const updated = await api.phonebooks.updatePhonebook(created.id, {
      description: 'Suppliers (renamed)',
      priority: 6,
      is_shared: false,
    });
    expect(updated).toMatchObject({ description: 'Suppliers (renamed)', is_shared: false });
    await api.phonebooks.deletePhonebook(created.id);
    const gone = await failure(api.phonebooks.getPhonebook(created.id));
    expect(gone).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('a duplicate description is a validation error on the description field', async () => {
    const existing = (await api.phonebooks.listPhonebooks()).results[0]!;
    const error = (await failure(
      api.phonebooks.createPhonebook({
        description: existing.description,
        priority: 1,
        is_shared: true,
      }),
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.type).toBe('validation_error');
    expect(error.field).toBe('description');
    expect(error.fieldMessages().description?.[0]).toMatch(/exist/i);
  });

  it('a phonebook assigned to a device cannot be deleted (phonebook_in_use)', async () => {
    const books = (await api.phonebooks.listPhonebooks({ page_size: 100 })).results;
    let inUse: ApiError | undefined;
    for (const book of books) {
      const outcome = await api.phonebooks.deletePhonebook(book.id).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (outcome instanceof ApiError && outcome.code === 'phonebook_in_use') {
        inUse = outcome;
        break;
      }
      if (outcome === undefined) continue; // deleted an unassigned one: fine in a throwaway world
    }
    expect(inUse).toBeDefined();
    expect(inUse!.type).toBe('client_error');
    expect(inUse!.errors[0]!.attr).toBeNull();
    expect(inUse!.message.length).toBeGreaterThan(10);
  });

  describe('contacts', () => {
    let phonebook: number;
    let contact: Contact;
    beforeAll(async () => {
      phonebook = (
        await api.phonebooks.createPhonebook({
          description: 'Contacts test',
          priority: 1,
          is_shared: true,
        })
      ).id;
    });

    it('creates, retrieves, updates and deletes a contact', async () => {
      contact = await api.phonebooks.createContact({
        phonebook,
        display_name: 'Ada Lovelace',
        number: '+442071234567',
        secondary_number: null,
        speed_dial: 7341,
        company: 'Analytical Engines',
      });
      expect(contact).toMatchObject({
        display_name: 'Ada Lovelace',
        speed_dial: 7341,
        secondary_number: null,
      });
      expect(await api.phonebooks.getContact(contact.id)).toEqual(contact);
      const updated = await api.phonebooks.updateContact(contact.id, {
        phonebook,
        display_name: 'Ada King',
        number: '+442071234567',
        secondary_number: '+442079999999',
        speed_dial: 7341,
      });
      expect(updated).toMatchObject({
        display_name: 'Ada King',
        secondary_number: '+442079999999',
      });
      const found = await api.phonebooks.listContacts({ phonebook, search: '2071234' });
      expect(found.results.map((c) => c.id)).toContain(contact.id);
    });

    it('refuses a bad speed dial before sending anything', async () => {
      const before = (await requestLog(sim)).length;
      for (const speed_dial of [199, 1000, 9191, 10000]) {
        const error = await failure(
          api.phonebooks.createContact({
            phonebook,
            display_name: 'X',
            number: '+15550001',
            secondary_number: null,
            speed_dial,
          }),
        );
        expect(error).toMatchObject({ code: 'invalid_input', field: 'speed_dial' });
      }
      expect((await requestLog(sim)).length).toBe(before);
    });

    it('a taken speed dial and a duplicate number are field errors from the platform', async () => {
      const takenSpeedDial = await failure(
        api.phonebooks.createContact({
          phonebook,
          display_name: 'Dup',
          number: '+15550002',
          secondary_number: null,
          speed_dial: 7341,
        }),
      );
      expect(takenSpeedDial).toMatchObject({ status: 400, field: 'speed_dial' });
      const userExtension = await failure(
        api.phonebooks.createContact({
          phonebook,
          display_name: 'Dup',
          number: '+15550003',
          secondary_number: null,
          speed_dial: Number(sim.users[0]!.extension),
        }),
      );
      expect(userExtension).toMatchObject({ status: 400, field: 'speed_dial' });
      const duplicateNumber = await failure(
        api.phonebooks.createContact({
          phonebook,
          display_name: 'Dup',
          number: '+442071234567',
          secondary_number: null,
          speed_dial: 7342,
        }),
      );
      expect(duplicateNumber).toMatchObject({ status: 400, field: 'number' });
    });

    it('a contact used in a queue or call flow cannot be deleted (contacts_in_use), alone or in bulk', async () => {
      let inUse: ApiError | undefined;
      for await (const candidate of api.phonebooks.allContacts({ page_size: 200 })) {
        const outcome = await api.phonebooks.deleteContact(candidate.id).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (outcome instanceof ApiError && outcome.code === 'contacts_in_use') {
          inUse = outcome;
          // All or nothing: with a deletable contact beside it, neither goes.
          const bulk = (await failure(
            api.phonebooks.bulkDeleteContacts([contact.id, candidate.id]),
          )) as ApiError;
          expect(bulk.code).toBe('contacts_in_use');
          expect(await api.phonebooks.getContact(contact.id)).toBeDefined();
          expect(await api.phonebooks.getContact(candidate.id)).toBeDefined();
          break;
        }
      }
      expect(inUse).toBeDefined();
      expect(inUse!.type).toBe('client_error');
    });

    it('bulk delete checks its list before sending, then deletes all', async () => {
      await expect(api.phonebooks.bulkDeleteContacts([])).rejects.toMatchObject({
        field: 'contact_ids',
      });
      await expect(api.phonebooks.bulkDeleteContacts([1.5])).rejects.toMatchObject({
        code: 'invalid_input',
      });
      const extra = await api.phonebooks.createContact({
        phonebook,
        display_name: 'Temp',
        number: '+15550009',
        secondary_number: null,
        speed_dial: 7349,
      });
      await api.phonebooks.bulkDeleteContacts([contact.id, extra.id]);
      await expect(api.phonebooks.getContact(contact.id)).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(api.phonebooks.getContact(extra.id)).rejects.toMatchObject({
        code: 'not_found',
      });
    });

    it('bulk delete of contacts the user may not touch is a 403 with an empty body, and deletes none', async () => {
      const { api: bob } = await apiFor(sim, 1); // no view-all role
      const mine = await bob.phonebooks.createPhonebook({
        description: 'Bob private',
        priority: 1,
        is_shared: false,
      });
      const own = await bob.phonebooks.createContact({
        phonebook: mine.id,
        display_name: 'Own',
        number: '+15550101',
        secondary_number: null,
        speed_dial: 7351,
      });
      const foreignBook = await api.phonebooks.createPhonebook({
        description: 'Alice private',
        priority: 1,
        is_shared: false,
      });
      const foreign = await api.phonebooks.createContact({
        phonebook: foreignBook.id,
        display_name: 'Foreign',
        number: '+15550102',
        secondary_number: null,
        speed_dial: 7352,
      });
      const error = (await failure(
        bob.phonebooks.bulkDeleteContacts([own.id, foreign.id]),
      )) as ApiError;
      expect(error).toMatchObject({ status: 403, code: 'forbidden', errors: [] });
      expect(await bob.phonebooks.getContact(own.id)).toBeDefined();
      expect(await api.phonebooks.getContact(foreign.id)).toBeDefined();
    });

    it('the platform’s own bulk-delete validation rows map to contact_ids', async () => {
      const token = await (await apiFor(sim, 0)).tokens.getAccessToken();
      // These requests are not paced: the walks before them (pages of 7, and the one-item
      // question at each page boundary) may have used the minimal profile's minute.
      await advanceClock(sim, 60);
      const send = (body: unknown) =>
        fetch(`${sim.base_url}/v3/phonebook/contact/bulk_delete/`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { type: string; errors: { code: string; attr: string }[] },
        }));
      const missing = await send({});
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0]).toMatchObject({ code: 'required', attr: 'contact_ids' });
      const empty = await send({ contact_ids: [] });
      expect(empty.body.errors[0]!.attr).toBe('contact_ids');
      const notIntegers = await send({ contact_ids: [1, 'two'] });
      expect(notIntegers.body.errors[0]!.attr).toMatch(/^contact_ids/);
    });
  });

  it('an unknown id is not_found; control of the world is intact', async () => {
    await expect(api.phonebooks.getContact(99_999_999)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await control(sim, 'GET', 'clock')).toHaveProperty('now');
  });
});

/**
 * /v3/phonebook/contact/ (contract 4.5, 2.5, 7): list with the phonebook filter, search, ordering
 * and pagination (default 48, clamped maximum), visibility, create/update/delete with every field
 * rule (speed-dial range and uniqueness across extensions, number unique per phonebook), and
 * bulk delete with every error row (required, empty, non-integer items, 403 with an empty body,
 * contacts_in_use, all-or-nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldSummary } from '../../../simulator/control-client';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { errorKeys, type Api, type ContactBody, type Page } from '../../support/raw-api';

const BASE = '/v3/phonebook/contact/';
const BULK = '/v3/phonebook/contact/bulk_delete/';

describe('contacts', () => {
  let t: TestSim;
  let alice: Api;
  let bob: Api;
  let world: WorldSummary;
  let all: ContactBody[];
  let nextSpeedDial = 3000;
  const phonebook = (description: string) =>
    world.phonebooks.find((p) => p.description === description && p.tenant_id === t.sim.tenant_id)!
      .id;
  const list = async (api: Api, query = '') =>
    (await api.get(`${BASE}${query}`)).json as Page<ContactBody>;
  const freeSpeedDial = () => {
    while (all.some((c) => c.speed_dial === nextSpeedDial)) nextSpeedDial++;
    return nextSpeedDial++;
  };
  const newContact = async (api: Api, overrides: Record<string, unknown> = {}) => {
    const response = await api.post(BASE, {
      phonebook: phonebook('Bob — personal'),
      display_name: 'Test Person',
      number: `+4930${freeSpeedDial()}${Math.floor(Math.random() * 1e6)}`,
      secondary_number: null,
      speed_dial: freeSpeedDial(),
      ...overrides,
    });
    expect(response.status).toBe(201);
    return response.json as ContactBody;
  };
  const inUse = () => {
    const queued = new Set(world.call_queues.flatMap((q) => q.contact_ids));
    const flowed = new Set(world.call_flows.flatMap((f) => f.contact_ids));
    const both = [...queued].find((contact) => flowed.has(contact))!;
    return { queued: [...queued], flowed: [...flowed], both };
  };

  beforeAll(async () => {
    t = await startTestSim({ contacts: 60 });
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
    world = await t.control.world();
    all = (await list(alice, '?page_size=1000')).results;
  });
  afterAll(() => t.sim.close());

  it('lists 48 per page by default with absolute links; page_size is clamped to the maximum', async () => {
    const first = await list(alice);
    expect(first.count).toBe(60);
    expect(first.results).toHaveLength(48);
    expect(first.next).toBe(`${t.sim.base_url}${BASE}?page=2`);
    expect(first.previous).toBeNull();
    const second = await list(alice, '?page=2');
    expect(second.results).toHaveLength(12);
    expect(second.previous).toBe(`${t.sim.base_url}${BASE}`);
    expect(second.next).toBeNull();
    expect(all).toHaveLength(60);
    await t.control.updateConfig({ maxPageSize: 25 });
    try {
      const clamped = await list(alice, '?page_size=1000');
      expect(clamped.results).toHaveLength(25);
      expect(clamped.next).toBe(`${t.sim.base_url}${BASE}?page=2&page_size=1000`);
    } finally {
      await t.control.updateConfig({ maxPageSize: 1000 });
    }
    expect((await alice.get(`${BASE}?page=3`)).status).toBe(404);
  });

  it('has the contract shape, realistic values and speed dials unique and in range', () => {
    for (const contact of all) {
      expect(Object.keys(contact).sort()).toEqual([
        'company',
        'display_name',
        'id',
        'number',
        'phonebook',
        'secondary_number',
        'speed_dial',
      ]);
      expect(typeof contact.speed_dial).toBe('number');
      expect(
        (contact.speed_dial >= 200 && contact.speed_dial <= 999) ||
          (contact.speed_dial >= 2000 && contact.speed_dial <= 9999),
      ).toBe(true);
      expect(contact.speed_dial).not.toBe(9191);
    }
    expect(new Set(all.map((c) => c.speed_dial)).size).toBe(all.length);
    expect(all.some((c) => c.number.startsWith('+'))).toBe(true);
    expect(all.some((c) => c.secondary_number !== null)).toBe(true);
  });

  it('filters by phonebook; a non-integer filter → 400 invalid_choice on phonebook', async () => {
    const customers = await list(alice, `?phonebook=${phonebook('Customers')}&page_size=1000`);
    expect(customers.count).toBeGreaterThan(0);
    expect(customers.results.every((c) => c.phonebook === phonebook('Customers'))).toBe(true);
    expect(customers.count).toBe(all.filter((c) => c.phonebook === phonebook('Customers')).length);
    const bad = await alice.get(`${BASE}?phonebook=abc`);
    expect(bad.status).toBe(400);
    expect(errorKeys(bad)).toEqual(['validation_error/invalid_choice/phonebook']);
  });

  it('searches display_name, number, speed_dial and company; all terms must match', async () => {
    const sample = all.find((c) => c.company !== '')!;
    const lastName = sample.display_name.split(' ').at(-1)!;
    const byName = await list(
      alice,
      `?search=${encodeURIComponent(lastName.toUpperCase())}&page_size=1000`,
    );
    expect(byName.results.map((c) => c.id)).toContain(sample.id);
    expect(
      byName.results.every((c) =>
        [c.display_name, c.number, String(c.speed_dial), c.company].some((v) =>
          v.toLowerCase().includes(lastName.toLowerCase()),
        ),
      ),
    ).toBe(true);
    const bySpeedDial = await list(alice, `?search=${sample.speed_dial}`);
    expect(bySpeedDial.results.map((c) => c.id)).toContain(sample.id);
    const digits = sample.number.slice(-5);
    expect(
      (await list(alice, `?search=${encodeURIComponent(digits)}`)).results.map((c) => c.id),
    ).toContain(sample.id);
    const byCompanyAndName = await list(
      alice,
      `?search=${encodeURIComponent(`${sample.company.split(' ')[0]} ${lastName}`)}`,
    );
    expect(byCompanyAndName.results.map((c) => c.id)).toContain(sample.id);
    expect((await list(alice, '?search=qqqqzzzz')).count).toBe(0);
  });

  it('orders by phonebook, display_name, number, company and speed_dial', async () => {
    const bySpeedDial = (await list(alice, '?ordering=-speed_dial&page_size=1000')).results.map(
      (c) => c.speed_dial,
    );
    expect(bySpeedDial).toEqual([...bySpeedDial].sort((a, b) => b - a));
    const byPhonebook = (await list(alice, '?ordering=phonebook,speed_dial&page_size=1000'))
      .results;
    expect(byPhonebook.map((c) => c.phonebook)).toEqual(
      [...byPhonebook.map((c) => c.phonebook)].sort((a, b) => a - b),
    );
    const byName = (await list(alice, '?ordering=display_name&page_size=1000')).results.map(
      (c) => c.display_name,
    );
    const collator = new Intl.Collator('en');
    expect(byName).toEqual([...byName].sort(collator.compare));
    for (const field of ['number', 'company']) {
      expect((await alice.get(`${BASE}?ordering=${field}`)).status).toBe(200);
    }
  });

  it('shows only contacts of visible phonebooks; others are 404', async () => {
    const bobs = await list(bob, '?page_size=1000');
    const visible = new Set([
      phonebook('Company directory'),
      phonebook('Customers'),
      phonebook('Bob — personal'),
    ]);
    expect(bobs.results.every((c) => visible.has(c.phonebook))).toBe(true);
    expect(bobs.count).toBe(all.filter((c) => visible.has(c.phonebook)).length);
    const hidden = all.find((c) => !visible.has(c.phonebook))!;
    const response = await bob.get(`${BASE}${hidden.id}/`);
    expect(response.status).toBe(404);
    expect(errorKeys(response)).toEqual(['client_error/not_found/null']);
    expect((await alice.get(`${BASE}${hidden.id}/`)).json).toEqual(hidden);
  });

  it('creates: 201 with the contact; company defaults to ""; separators are normalized away', async () => {
    const speedDial = freeSpeedDial();
    const response = await bob.post(BASE, {
      phonebook: phonebook('Bob — personal'),
      display_name: '  Jane Roe ',
      number: '+49 (30) 555-0100',
      secondary_number: '0049 171 5550101',
      speed_dial: String(speedDial),
      unknown_field: 'ignored',
    });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({
      id: expect.any(Number) as number,
      phonebook: phonebook('Bob — personal'),
      display_name: 'Jane Roe',
      number: '+49305550100',
      secondary_number: '+491715550101',
      speed_dial: speedDial,
      company: '',
    });
  });

  it('create: required fields, types, lengths and the phonebook must be visible', async () => {
    const empty = await bob.post(BASE, {});
    expect(errorKeys(empty).sort()).toEqual([
      'validation_error/required/display_name',
      'validation_error/required/number',
      'validation_error/required/phonebook',
      'validation_error/required/secondary_number',
      'validation_error/required/speed_dial',
    ]);
    const wrong = await bob.post(BASE, {
      phonebook: 'abc',
      display_name: ['x'],
      number: 'call me',
      secondary_number: '',
      speed_dial: 12.5,
      company: null,
    });
    expect(errorKeys(wrong).sort()).toEqual([
      'validation_error/blank/secondary_number',
      'validation_error/incorrect_type/phonebook',
      'validation_error/invalid/display_name',
      'validation_error/invalid/number',
      'validation_error/invalid/speed_dial',
      'validation_error/null/company',
    ]);
    const hidden = await bob.post(BASE, {
      phonebook: phonebook('Suppliers'),
      display_name: 'X',
      number: '+4930111',
      secondary_number: null,
      speed_dial: freeSpeedDial(),
    });
    expect(errorKeys(hidden)).toEqual(['validation_error/does_not_exist/phonebook']);
    const long = await bob.post(BASE, {
      phonebook: phonebook('Bob — personal'),
      display_name: 'n'.repeat(256),
      number: '+4930111',
      secondary_number: null,
      speed_dial: freeSpeedDial(),
    });
    expect(errorKeys(long)).toEqual(['validation_error/max_length/display_name']);
  });

  it.each([150, 199, 1000, 1999, 9191, 10000, -5])(
    'speed_dial %i is out of range → validation_error attr speed_dial',
    async (speedDial) => {
      const response = await bob.post(BASE, {
        phonebook: phonebook('Bob — personal'),
        display_name: 'X',
        number: '+4930222',
        secondary_number: null,
        speed_dial: speedDial,
      });
      expect(response.status).toBe(400);
      expect(errorKeys(response)).toEqual(['validation_error/invalid/speed_dial']);
    },
  );

  it('speed_dial must be unique among contacts, users, queues, flows and voicemail boxes', async () => {
    const taken = [
      all[0]!.speed_dial,
      201,
      world.call_queues[0]!.extension,
      world.call_flows[0]!.extension,
      world.voicemail_boxes.find((v) => v.tenant_id === t.sim.tenant_id)!.extension,
    ];
    for (const speedDial of taken) {
      const response = await bob.post(BASE, {
        phonebook: phonebook('Bob — personal'),
        display_name: 'X',
        number: `+49309${speedDial}`,
        secondary_number: null,
        speed_dial: speedDial,
      });
      expect(response.status).toBe(400);
      expect(errorKeys(response)).toEqual(['validation_error/unique/speed_dial']);
    }
    // Boundaries are valid values.
    for (const speedDial of [2000, 9999]) {
      if (all.some((c) => c.speed_dial === speedDial)) continue;
      await newContact(bob, { speed_dial: speedDial });
    }
  });

  it('number is unique per phonebook (compared normalized), not across phonebooks', async () => {
    const existing = await newContact(bob, { number: '+4940123450' });
    const duplicate = await bob.post(BASE, {
      phonebook: existing.phonebook,
      display_name: 'Dup',
      number: '+49 40 123450',
      secondary_number: null,
      speed_dial: freeSpeedDial(),
    });
    expect(duplicate.status).toBe(400);
    expect(errorKeys(duplicate)).toEqual(['validation_error/unique/number']);
    await newContact(bob, { phonebook: phonebook('Customers'), number: '+4940123450' });
  });

  it('updates with PUT: 200 with the contact; its own speed dial and number stay valid', async () => {
    const contact = await newContact(bob);
    const response = await bob.put(`${BASE}${contact.id}/`, {
      ...contact,
      display_name: 'Renamed',
      company: 'Acme',
      phonebook: phonebook('Customers'),
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      ...contact,
      display_name: 'Renamed',
      company: 'Acme',
      phonebook: phonebook('Customers'),
    });
    const clash = await bob.put(`${BASE}${contact.id}/`, { ...contact, speed_dial: 202 });
    expect(errorKeys(clash)).toEqual(['validation_error/unique/speed_dial']);
    const partial = await bob.put(`${BASE}${contact.id}/`, { display_name: 'Only name' });
    expect(partial.status).toBe(400);
    const hidden = all.find((c) => c.phonebook === phonebook('Suppliers'))!;
    expect((await bob.put(`${BASE}${hidden.id}/`, hidden)).status).toBe(404);
  });

  it('deletes: 204 empty, then 404', async () => {
    const contact = await newContact(bob);
    const response = await bob.delete(`${BASE}${contact.id}/`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await bob.get(`${BASE}${contact.id}/`)).status).toBe(404);
  });

  it('a contact in a queue or flow → 400 client_error/contacts_in_use/null naming them', async () => {
    const { both, queued } = inUse();
    const response = await alice.delete(`${BASE}${both}/`);
    expect(response.status).toBe(400);
    expect(errorKeys(response)).toEqual(['client_error/contacts_in_use/null']);
    const detail = (response.json as { errors: { detail: string }[] }).errors[0]!.detail;
    expect(detail).toContain(world.call_queues[0]!.name);
    expect(detail).toContain(world.call_flows[0]!.name);
    expect(detail).toContain(all.find((c) => c.id === both)!.display_name);
    const queueOnly = queued.find((id) => id !== both)!;
    const single = await alice.delete(`${BASE}${queueOnly}/`);
    expect(errorKeys(single)).toEqual(['client_error/contacts_in_use/null']);
    expect((await alice.get(`${BASE}${both}/`)).status).toBe(200);
  });

  describe('bulk delete', () => {
    it('contact_ids missing → validation_error/required/contact_ids', async () => {
      const response = await bob.delete(BULK, {});
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        type: 'validation_error',
        errors: [{ code: 'required', detail: 'This field is required.', attr: 'contact_ids' }],
      });
      expect(errorKeys(await bob.delete(BULK))).toEqual(['validation_error/required/contact_ids']);
    });

    it('an empty list → validation_error/empty/contact_ids', async () => {
      const response = await bob.delete(BULK, { contact_ids: [] });
      expect(response.status).toBe(400);
      expect(errorKeys(response)).toEqual(['validation_error/empty/contact_ids']);
    });

    it('non-integer items → validation_error attr contact_ids.N; not a list → not_a_list', async () => {
      const response = await bob.delete(BULK, { contact_ids: [all[0]!.id, 'x', { id: 1 }, 2.5] });
      expect(response.status).toBe(400);
      expect(errorKeys(response)).toEqual([
        'validation_error/invalid/contact_ids.1',
        'validation_error/invalid/contact_ids.2',
        'validation_error/invalid/contact_ids.3',
      ]);
      expect(errorKeys(await bob.delete(BULK, { contact_ids: '1,2' }))).toEqual([
        'validation_error/not_a_list/contact_ids',
      ]);
      expect(errorKeys(await bob.delete(BULK, { contact_ids: [null] }))).toEqual([
        'validation_error/null/contact_ids.0',
      ]);
    });

    it('an ID not allowed for the user → 403 with an empty body, nothing deleted', async () => {
      const mine = await newContact(bob);
      const hidden = all.find((c) => c.phonebook === phonebook('Suppliers'))!;
      for (const ids of [
        [mine.id, hidden.id],
        [mine.id, 99_999],
      ]) {
        const response = await bob.delete(BULK, { contact_ids: ids });
        expect(response.status).toBe(403);
        expect(response.text).toBe('');
      }
      expect((await bob.get(`${BASE}${mine.id}/`)).status).toBe(200);
      expect((await alice.get(`${BASE}${hidden.id}/`)).status).toBe(200);
    });

    it('any contact in use → 400 contacts_in_use and nothing is deleted (all-or-nothing)', async () => {
      const mine = await newContact(alice, { phonebook: phonebook('Customers') });
      const { queued, flowed } = inUse();
      const response = await alice.delete(BULK, {
        contact_ids: [mine.id, queued[0], flowed.at(-1)],
      });
      expect(response.status).toBe(400);
      expect(errorKeys(response).length).toBeGreaterThanOrEqual(1);
      expect(errorKeys(response).every((key) => key === 'client_error/contacts_in_use/null')).toBe(
        true,
      );
      expect((await alice.get(`${BASE}${mine.id}/`)).status).toBe(200);
    });

    it('deletes them all: 204, then gone; IDs as numeric strings are integers too', async () => {
      const a = await newContact(bob);
      const b = await newContact(bob);
      const response = await bob.delete(BULK, { contact_ids: [a.id, String(b.id)] });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await bob.get(`${BASE}${a.id}/`)).status).toBe(404);
      expect((await bob.get(`${BASE}${b.id}/`)).status).toBe(404);
    });

    it('only DELETE is allowed on bulk_delete/', async () => {
      expect((await bob.get(BULK)).status).toBe(405);
      expect((await bob.post(BULK, { contact_ids: [1] })).status).toBe(405);
      expect(
        (await bob.delete('/v3/phonebook/contact/bulk_delete', { contact_ids: [1] })).status,
      ).toBe(404);
    });
  });
});

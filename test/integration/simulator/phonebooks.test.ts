/**
 * /v3/phonebook/phonebook/ (contract 4.4, 2.4, 7): list with search, ordering and pagination,
 * read vs write shapes, ownership and the view-all role, create/update/delete, and every error
 * row (unique description, phonebook_in_use, contacts_in_use, validation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldSummary } from '../../../simulator/control-client';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { errorKeys, type Api, type Page, type PhonebookRead } from '../../support/raw-api';

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$/;
const BASE = '/v3/phonebook/phonebook/';

describe('phonebooks', () => {
  let t: TestSim;
  let alice: Api;
  let bob: Api;
  let world: WorldSummary;
  const id = (description: string) =>
    world.phonebooks.find((p) => p.description === description && p.tenant_id === t.sim.tenant_id)!
      .id;
  const list = async (api: Api, query = '') =>
    (await api.get(`${BASE}${query}`)).json as Page<PhonebookRead>;

  beforeAll(async () => {
    t = await startTestSim({ contacts: 60 });
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
    world = await t.control.world();
  });
  afterAll(() => t.sim.close());

  it('lists the phonebooks as read: owners as {id, username}, created/modified with UTC offset', async () => {
    const response = await alice.get(BASE);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const page = response.json as Page<PhonebookRead>;
    expect(page).toMatchObject({ count: 7, next: null, previous: null });
    expect(page.results).toHaveLength(7);
    const directory = page.results.find((p) => p.description === 'Company directory')!;
    expect(Object.keys(directory).sort()).toEqual([
      'created',
      'description',
      'id',
      'is_shared',
      'modified',
      'owners',
      'priority',
    ]);
    expect(directory.owners).toEqual([
      { id: 1, username: 'alice' },
      { id: 2, username: 'bob' },
      { id: 3, username: 'carol' },
    ]);
    expect(directory.created).toMatch(ISO_WITH_OFFSET);
    expect(directory.modified).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(directory.modified)).toBeGreaterThanOrEqual(Date.parse(directory.created));
    expect(page.results.some((p) => p.is_shared) && page.results.some((p) => !p.is_shared)).toBe(
      true,
    );
  });

  it('shows a user only the phonebooks they own; the view-all role sees every one of the tenant', async () => {
    const bobs = await list(bob);
    expect(bobs.results.map((p) => p.description).sort()).toEqual([
      'Bob — personal',
      'Company directory',
      'Customers',
    ]);
    const suppliers = await bob.get(`${BASE}${id('Suppliers')}/`);
    expect(suppliers.status).toBe(404);
    expect(errorKeys(suppliers)).toEqual(['client_error/not_found/null']);
    expect((await alice.get(`${BASE}${id('Suppliers')}/`)).status).toBe(200);
    const otherTenant = world.phonebooks.find((p) => p.tenant_id !== t.sim.tenant_id)!;
    expect((await alice.get(`${BASE}${otherTenant.id}/`)).status).toBe(404);
    expect((await list(alice)).results.map((p) => p.id)).not.toContain(otherTenant.id);
  });

  it('retrieves one phonebook as read; unknown or non-numeric ids are 404', async () => {
    const response = await alice.get(`${BASE}${id('Customers')}/`);
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      id: id('Customers'),
      description: 'Customers',
      priority: 20,
      is_shared: true,
      owners: [
        { id: 1, username: 'alice' },
        { id: 2, username: 'bob' },
      ],
    });
    expect((await alice.get(`${BASE}99999/`)).status).toBe(404);
    expect((await alice.get(`${BASE}abc/`)).status).toBe(404);
  });

  it('searches description and owners__username; every term must match', async () => {
    const byDescription = await list(alice, '?search=CUSTOM');
    expect(byDescription.results.map((p) => p.description)).toEqual(['Customers']);
    const byOwner = await list(alice, '?search=carol');
    expect(byOwner.results.map((p) => p.description).sort()).toEqual([
      'Carol — personal',
      'Company directory',
      'Suppliers',
    ]);
    const both = await list(alice, '?search=carol,directory');
    expect(both.results.map((p) => p.description)).toEqual(['Company directory']);
    expect((await list(alice, '?search=zzzz')).count).toBe(0);
  });

  it('orders by priority, is_shared and description (- for descending); unknown fields are ignored', async () => {
    const descending = await list(alice, '?ordering=-priority');
    const priorities = descending.results.map((p) => p.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    const byDescription = await list(alice, '?ordering=description');
    const names = byDescription.results.map((p) => p.description);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    const shared = await list(alice, '?ordering=is_shared,description');
    expect(shared.results[0]!.is_shared).toBe(false);
    expect(shared.results.at(-1)!.is_shared).toBe(true);
    const bogus = await list(alice, '?ordering=owners,nonsense');
    expect(bogus.results.map((p) => p.id)).toEqual(
      [...bogus.results.map((p) => p.id)].sort((a, b) => a - b),
    );
  });

  it('paginates with absolute next/previous links and 404 "Invalid page."', async () => {
    const first = await list(alice, '?page_size=3&ordering=description');
    expect(first.count).toBe(7);
    expect(first.results).toHaveLength(3);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${t.sim.base_url}${BASE}?ordering=description&page=2&page_size=3`);
    const second = (await alice.get(first.next!.slice(t.sim.base_url.length)))
      .json as Page<PhonebookRead>;
    expect(second.previous).toBe(`${t.sim.base_url}${BASE}?ordering=description&page_size=3`);
    const last = await list(alice, '?page_size=3&page=last');
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
    for (const page of ['4', '0', 'abc', '-1']) {
      const response = await alice.get(`${BASE}?page_size=3&page=${page}`);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'Invalid page.', attr: null }],
      });
    }
    expect((await list(alice, '?page_size=0')).results).toHaveLength(7);
    expect((await list(alice, '?page_size=x')).results).toHaveLength(7);
  });

  it('creates: 201 with owners as integer IDs and no timestamps; the creator owns it by default', async () => {
    const response = await bob.post(BASE, {
      description: 'Bob — field team',
      priority: 40,
      is_shared: false,
    });
    expect(response.status).toBe(201);
    const created = response.json as Record<string, unknown>;
    expect(created).toEqual({
      id: expect.any(Number) as number,
      priority: 40,
      description: 'Bob — field team',
      is_shared: false,
      owners: [2],
    });
    const read = await bob.get(`${BASE}${created.id as number}/`);
    expect(read.json).toMatchObject({
      owners: [{ id: 2, username: 'bob' }],
      created: expect.stringMatching(ISO_WITH_OFFSET) as string,
    });
    const withOwners = await alice.post(BASE, {
      description: 'Shared by two',
      priority: '7',
      is_shared: 'true',
      owners: [2, '3'],
      ignored: 'field',
    });
    expect(withOwners.status).toBe(201);
    expect(withOwners.json).toMatchObject({ priority: 7, is_shared: true, owners: [2, 3] });
    expect(withOwners.json).not.toHaveProperty('ignored');
  });

  it('create: required fields and types are validated, every error at once', async () => {
    const empty = await alice.post(BASE, {});
    expect(empty.status).toBe(400);
    expect(errorKeys(empty).sort()).toEqual([
      'validation_error/required/description',
      'validation_error/required/is_shared',
      'validation_error/required/priority',
    ]);
    const wrong = await alice.post(BASE, {
      description: '   ',
      priority: 'high',
      is_shared: 'maybe',
      owners: 'bob',
    });
    expect(errorKeys(wrong).sort()).toEqual([
      'validation_error/blank/description',
      'validation_error/invalid/is_shared',
      'validation_error/invalid/priority',
      'validation_error/not_a_list/owners',
    ]);
    const owners = await alice.post(BASE, {
      description: 'x1',
      priority: 1,
      is_shared: true,
      owners: [999],
    });
    expect(errorKeys(owners)).toEqual(['validation_error/does_not_exist/owners']);
    const foreignOwner = world.users.find((u) => u.tenant_id !== t.sim.tenant_id)!;
    const foreign = await alice.post(BASE, {
      description: 'x2',
      priority: 1,
      is_shared: true,
      owners: [foreignOwner.id],
    });
    expect(errorKeys(foreign)).toEqual(['validation_error/does_not_exist/owners']);
    const long = await alice.post(BASE, {
      description: 'd'.repeat(256),
      priority: 1,
      is_shared: true,
    });
    expect(errorKeys(long)).toEqual(['validation_error/max_length/description']);
    const nulls = await alice.post(BASE, { description: null, priority: null, is_shared: null });
    expect(errorKeys(nulls).sort()).toEqual([
      'validation_error/null/description',
      'validation_error/null/is_shared',
      'validation_error/null/priority',
    ]);
  });

  it('a duplicate description in the tenant → validation_error/invalid/description.unique_description', async () => {
    for (const description of ['Customers', 'customers']) {
      const response = await bob.post(BASE, { description, priority: 1, is_shared: true });
      expect(response.status).toBe(400);
      expect(errorKeys(response)).toEqual([
        'validation_error/invalid/description.unique_description',
      ]);
      expect((response.json as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(
        /already exists/,
      );
    }
    // The other tenant's "Company directory" does not count.
    const created = await alice.post(BASE, {
      description: 'Unique per tenant',
      priority: 1,
      is_shared: true,
    });
    expect(created.status).toBe(201);
  });

  it('updates with PUT (full body): 200 with owner IDs; keeping its own description is fine', async () => {
    const created = (
      await bob.post(BASE, { description: 'To update', priority: 1, is_shared: false })
    ).json as { id: number };
    const response = await bob.put(`${BASE}${created.id}/`, {
      description: 'To update',
      priority: 99,
      is_shared: true,
      owners: [2, 1],
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      id: created.id,
      priority: 99,
      description: 'To update',
      is_shared: true,
      owners: [2, 1],
    });
    const duplicate = await bob.put(`${BASE}${created.id}/`, {
      description: 'Customers',
      priority: 1,
      is_shared: true,
    });
    expect(errorKeys(duplicate)).toEqual([
      'validation_error/invalid/description.unique_description',
    ]);
    const partial = await bob.put(`${BASE}${created.id}/`, { priority: 5 });
    expect(errorKeys(partial).sort()).toEqual([
      'validation_error/required/description',
      'validation_error/required/is_shared',
    ]);
    const invisible = await bob.put(`${BASE}${id('Suppliers')}/`, {
      description: 'Suppliers',
      priority: 1,
      is_shared: true,
    });
    expect(invisible.status).toBe(404);
    const after = (await bob.get(`${BASE}${created.id}/`)).json as PhonebookRead;
    expect(Date.parse(after.modified)).toBeGreaterThanOrEqual(Date.parse(after.created));
  });

  it('deletes: 204 with an empty body, then 404', async () => {
    const created = (
      await bob.post(BASE, { description: 'To delete', priority: 1, is_shared: false })
    ).json as { id: number };
    const response = await bob.delete(`${BASE}${created.id}/`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await bob.get(`${BASE}${created.id}/`)).status).toBe(404);
    expect((await bob.delete(`${BASE}${id('Suppliers')}/`)).status).toBe(404);
  });

  it('a phonebook assigned to devices → 400 client_error/phonebook_in_use/null listing the devices', async () => {
    const response = await alice.delete(`${BASE}${id('Reception speed dials')}/`);
    expect(response.status).toBe(400);
    expect(errorKeys(response)).toEqual(['client_error/phonebook_in_use/null']);
    const detail = (response.json as { errors: { detail: string }[] }).errors[0]!.detail;
    for (const device of world.devices.filter((d) =>
      d.phonebook_ids.includes(id('Reception speed dials')),
    )) {
      expect(detail).toContain(device.name);
    }
    expect((await alice.get(`${BASE}${id('Reception speed dials')}/`)).status).toBe(200);
  });

  it('a phonebook whose contacts are used in a queue or flow → 400 contacts_in_use', async () => {
    const response = await alice.delete(`${BASE}${id('Customers')}/`);
    expect(response.status).toBe(400);
    expect(errorKeys(response).every((key) => key === 'client_error/contacts_in_use/null')).toBe(
      true,
    );
    expect((await alice.get(`${BASE}${id('Customers')}/`)).status).toBe(200);
  });

  it('paths end with a slash: without it → 404; other methods → 405 with Allow', async () => {
    expect((await alice.get('/v3/phonebook/phonebook')).status).toBe(404);
    expect(
      (
        await alice.post('/v3/phonebook/phonebook', {
          description: 'x',
          priority: 1,
          is_shared: true,
        })
      ).status,
    ).toBe(404);
    expect((await alice.get(`/v3/phonebook/phonebook/${id('Customers')}`)).status).toBe(404);
    const patch = await alice.request('PATCH', `${BASE}${id('Customers')}/`, {
      body: { priority: 1 },
    });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toContain('PUT');
    expect(patch.json).toEqual({
      type: 'client_error',
      errors: [{ code: 'method_not_allowed', detail: 'Method "PATCH" not allowed.', attr: null }],
    });
    expect((await alice.delete(BASE)).status).toBe(405);
  });
});

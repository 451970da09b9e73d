/**
 * Phonebooks, contacts and settings through the core's IPC channels, as the window uses them,
 * against the simulator over HTTP: the platform's refusals come back as sentences with the field
 * they concern, and every contact change is in the search index at once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { WorldSummary } from '../../../../simulator/control-types';
import type { ContactView, PhonebookView, SettingsView } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { startTestCore } from '../../../support/test-core';
import {
  control,
  describeEachProfile,
  issuedSession,
  startSim,
} from '../../../support/sim-harness';

type Invoke = CallbarCore['router']['invoke'];

function value<T>(result: Awaited<ReturnType<Invoke>>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

async function readyCore(sim: RunningSimulator): Promise<CallbarCore> {
  const vault = new MemoryVault();
  await vault.save(await issuedSession(sim, sim.users[0]!));
  const core = await startTestCore({ env: { CALLBAR_BASE_URL: sim.base_url }, vault });
  await new Promise<void>((resolve) => {
    const check = () => {
      if (core.directory.status().state === 'ready') resolve();
    };
    core.events.subscribe(check);
    check();
  });
  return core;
}

describeEachProfile('phonebook and contact channels', (profile) => {
  let sim: RunningSimulator;
  let core: CallbarCore;
  let invoke: Invoke;
  beforeAll(async () => {
    sim = await startSim({ contacts: 60, profile });
    core = await readyCore(sim);
    invoke = (channel, payload) => core.router.invoke(channel, payload);
  }, 60_000);
  afterAll(async () => {
    await core?.close();
    await sim?.close();
  });

  it('lists phonebooks in the order asked for, a page at a time', async () => {
    const byName = value<{ count: number; results: PhonebookView[]; has_more: boolean }>(
      await invoke('phonebooks.list', { ordering: 'description' }),
    );
    expect(byName.count).toBeGreaterThan(1);
    expect(byName.has_more).toBe(false);
    const names = byName.results.map((book) => book.description);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const past = await invoke('phonebooks.list', { page: 99 });
    expect(past).toMatchObject({ ok: false });
    if (!past.ok) expect(past.error.message).not.toMatch(/Invalid page/);
  });

  it('creates, edits and deletes a phonebook; a duplicate name is refused on its field', async () => {
    const created = value<PhonebookView>(
      await invoke('phonebooks.create', {
        description: 'Suppliers 2027',
        priority: '5',
        is_shared: false,
      }),
    );
    expect(created).toMatchObject({ description: 'Suppliers 2027', priority: 5 });

    const duplicate = await invoke('phonebooks.create', {
      description: 'Suppliers 2027',
      priority: 1,
      is_shared: true,
    });
    expect(duplicate).toMatchObject({ ok: false, error: { field: 'description' } });
    if (!duplicate.ok) expect(duplicate.error.fields?.description).toBeTruthy();

    const badPriority = await invoke('phonebooks.update', {
      id: created.id,
      description: 'x',
      priority: 'high',
      is_shared: true,
    });
    expect(badPriority).toMatchObject({
      ok: false,
      error: { field: 'priority', message: 'The priority is a whole number.' },
    });

    const edited = value<PhonebookView>(
      await invoke('phonebooks.update', {
        id: created.id,
        description: 'Suppliers 2028',
        priority: 7,
        is_shared: true,
      }),
    );
    expect(edited).toEqual({
      id: created.id,
      description: 'Suppliers 2028',
      priority: 7,
      is_shared: true,
    });
    expect(value(await invoke('phonebooks.delete', { id: created.id }))).toEqual({});
    const gone = await invoke('phonebooks.delete', { id: created.id });
    expect(gone).toMatchObject({ ok: false });
    if (!gone.ok) expect(gone.error.message).not.toMatch(/matches the given query|Invalid pk/);
  });

  it('explains which devices hold a phonebook that cannot be deleted', async () => {
    const world = await control<WorldSummary>(sim, 'GET', 'world');
    const held = world.phonebooks.find((book) => book.device_ids.length > 0)!;
    const device = world.devices.find((entry) => entry.id === held.device_ids[0])!;
    const refused = await invoke('phonebooks.delete', { id: held.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'phonebook_in_use' } });
    if (!refused.ok) {
      expect(refused.error.message).toContain(device.name);
      expect(refused.error.message).toContain('portal');
    }
  });

  it('creates, edits and deletes a contact, each change in the search index at once', async () => {
    const book = value<{ results: PhonebookView[] }>(await invoke('phonebooks.list', {}))
      .results[0]!;
    const fields = {
      phonebook: book.id,
      display_name: 'Zebedee Quattrocchi',
      number: '+44 20 7946 0321',
      secondary_number: '',
      speed_dial: '7341',
      company: 'Quattro Ltd',
    };
    const created = value<ContactView>(await invoke('contacts.create', fields));
    expect(created).toMatchObject({ display_name: 'Zebedee Quattrocchi', speed_dial: 7341 });
    expect(created.secondary_number).toBeNull();
    const found = core.directory.search('Quattrocchi', 5).hits.map((hit) => hit.contact.id);
    expect(found).toContain(created.id);

    // Same number again in this phonebook, and a speed dial already taken: both on their fields.
    const again = await invoke('contacts.create', { ...fields, display_name: 'Copy' });
    expect(again).toMatchObject({ ok: false });
    if (!again.ok) {
      expect(Object.keys(again.error.fields ?? {})).toEqual(
        expect.arrayContaining(['number', 'speed_dial']),
      );
    }
    // The same said as DRF's unique-together rule does (non_field_errors): still on the number.
    await control(sim, 'PATCH', 'config', { uniqueNumberError: 'non_field_errors' });
    try {
      const drf = await invoke('contacts.create', {
        ...fields,
        display_name: 'Copy',
        speed_dial: '7342',
      });
      expect(drf).toEqual({
        ok: false,
        error: {
          code: 'unique',
          message: 'Another contact in this phonebook already has this number.',
          field: 'number',
          fields: { number: 'Another contact in this phonebook already has this number.' },
        },
      });
    } finally {
      await control(sim, 'PATCH', 'config', { uniqueNumberError: 'field' });
    }
    const outOfRange = await invoke('contacts.create', { ...fields, speed_dial: 9191 });
    expect(outOfRange).toMatchObject({ ok: false, error: { field: 'speed_dial' } });
    if (!outOfRange.ok) expect(outOfRange.error.message).toMatch(/200–999 or 2000–9999/);
    const typed = await invoke('contacts.create', { ...fields, speed_dial: 'twelve' });
    expect(typed).toMatchObject({ ok: false, error: { field: 'speed_dial' } });
    // Every field's problem at once, not the number's only after the speed dial is fixed.
    const all = await invoke('contacts.create', {
      ...fields,
      display_name: ' ',
      number: '',
      speed_dial: 'twelve',
    });
    expect(all.ok).toBe(false);
    if (!all.ok) {
      expect(Object.keys(all.error.fields ?? {}).sort()).toEqual([
        'display_name',
        'number',
        'speed_dial',
      ]);
    }

    const edited = value<ContactView>(
      await invoke('contacts.update', {
        ...fields,
        id: created.id,
        display_name: 'Zoltan Quattro',
      }),
    );
    expect(edited.display_name).toBe('Zoltan Quattro');
    expect(core.directory.search('Zoltan', 5).hits[0]?.contact.id).toBe(created.id);

    const listed = value<{ results: ContactView[] }>(
      await invoke('contacts.list', { phonebook: book.id, search: 'Zoltan' }),
    );
    expect(listed.results.map((contact) => contact.id)).toEqual([created.id]);

    expect(value(await invoke('contacts.delete', { id: created.id }))).toEqual({});
    expect(core.directory.search('Zoltan', 5).hits).toEqual([]);
    const missing = await invoke('contacts.delete', { id: created.id });
    expect(missing).toMatchObject({ ok: false });
    if (!missing.ok) expect(missing.error.message).not.toMatch(/PhonebookContact/);
  });

  it('dials phone links without asking as soon as the setting is saved', async () => {
    // In the user's own country (region US): a link abroad would ask whatever the setting.
    const link = { url: 'tel:+1-202-555-0177' };
    const asked = value<{ status: string; pending?: { id: string } }>(
      await invoke('calls.openUrl', link),
    );
    expect(asked.status).toBe('needs-confirmation');
    await invoke('calls.confirm', { id: asked.pending!.id, accept: false });
    const saved = value<SettingsView>(await invoke('settings.save', { confirm_web_links: false }));
    expect(saved.restart_needed).not.toContain('confirm_web_links');
    const dialed = value<{ status: string }>(await invoke('calls.openUrl', link));
    expect(dialed.status).toBe('dialing');
    await invoke('calls.hangup', {});
  });

  it('bulk delete is all or nothing: an in-use contact names its queue and nothing goes', async () => {
    const world = await control<WorldSummary>(sim, 'GET', 'world');
    const queue = world.call_queues.find((entry) => entry.contact_ids.length > 0)!;
    const inUse = queue.contact_ids[0]!;
    const contact = core.directory.search('', 1).hits[0];
    const all = value<{ results: ContactView[] }>(
      await invoke('contacts.list', { phonebook: contact?.contact.phonebook ?? 1 }),
    ).results;
    const free = all.find((entry) => !queue.contact_ids.includes(entry.id))!;
    const refused = await invoke('contacts.bulkDelete', { ids: [free.id, inUse] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'contacts_in_use' } });
    if (!refused.ok) {
      expect(refused.error.message).toMatch(/^Nothing was deleted\./);
      expect(refused.error.message).toContain(queue.name);
    }
    expect(
      value(await invoke('contacts.list', { phonebook: free.phonebook, search: free.number })),
    ).toMatchObject({ count: 1 });

    const forbidden = await invoke('contacts.bulkDelete', { ids: [free.id, 987_654] });
    expect(forbidden).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message: 'You may not delete some of these contacts; nothing was deleted.',
      },
    });

    const deleted = value<{ deleted: number }>(
      await invoke('contacts.bulkDelete', { ids: [free.id, free.id] }),
    );
    expect(deleted).toEqual({ deleted: 1 });
    expect(
      core.directory.search(free.display_name, 50).hits.map((hit) => hit.contact.id),
    ).not.toContain(free.id);
  });
});

describe('settings channels', () => {
  it('saves the window’s settings atomically and refuses an invalid value with its field', async () => {
    const core = await startTestCore();
    try {
      const before = value<SettingsView>(await core.router.invoke('settings.get', {}));
      expect(before.settings).toMatchObject({ region: 'US', handle_links: 'ask' });
      // Nobody chose the region yet: the system's (LANG=C here: none, so US), to be confirmed.
      expect(before).toMatchObject({ region: 'US', region_confirmed: false });
      // The test core's receiver port comes from CALLBAR_RECEIVER_PORT.
      expect(before.overridden).toEqual(['receiver_port']);

      const saved = value<SettingsView>(
        await core.router.invoke('settings.save', {
          region: 'gb',
          sync_interval_minutes: 30,
          confirm_web_links: false,
          receiver_port: 40123,
          relay_url: 'https://relay.example.com',
        }),
      );
      expect(saved.settings).toMatchObject({
        region: 'GB',
        sync_interval_minutes: 30,
        receiver_port: 40123,
        relay_url: 'https://relay.example.com',
      });
      expect(saved.receiver_urls.activation).toBe('http://127.0.0.1:40123/activate');
      expect(saved.restart_needed).toEqual(
        expect.arrayContaining(['sync_interval_minutes', 'relay_url']),
      );
      // Followed at once: never waits for a restart (the region is read and shown in at once).
      expect(saved.restart_needed).not.toContain('confirm_web_links');
      expect(saved.restart_needed).not.toContain('region');
      expect(saved).toMatchObject({ region: 'GB', region_confirmed: true });
      const file = join(core.profile.dataDir, 'settings.json');
      const written = readFileSync(file, 'utf8');

      for (const [patch, field] of [
        [{ receiver_port: 80 }, 'receiver_port'],
        [{ region: 'XX' }, 'region'],
        [{ dial_shortcut: 'Ctrl+Ctrl' }, 'dial_shortcut'],
        [{ handle_links: 'always' }, 'handle_links'],
        [{ sync_interval_minutes: 0 }, 'sync_interval_minutes'],
        // The relay hands tokens over and carries the device credential: never plain http.
        [{ relay_url: 'http://relay.example.com' }, 'relay_url'],
      ] as const) {
        const refused = await core.router.invoke('settings.save', { region: 'DE', ...patch });
        expect(refused).toMatchObject({ ok: false, error: { code: 'settings_invalid', field } });
        if (!refused.ok) expect(refused.error.message).toContain(`"${field}"`);
        expect(readFileSync(file, 'utf8')).toBe(written);
      }
      expect(value<SettingsView>(await core.router.invoke('settings.get', {})).settings).toEqual(
        saved.settings,
      );
    } finally {
      await core.close();
    }
  });

  it('names every invalid value under its own field in plain words, and keeps the dialling policy', async () => {
    const core = await startTestCore();
    try {
      const refused = await core.router.invoke('settings.save', {
        region: 'DE',
        dial_shortcut: 'Ctrl+Banana',
        sync_interval_minutes: 0,
        receiver_port: 80,
      });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      const fields = refused.error.fields ?? {};
      expect(Object.keys(fields).sort()).toEqual([
        'dial_shortcut',
        'receiver_port',
        'sync_interval_minutes',
      ]);
      expect(fields.sync_interval_minutes).toBe(
        'Must be a whole number of minutes from 1 to 1440 (not 0).',
      );
      expect(fields.receiver_port).toBe('Must be a whole number from 1024 to 65535 (not 80).');
      for (const sentence of Object.values(fields)) expect(sentence).not.toMatch(/_[a-z]/);

      const policy = value<SettingsView>(
        await core.router.invoke('settings.save', {
          dial_allowed_classes: ['extension', 'national', 'emergency'],
          dial_allowed_countries: ['de', 'AT'],
        }),
      );
      expect(policy.settings).toMatchObject({
        dial_allowed_classes: ['extension', 'national', 'emergency'],
        dial_allowed_countries: ['DE', 'AT'],
      });
      // Followed at once (the next number dialled obeys it), so no restart is asked for.
      expect(policy.restart_needed).not.toContain('dial_allowed_classes');
      expect(policy.restart_needed).not.toContain('dial_allowed_countries');
      expect(core.profile.settings.dial_allowed_countries).toEqual(['DE', 'AT']);
      const back = value<SettingsView>(
        await core.router.invoke('settings.save', {
          dial_allowed_classes: [...core.profile.settings.dial_allowed_classes],
          dial_allowed_countries: [],
        }),
      );
      expect(back.restart_needed).not.toContain('dial_allowed_classes');
      expect(back.restart_needed).not.toContain('dial_allowed_countries');
    } finally {
      await core.close();
    }
  });
});

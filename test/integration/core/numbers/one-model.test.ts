/**
 * One model of a phone number through the core's channels, as the window calls them (issue 41,
 * points 2 and 6), under each simulator profile: the default region is the system's (a German
 * locale reads "0171 9999999" as a German mobile number, where US once made it undialable); the
 * country set in Settings, or saved by another process of the profile, applies at once to the
 * search's dial row, the contact editor and an import, without a restart; the editor and an
 * import store the same text as the same E.164 and refuse it with the same reason.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type {
  ContactView,
  ImportPreview,
  ImportsChangedEvent,
  SearchAnswer,
  SettingsView,
} from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { saveSettings } from '../../../../src-main/core/config/settings-store';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { apiFor } from '../../../support/api-rig';
import { describeEachProfile, issuedSession, startSim } from '../../../support/sim-harness';
import { startTestCore } from '../../../support/test-core';
import { contactsOf, phonebookWith } from '../../../support/transfer-rig';

type Invoke = CallbarCore['router']['invoke'];

function value<T>(result: Awaited<ReturnType<Invoke>>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describeEachProfile('one model of a phone number', (profile) => {
  let sim: RunningSimulator;
  let core: CallbarCore;
  let invoke: Invoke;
  let book: number;
  let api: Awaited<ReturnType<typeof apiFor>>['api'];

  beforeAll(async () => {
    sim = await startSim({ contacts: 20, profile });
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    // A computer whose locale says Germany (LC_TELEPHONE: the category numbers belong to).
    core = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url, LC_TELEPHONE: 'de_DE.UTF-8' },
      vault,
    });
    invoke = (channel, payload) => core.router.invoke(channel, payload);
    ({ api } = await apiFor(sim));
    book = await phonebookWith(api);
  }, 60_000);
  afterAll(async () => {
    await core?.close();
    await sim?.close();
  });

  const dialRow = async (query: string) =>
    value<SearchAnswer>(await invoke('directory.search', { query })).dial;

  /** Uploads and previews `text` as a CSV for the test's phonebook. */
  async function preview(text: string): Promise<ImportPreview & { import_id: string }> {
    const { import_id } = value<{ import_id: string }>(
      await invoke('imports.upload', { file_name: 'numbers.csv', text }),
    );
    const previewed = value<ImportPreview>(
      await invoke('imports.preview', { import_id, phonebook: book }),
    );
    return { ...previewed, import_id };
  }

  it('reads numbers in the system region by default, and asks the person to confirm it', async () => {
    const view = value<SettingsView>(await invoke('settings.get', {}));
    expect(view).toMatchObject({ region: 'DE', region_confirmed: false });
    expect(view.settings.region).toBe('DE');
    expect(await dialRow('0171 9999999')).toMatchObject({
      destination: '+491719999999',
      display: '0171 9999999',
      class: 'national',
    });
  });

  it('the editor and an import store the same text as the same E.164, refused alike', async () => {
    // Settings → Your country: Germany → Save (confirmed, and applied at once).
    const saved = value<SettingsView>(await invoke('settings.save', { region: 'DE' }));
    expect(saved).toMatchObject({ region: 'DE', region_confirmed: true });
    expect(saved.restart_needed).not.toContain('region');

    const created = value<ContactView>(
      await invoke('contacts.create', {
        phonebook: book,
        display_name: 'Zoë Zimmer',
        number: '+41 44 123 45 67',
        secondary_number: '0171 2345678',
        speed_dial: 4101,
      }),
    );
    expect(created).toMatchObject({
      number: '+41441234567',
      secondary_number: '+491712345678',
      shown: { number: '+41 44 123 45 67', secondary_number: '0171 2345678' },
    });

    const csv =
      'Name,Number,Secondary\nHanna Berg,030 1234567,0171 7654321\nKai,0171 2345678 9012345,\n';
    const planned = await preview(csv);
    expect(planned.counts).toMatchObject({ created: 1, failed: 1 });
    const hanna = planned.rows.find((row) => row.cells.display_name === 'Hanna Berg')!;
    expect(hanna).toMatchObject({ outcome: 'created' });

    // The same refusal, in the editor and on the import's row.
    const refused = await invoke('contacts.create', {
      phonebook: book,
      display_name: 'Kai',
      number: '0171 2345678 9012345',
      speed_dial: 4102,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'number' } });
    const reason = 'a phone number has at most 15 digits';
    expect(!refused.ok && refused.error.fields?.number).toBe(
      `That is not a phone number: 0171 2345678 9012345 (${reason}).`,
    );
    const kai = planned.rows.find((row) => row.cells.display_name === 'Kai')!;
    expect(kai.reason).toContain(reason);

    const done = new Promise<ImportsChangedEvent>((resolve) => {
      const stop = core.events.subscribe((event) => {
        if (event.type === 'imports.changed' && event.result) {
          stop();
          resolve(event);
        }
      });
    });
    value(await invoke('imports.start', { import_id: planned.import_id }));
    expect((await done).result?.counts).toMatchObject({ created: 1, failed: 1 });
    const stored = (await contactsOf(api, book)).map((c) => [c.number, c.secondary_number]);
    expect(stored).toEqual(
      expect.arrayContaining([
        ['+41441234567', '+491712345678'],
        ['+49301234567', '+491717654321'],
      ]),
    );
  });

  it('follows a region another process of the profile saved, without a restart', async () => {
    expect((await dialRow('030 1234567'))?.destination).toBe('+49301234567');
    // The CLI (or a second window) saves the profile's settings.
    await saveSettings({ dataDir: core.profile.dataDir }, { region: 'GB' });
    expect(await dialRow('020 7123 4567')).toMatchObject({
      destination: '+442071234567',
      display: '020 7123 4567',
    });
    // A German number is now abroad, and shown the international way.
    expect(await dialRow('+49 171 9999999')).toMatchObject({
      display: '+49 171 9999999',
      class: 'international',
    });
    const listed = value<{ results: ContactView[] }>(
      await invoke('contacts.list', { phonebook: book, search: 'Zimmer' }),
    );
    expect(listed.results[0]!.shown.secondary_number).toBe('+49 171 2345678');
    expect(value<SettingsView>(await invoke('settings.get', {})).region).toBe('GB');
  });
});

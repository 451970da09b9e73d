/**
 * Importing from the window through the core's channels (as the preload and the web preview call
 * them), under both simulator profiles: the file's text in pieces, a preview that sends nothing,
 * the import's progress and result as events, a second import that changes nothing, and the
 * upload bound.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { ImportPreview, ImportsChangedEvent } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { fileNameOf } from '../../../../src-main/core/exports/window-exports';
import { apiFor } from '../../../support/api-rig';
import { startTestCore } from '../../../support/test-core';
import {
  describeEachProfile,
  issuedSession,
  requestLog,
  startSim,
} from '../../../support/sim-harness';
import { contactsOf, exported, phonebookWith } from '../../../support/transfer-rig';

type Invoke = CallbarCore['router']['invoke'];

function value<T>(result: Awaited<ReturnType<Invoke>>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describeEachProfile('window imports', (profile) => {
  let sim: RunningSimulator;
  let core: CallbarCore;
  let invoke: Invoke;
  beforeAll(async () => {
    sim = await startSim({ contacts: 20, profile });
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    core = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url, CALLBAR_REGION: 'US' },
      vault,
    });
    invoke = (channel, payload) => core.router.invoke(channel, payload);
  }, 60_000);
  afterAll(async () => {
    await core?.close();
    await sim?.close();
  });

  /** Uploads `text` in pieces of `size` characters; the import's id. */
  async function upload(text: string, size: number): Promise<string> {
    let id: string | undefined;
    for (let at = 0; at < text.length; at += size) {
      ({ import_id: id } = value<{ import_id: string }>(
        await invoke('imports.upload', {
          ...(id ? { import_id: id } : {}),
          file_name: 'team.csv',
          text: text.slice(at, at + size),
        }),
      ));
    }
    return id!;
  }

  /** The import's events until its result. */
  function resultOf(id: string): Promise<ImportsChangedEvent[]> {
    const seen: ImportsChangedEvent[] = [];
    return new Promise((resolve) => {
      const stop = core.events.subscribe((event) => {
        if (event.type !== 'imports.changed' || event.import_id !== id) return;
        seen.push(event);
        if (event.result) {
          stop();
          resolve(seen);
        }
      });
    });
  }

  it('previews without sending, imports with progress, and a second import changes nothing', async () => {
    const { api } = await apiFor(sim);
    const book = await phonebookWith(api);
    const text =
      'Name,Mobile,Company\nAlan Turing,(202) 555-0411,Bletchley\nBad,no number,\nKatherine Johnson,202 555 0412,NASA\n';
    const id = await upload(text, 16);
    const before = (await requestLog(sim)).length;
    const preview = value<ImportPreview>(
      await invoke('imports.preview', { import_id: id, phonebook: book }),
    );
    expect(preview).toMatchObject({
      format: 'csv',
      headers: ['Name', 'Mobile', 'Company'],
      mapping: { display_name: 0, number: 1, company: 2 },
      counts: { created: 2, failed: 1 },
    });
    expect(preview.rows[1]).toMatchObject({ outcome: 'failed', cells: { display_name: 'Bad' } });
    const sent = (await requestLog(sim)).slice(before).filter((e) => e.method !== 'GET');
    expect(sent).toEqual([]);

    const events = resultOf(id);
    value(await invoke('imports.start', { import_id: id }));
    const seen = await events;
    expect(seen.some((event) => event.progress?.done === 3)).toBe(true);
    expect(seen.at(-1)!.result).toMatchObject({
      counts: { created: 2, failed: 1 },
      cancelled: false,
    });
    expect(seen.at(-1)!.result!.failures_csv).toContain('2,Bad,no number');
    expect((await contactsOf(api, book)).map((c) => c.number).sort()).toEqual([
      '+12025550411',
      '+12025550412',
    ]);

    const again = await upload(text, 1000);
    const second = value<ImportPreview>(
      await invoke('imports.preview', { import_id: again, phonebook: book }),
    );
    expect(second.counts).toMatchObject({ created: 0, skipped: 2, failed: 1 });
    // The import is over: its id is no longer open.
    expect(await invoke('imports.start', { import_id: id })).toMatchObject({
      ok: false,
      error: { code: 'import_unknown' },
    });
  });

  it('previews and imports a second phone column as the secondary number', async () => {
    const { api } = await apiFor(sim);
    const book = await phonebookWith(api);
    const text = [
      'Vorname;Nachname;Telefon geschäftlich;Telefon (privat);Mobiltelefon',
      'Jürgen;Müller;(202) 555-0421;202 555 0423;202 555 0422',
      'Anna;Mobil;;;202 555 0424',
    ].join('\r\n');
    const id = await upload(text, 1000);
    const preview = value<ImportPreview>(
      await invoke('imports.preview', { import_id: id, phonebook: book }),
    );
    expect(preview.mapping).toEqual({ display_name: 5, number: 2, secondary_number: 4 });
    expect(preview.rows).toMatchObject([
      {
        outcome: 'created',
        cells: { number: '(202) 555-0421', secondary_number: '202 555 0422' },
      },
      { outcome: 'created', cells: { number: '202 555 0424', secondary_number: '' } },
    ]);
    expect(preview.rows[0]!.reason).toMatch(
      /"202 555 0423" of column "Telefon \(privat\)" is not imported/,
    );
    const events = resultOf(id);
    value(await invoke('imports.start', { import_id: id }));
    expect((await events).at(-1)!.result).toMatchObject({ counts: { created: 2, failed: 0 } });
    const contacts = await contactsOf(api, book);
    expect(contacts.map((c) => [c.display_name, c.number, c.secondary_number]).sort()).toEqual([
      ['Anna Mobil', '+12025550424', null],
      ['Jürgen Müller', '+12025550421', '+12025550422'],
    ]);
    // The person's choice: the private phone as the secondary number.
    const again = await upload(text, 1000);
    const remapped = value<ImportPreview>(
      await invoke('imports.preview', {
        import_id: again,
        phonebook: book,
        on_duplicate: 'update',
        mapping: { secondary_number: 3 },
      }),
    );
    expect(remapped.counts).toMatchObject({ created: 0, updated: 1, skipped: 1 });
    expect(remapped.rows[0]!.reason).toMatch(
      /"202 555 0422" of column "Mobiltelefon" is not imported/,
    );
  });

  it('exports a phonebook for the window in pieces, the same as the streamed export', async () => {
    const { api } = await apiFor(sim);
    const book = await phonebookWith(api, [
      {
        display_name: 'Export Me',
        number: '+12025550421',
        secondary_number: null,
        speed_dial: 7421,
      },
    ]);
    for (const format of ['csv', 'vcard'] as const) {
      const started = value<{ export_id: string; file_name: string }>(
        await invoke('exports.start', { what: 'contacts', phonebook: book, format }),
      );
      // Named for the phonebook, not its id.
      const { description } = await api.phonebooks.getPhonebook(book);
      expect(started.file_name).toBe(
        `${fileNameOf(description, 'x')}.${format === 'csv' ? 'csv' : 'vcf'}`,
      );
      expect(started.file_name).not.toMatch(/^phonebook-\d/);
      let text = '';
      let piece: { text: string; done: boolean; items: number };
      do {
        piece = value(await invoke('exports.read', { export_id: started.export_id }));
        text += piece.text;
      } while (!piece.done);
      expect(piece.items).toBe(1);
      // A CSV saved from the window begins with UTF-8's mark, for Excel (contact-export.ts).
      expect(text).toBe(`${format === 'csv' ? '\uFEFF' : ''}${await exported(api, book, format)}`);
      // Done: closed.
      expect(await invoke('exports.read', { export_id: started.export_id })).toMatchObject({
        ok: false,
        error: { code: 'export_unknown' },
      });
    }
  });

  it("reads the file's bytes: Windows-1252 from Outlook, and its own export back, saying which", async () => {
    const { api } = await apiFor(sim);
    const book = await phonebookWith(api, [
      {
        display_name: 'Zoë Müller-Straße',
        number: '+12025550431',
        secondary_number: null,
        speed_dial: 7431,
        company: 'Bäckerei €',
      },
    ]);
    /** Uploads `bytes` as the window does (base64 pieces); the preview. */
    const previewOf = async (name: string, bytes: Buffer, piece: number) => {
      let id: string | undefined;
      for (let at = 0; at < bytes.length; at += piece) {
        ({ import_id: id } = value<{ import_id: string }>(
          await invoke('imports.upload', {
            ...(id ? { import_id: id } : {}),
            file_name: name,
            base64: bytes.subarray(at, at + piece).toString('base64'),
          }),
        ));
      }
      return value<ImportPreview>(
        await invoke('imports.preview', { import_id: id, phonebook: book }),
      );
    };
    // Outlook's CSV on a Western Windows: "ANSI", ü as 0xFC and € as 0x80.
    const ansi = Buffer.from('Name;Mobile\r\nJürgen Müller ?;202 555 0432\r\n', 'latin1');
    ansi[ansi.indexOf('?')] = 0x80;
    const outlook = await previewOf('kontakte.csv', ansi, 7);
    expect(outlook).toMatchObject({ format: 'csv', encoding: 'windows-1252' });
    expect(outlook.rows[0]!.cells).toMatchObject({ display_name: 'Jürgen Müller €' });

    // The window's own CSV export (with its mark) imports back, every field as it was.
    const started = value<{ export_id: string }>(
      await invoke('exports.start', { what: 'contacts', phonebook: book, format: 'csv' }),
    );
    let text = '';
    for (let piece = { text: '', done: false }; !piece.done; text += piece.text) {
      piece = value(await invoke('exports.read', { export_id: started.export_id }));
    }
    const back = await previewOf('book.csv', Buffer.from(text, 'utf8'), 5);
    expect(back).toMatchObject({
      encoding: 'utf-8',
      headers: ['Name', 'Number', 'Secondary number', 'Speed dial', 'Company'],
      counts: { skipped: 1 },
    });
    expect(back.rows[0]!.cells).toEqual({
      display_name: 'Zoë Müller-Straße',
      number: '+12025550431',
      secondary_number: '',
      speed_dial: '7431',
      company: 'Bäckerei €',
    });
  });

  it('refuses an upload past the size bound, and a start before a preview', async () => {
    const id = await upload('Name,Number\n', 100);
    expect(await invoke('imports.start', { import_id: id })).toMatchObject({
      ok: false,
      error: { code: 'import_not_previewed' },
    });
    const piece = 'x'.repeat(128 * 1024);
    let refused;
    for (let i = 0; i < 100 && !refused; i++) {
      const answer = await invoke('imports.upload', {
        import_id: id,
        file_name: 'a.csv',
        text: piece,
      });
      if (!answer.ok) refused = answer.error;
    }
    expect(refused).toMatchObject({ code: 'import_too_large' });
  });
});

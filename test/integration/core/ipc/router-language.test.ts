/**
 * The window is answered in its language: an error core says by key reaches the renderer worded
 * in the `language` setting's language as it is now (German, then English once it is switched),
 * with the same stable code. A real core on a throwaway profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialOutcome, ErrorInfo } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { startTestCore } from '../../../support/test-core';

describe('router errors in the window’s language', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore({ env: { CALLBAR_LANGUAGE: 'de' } });
  });
  afterAll(() => core.close());

  it('words a keyed error in German, then in English after the setting changes', async () => {
    const german = await core.router.invoke('calls.hangup', {});
    expect(german).toMatchObject({ ok: false, error: { code: 'no_current_call' } });
    expect(german.ok || german.error.message).toBe(
      'Es gibt keinen laufenden Anruf, der aufgelegt werden könnte.',
    );
    core.profile.settings.language = 'en';
    const english = await core.router.invoke('calls.hangup', {});
    expect(english.ok || english.error.message).toBe('There is no call in progress to hang up.');
  });

  it('words core’s sentences in an answer too, and again from either language: a link’s reason', async () => {
    core.profile.settings.language = 'de';
    const german = await core.router.invoke('calls.openUrl', { url: 'tel:911' });
    core.profile.settings.language = 'en';
    const english = await core.router.invoke('calls.openUrl', { url: 'tel:911' });
    if (!german.ok || !english.ok) throw new Error('the link was refused');
    const [de, en] = [german.value as DialOutcome, english.value as DialOutcome];
    if (de.status !== 'needs-confirmation' || en.status !== 'needs-confirmation') {
      throw new Error('an emergency link must ask');
    }
    expect(en.pending.target.description).toMatch(/emergency number in the United States/);
    expect(de.pending.target.description).not.toBe(en.pending.target.description);
    expect(de.pending.target.description).toMatch(/Notruf/);
    expect(de.pending.reason).not.toBe(en.pending.reason);
    // The rest of the answer is the same: the number, its class, the link.
    expect(de.pending.target.destination).toBe(en.pending.target.destination);
    expect(de.pending.target.class).toBe('emergency');
    // Shown in German when the person switches to English: core says it again from the German.
    const again = await core.router.invoke('app.sayAgain', {
      texts: [de.pending.reason!, de.pending.target.description],
    });
    expect(again).toEqual({ ok: true, value: [en.pending.reason, en.pending.target.description] });
  });

  /** The error the window gets for `channel`, asked in German and in English. */
  async function refusedInBoth(channel: string, request: unknown): Promise<[ErrorInfo, ErrorInfo]> {
    const ask = async (language: 'de' | 'en') => {
      core.profile.settings.language = language;
      const answer = await core.router.invoke(channel, request);
      if (answer.ok) throw new Error(`${channel} was not refused`);
      return answer.error;
    };
    return [await ask('de'), await ask('en')];
  }

  it('words a dial the policy refuses in German, with the same code', async () => {
    // A core whose dialling policy allows extensions only (read when calls start).
    const strict = await startTestCore({
      env: { CALLBAR_LANGUAGE: 'de', CALLBAR_DIAL_ALLOWED_CLASSES: 'extension' },
    });
    try {
      const ask = async (language: 'de' | 'en') => {
        strict.profile.settings.language = language;
        // A link, as a web page hands it over: refused before anything is dialled.
        const answer = await strict.router.invoke('calls.openUrl', { url: 'tel:+49301234567' });
        if (answer.ok) throw new Error('the policy let the number through');
        return answer.error;
      };
      const [de, en] = [await ask('de'), await ask('en')];
      expect(de.code).toBe('dial_not_allowed');
      expect(en.code).toBe('dial_not_allowed');
      expect(en.message).toMatch(/^Callbar is set not to dial numbers in other countries, /);
      expect(de.message).toMatch(
        /^Callbar ist so eingestellt, dass es keine Nummern in anderen Ländern wählt, daher hat es \+49 30 1234567 nicht gewählt\. Dies ist eine Rufnummer im Ausland \(Deutschland\)\. \(Einstellung dial_allowed_classes: extension\.\)$/,
      );
    } finally {
      await strict.close();
    }
  });

  it('says a shown error again in the language chosen since, from either language', async () => {
    core.profile.settings.language = 'de';
    const refused = await core.router.invoke('settings.save', { receiver_port: 80 });
    if (refused.ok) throw new Error('port 80 was saved');
    const { message, fields } = refused.error;
    expect(fields?.receiver_port).toBe('Muss eine ganze Zahl von 1024 bis 65535 sein (nicht 80).');
    // The person switches to English with the form still showing the German sentences.
    core.profile.settings.language = 'en';
    const english = await core.router.invoke('app.sayAgain', {
      texts: [message, fields!.receiver_port!, 'Words core never said.'],
    });
    expect(english).toEqual({
      ok: true,
      value: [
        'The settings were not saved: "receiver_port" is 80, but it must be a whole number from 1024 to 65535.',
        'Must be a whole number from 1024 to 65535 (not 80).',
        'Words core never said.',
      ],
    });
    // And back: the English sentence the window first got, worded in German again.
    core.profile.settings.language = 'de';
    const german = await core.router.invoke('app.sayAgain', {
      texts: [(english.ok && (english.value as string[])[1]) || ''],
    });
    expect(german).toEqual({ ok: true, value: [fields!.receiver_port] });
  });

  it('words a refused settings save in German, its field’s sentence too', async () => {
    const [de, en] = await refusedInBoth('settings.save', { receiver_port: 80 });
    expect(en).toMatchObject({
      code: 'settings_invalid',
      field: 'receiver_port',
      message:
        'The settings were not saved: "receiver_port" is 80, but it must be a whole number from 1024 to 65535.',
      fields: { receiver_port: 'Must be a whole number from 1024 to 65535 (not 80).' },
    });
    expect(de).toMatchObject({
      code: 'settings_invalid',
      field: 'receiver_port',
      message:
        'Die Einstellungen wurden nicht gespeichert: „receiver_port“ ist 80, muss aber eine ganze Zahl von 1024 bis 65535 sein.',
      fields: { receiver_port: 'Muss eine ganze Zahl von 1024 bis 65535 sein (nicht 80).' },
    });
  });

  it('words an import error in German', async () => {
    const preview = async (language: 'de' | 'en') => {
      core.profile.settings.language = language;
      const upload = await core.router.invoke('imports.upload', {
        file_name: 'contacts.csv',
        text: 'Name,Number\nAda,+4930123,extra\n',
      });
      if (!upload.ok) throw new Error('the upload was refused');
      const { import_id } = upload.value as { import_id: string };
      const answer = await core.router.invoke('imports.preview', { import_id, phonebook: 1 });
      if (answer.ok) throw new Error('a row with a cell too many was accepted');
      return answer.error;
    };
    const [de, en] = [await preview('de'), await preview('en')];
    expect(en).toMatchObject({
      code: 'import_unreadable',
      message: 'Row 2 of the CSV file has 3 cells, more than its 2 headings.',
    });
    expect(de).toMatchObject({
      code: 'import_unreadable',
      message: 'Zeile 2 der CSV-Datei hat 3 Zellen, mehr als ihre 2 Überschriften.',
    });
  });
});

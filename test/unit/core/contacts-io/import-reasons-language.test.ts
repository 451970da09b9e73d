/**
 * An import's row reasons are said by key: the preview and the result carry them in English
 * (logs, `--json`), and the window and the CLI word them again in German, a row's several
 * phrases joined into one capitalised sentence there too. A stored reason Callbar wrote in
 * another process (a finished call's "You hung up.") is worded again as well.
 */
import { describe, expect, it } from 'vitest';
import { guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import { dryRun } from '../../../../src-main/core/contacts-io/contact-import';
import { parseImport } from '../../../../src-main/core/contacts-io/import-file';
import { planImport } from '../../../../src-main/core/contacts-io/import-plan';
import { sayAgain, translatorFor } from '../../../../src-main/core/text/translators';

const CSV = [
  'Name,Number,Other phone,Speed dial',
  ',+43 1 234 567,,',
  'Letters,+43 1 ABC,,',
  'Two notes,+43 1 234 569 x14,+43 1 234 570 extension 7,',
  'Odd code,+43 1 234 571,,12',
].join('\r\n');

describe('import reasons in the reader’s language', () => {
  const reasons = () => {
    const table = parseImport(new TextEncoder().encode(CSV), '.csv');
    const plan = planImport(table, guessMapping(table.headers), {
      phonebook: 1,
      existing: [],
      region: 'AT',
      onDuplicate: 'skip',
    });
    return dryRun(plan).rows.map((row) => row.reason ?? '');
  };

  it('keeps English where it was, and words each row again in German', () => {
    const english = reasons();
    expect(english).toEqual([
      'It has no name.',
      'The number "+43 1 ABC" is not a phone number: it contains letters.',
      "The number's extension 14 is not kept (the platform stores numbers without extensions): +431234569 is imported; the secondary number's extension 7 is not kept (the platform stores numbers without extensions): +431234570 is imported.",
      'Speed dial "12" is not one the platform takes (it takes 200–999 and 2000–9999, except 9191).',
    ]);
    const de = translatorFor('de', 'errors');
    expect(english.map((reason) => sayAgain(de, reason))).toEqual([
      'Die Zeile hat keinen Namen.',
      'Das Feld „Nummer“ mit „+43 1 ABC“ ist keine Telefonnummer: sie enthält Buchstaben.',
      'Die Nebenstelle 14 im Feld „Nummer“ wird nicht übernommen (die Telefonanlage speichert Nummern ohne Nebenstelle): +431234569 wird importiert; die Nebenstelle 7 im Feld „Zweitnummer“ wird nicht übernommen (die Telefonanlage speichert Nummern ohne Nebenstelle): +431234570 wird importiert.',
      'Die Kurzwahl „12“ nimmt die Telefonanlage nicht an (sie nimmt 200–999 und 2000–9999, außer 9191).',
    ]);
  });

  it('words a fixed sentence another process stored, without having said it', () => {
    const de = translatorFor('de', 'errors');
    expect(sayAgain(de, 'You hung up.')).toBe('Sie haben aufgelegt.');
    expect(sayAgain(de, 'Nobody answered.')).toBe('Niemand hat sich gemeldet.');
    // Not a catalog sentence (the platform's own words): as it is.
    expect(sayAgain(de, 'Gone fishing.')).toBe('Gone fishing.');
  });
});

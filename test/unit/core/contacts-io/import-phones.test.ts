/**
 * A file with more than one phone column: the second becomes the secondary number (Outlook's
 * "Business Phone" and "Mobile Phone", German Outlook's "Telefon geschäftlich" and
 * "Mobiltelefon", Google's "Phone 1 - Value" and "Phone 2 - Value", a vCard's TELs); a row whose
 * number column is empty takes the next filled phone as its number; a number repeated in another
 * column adds nothing; a phone the contact has no room for is named as not imported, row by row.
 */
import { describe, expect, it } from 'vitest';
import {
  adjustMapping,
  guessMapping,
  type ColumnMapping,
} from '../../../../src-main/core/contacts-io/column-mapping';
import { dryRun } from '../../../../src-main/core/contacts-io/contact-import';
import { parseImport } from '../../../../src-main/core/contacts-io/import-file';
import { planImport } from '../../../../src-main/core/contacts-io/import-plan';

function table(text: string, extension = '.csv') {
  return parseImport(new TextEncoder().encode(text), extension);
}

/** Each row as [outcome, number, secondary number, reason] of a dry run into an empty phonebook. */
function planned(text: string, extension = '.csv', changes: Record<string, string> = {}) {
  const read = table(text, extension);
  const mapping: ColumnMapping = adjustMapping(read.headers, guessMapping(read.headers), changes);
  return dryRun(
    planImport(read, mapping, { phonebook: 1, existing: [], region: 'US', onDuplicate: 'skip' }),
  ).rows.map((row) => [
    row.outcome,
    row.record?.number,
    row.record?.secondary_number,
    row.cells.number,
    row.cells.secondary_number,
    row.reason,
  ]);
}

describe('a file with several phone columns', () => {
  it('guesses the second number column as the secondary number, before an other phone', () => {
    const outlook = ['First Name', 'Last Name', 'Home Phone', 'Mobile Phone', 'Business Phone'];
    expect(guessMapping(outlook)).toEqual({ number: 3, secondary_number: 4 });
    const german = ['Vorname', 'Telefon geschäftlich', 'Telefon (privat)', 'Mobiltelefon'];
    expect(guessMapping(german)).toMatchObject({ number: 1, secondary_number: 3 });
    const google = ['Name', 'Phone 1 - Value', 'Phone 2 - Value', 'Phone 3 - Value'];
    expect(guessMapping(google)).toMatchObject({ number: 1, secondary_number: 2 });
    // A heading that names the secondary number wins; an other phone is the last choice.
    expect(guessMapping(['Name', 'Phone', 'Mobile', 'Secondary number'])).toMatchObject({
      number: 1,
      secondary_number: 3,
    });
    expect(guessMapping(['Name', 'Phone', 'Home Phone'])).toMatchObject({
      number: 1,
      secondary_number: 2,
    });
  });

  it('imports both numbers, an empty number column from the next phone, and says what is left out', () => {
    const csv = [
      'First Name,Last Name,Home Phone,Mobile Phone,Business Phone',
      'Ada,Both,,(202) 555-0331,+1 202 555 0399',
      'Bob,Business Only,,,202 555 0332',
      'Cy,Home Only,202 555 0333,,',
      'Di,All Three,202 555 0334,202 555 0335,202 555 0336',
      'Ed,Same Twice,,202 555 0337,+12025550337',
      'Flo,None,,,',
    ].join('\r\n');
    expect(planned(csv)).toEqual([
      ['created', '+12025550331', '+12025550399', '(202) 555-0331', '+1 202 555 0399', undefined],
      ['created', '+12025550332', null, '202 555 0332', '', undefined],
      ['created', '+12025550333', null, '202 555 0333', '', undefined],
      [
        'created',
        '+12025550335',
        '+12025550336',
        '202 555 0335',
        '202 555 0336',
        'The phone "202 555 0334" of column "Home Phone" is not imported (a contact holds two numbers).',
      ],
      // The business number repeats the mobile one: no secondary number, nothing left out.
      ['created', '+12025550337', null, '202 555 0337', '', undefined],
      ['failed', undefined, undefined, '', '', 'It has no number.'],
    ]);
  });

  it('fills the secondary number from an other phone when the second repeats the number', () => {
    const csv = [
      'Name,Mobile Phone,Business Phone,Home Phone',
      'Gus,202 555 0341,(202) 555-0341,202 555 0342',
    ].join('\n');
    expect(planned(csv)).toEqual([
      ['created', '+12025550341', '+12025550342', '202 555 0341', '202 555 0342', undefined],
    ]);
  });

  it('keeps no secondary number when the person unmapped it, and names the phone left out', () => {
    const csv = ['Name,Phone,Mobile', 'Hal,202 555 0351,202 555 0352', 'Ida,,202 555 0353'].join(
      '\n',
    );
    expect(planned(csv, '.csv', { secondary_number: '' })).toEqual([
      [
        'created',
        '+12025550351',
        null,
        '202 555 0351',
        '',
        'The phone "202 555 0352" of column "Mobile" is not imported (a contact holds two numbers).',
      ],
      ['created', '+12025550353', null, '202 555 0353', '', undefined],
    ]);
  });

  it('fails a row whose phone that would be imported is not a number, naming it', () => {
    const csv = ['Name,Phone,Mobile', 'Jo,202 555 0361,call me'].join('\n');
    expect(planned(csv)[0]).toEqual([
      'failed',
      undefined,
      undefined,
      '202 555 0361',
      'call me',
      expect.stringMatching(/^The secondary number "call me" is not a phone number/),
    ]);
  });

  it('reads a vCard with three TELs: the third is named as not imported', () => {
    const vcard = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Kim Three',
      'TEL;TYPE=HOME:202 555 0373',
      'TEL;TYPE=WORK,PREF:202 555 0371',
      'TEL;TYPE=CELL:202 555 0372',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Lou Twice',
      'TEL;TYPE=WORK:202 555 0381',
      'TEL;TYPE=CELL:+1 202 555 0381',
      'TEL;TYPE=HOME:202 555 0382',
      'END:VCARD',
      '',
    ].join('\r\n');
    expect(table(vcard, '.vcf').headers).toEqual([
      'Name',
      'Number',
      'Secondary number',
      'Speed dial',
      'Company',
      'Phone 3',
    ]);
    expect(planned(vcard, '.vcf')).toEqual([
      [
        'created',
        '+12025550371',
        '+12025550373',
        '202 555 0371',
        '202 555 0373',
        'The phone "202 555 0372" of column "Phone 3" is not imported (a contact holds two numbers).',
      ],
      ['created', '+12025550381', '+12025550382', '202 555 0381', '202 555 0382', undefined],
    ]);
  });

  it('gives a card of many TELs at most a bounded number of columns', () => {
    const tels = Array.from({ length: 30 }, (_, i) => `TEL:202 555 ${String(1000 + i)}`);
    const vcard = ['BEGIN:VCARD', 'VERSION:4.0', 'FN:Many', ...tels, 'END:VCARD', ''].join('\r\n');
    const read = table(vcard, '.vcf');
    expect(read.headers).toHaveLength(5 + 8);
    expect(read.rows[0]!.at(-1)).toBe(
      tels
        .slice(9)
        .map((tel) => tel.slice(4))
        .join(', '),
    );
  });
});

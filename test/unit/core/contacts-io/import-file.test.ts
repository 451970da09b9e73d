/**
 * Reading files to import, which nothing vouches for: vCard 3.0 and 4.0 as address books write
 * them, CSV headings in any case and with synonyms, and every bound (size, rows, columns, bytes
 * that are not text, a path that is not a file). Encodings and vCard 2.1: import-encodings.test.ts. Plus the streamed atomic write exports use.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeChunksAtomic } from '../../../../src-main/core/files/atomic-write';
import { adjustMapping, guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import {
  IMPORT_LIMITS,
  parseImport,
  readImportFile,
} from '../../../../src-main/core/contacts-io/import-file';
import { readContactNumber } from '../../../../src-main/core/numbers/contact-number';
import { fileWith } from '../../../support/transfer-rig';

const text = (value: string) => new TextEncoder().encode(value);

describe('reading a file to import', () => {
  it('reads vCard 3.0 as address books write it: N, TYPE=pref, ORG units, tel: URIs', () => {
    const table = parseImport(
      text(
        [
          'BEGIN:VCARD',
          'VERSION:3.0',
          'N:Lovelace;Ada;;Countess;',
          'ORG:Analytical Engines;Research',
          'TEL;TYPE=HOME:+44 20 7946 0002',
          'TEL;TYPE=WORK,VOICE,PREF:+44 20 7946 0001',
          'END:VCARD',
          'BEGIN:VCARD',
          'VERSION:4.0',
          'FN:Bob\\, Jr.',
          'TEL;VALUE=uri;TYPE="voice,work":tel:+1-202-555-0143',
          'X-CALLBAR-SPEED-DIAL:2042',
          'END:VCARD',
          '',
        ].join('\r\n'),
      ),
      '.vcf',
    );
    expect(table.format).toBe('vcard');
    expect(table.rows).toEqual([
      [
        'Countess Ada Lovelace',
        '+44 20 7946 0001',
        '+44 20 7946 0002',
        '',
        'Analytical Engines, Research',
      ],
      ['Bob, Jr.', '+1-202-555-0143', '', '2042', ''],
    ]);
    expect(guessMapping(table.headers)).toEqual({
      display_name: 0,
      number: 1,
      secondary_number: 2,
      speed_dial: 3,
      company: 4,
    });
  });

  it('gives a tel: URI whose parameters or escapes change its number to the reader whole', () => {
    // RFC 6350's TEL as a URI (RFC 3966): before, "tel:" was cut off and the rest read as typed
    // text, so a number with its country in ;phone-context= or written with %20 was refused.
    const table = parseImport(
      text(
        [
          'BEGIN:VCARD',
          'VERSION:4.0',
          'FN:Kai',
          'TEL;VALUE=uri;PREF=1:tel:030-1234567;phone-context=+49',
          'TEL;VALUE=uri:tel:+49%20171%202345678',
          'END:VCARD',
          '',
        ].join('\r\n'),
      ),
      '.vcf',
    );
    const [, number, secondary] = table.rows[0]!;
    expect(readContactNumber(number!, 'US')).toEqual({ number: '+49301234567' });
    expect(readContactNumber(secondary!, 'US')).toEqual({ number: '+491712345678' });
  });

  it('recognises vCards without the extension, and a BOM before CSV headings', () => {
    expect(parseImport(text('BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n')).format).toBe(
      'vcard',
    );
    const csv = parseImport(text('\uFEFFName,Tel\nA,1\n'), '.txt');
    expect(csv).toMatchObject({ format: 'csv', headers: ['Name', 'Tel'] });
  });

  it('guesses columns from headings in any case, and takes changes by heading or number', () => {
    const headers = ['ID', 'full name', 'MOBILE', 'Organisation', 'Speed-Dial #', 'Other phone'];
    const guess = guessMapping(headers);
    expect(guess).toEqual({
      display_name: 1,
      number: 2,
      company: 3,
      speed_dial: 4,
      secondary_number: 5,
    });
    expect(adjustMapping(headers, guess, { number: 'other PHONE', secondary_number: '' })).toEqual({
      display_name: 1,
      number: 5,
      company: 3,
      speed_dial: 4,
    });
    expect(adjustMapping(headers, guess, { company: '1' })).toMatchObject({ company: 0 });
    expect(() => adjustMapping(headers, guess, { number: 'Fax' })).toThrow(
      /The file has no column "Fax"/,
    );
  });

  it('refuses what is too large, malformed or not text, saying so', async () => {
    const rows = `Name,Number\n${'A,1\n'.repeat(IMPORT_LIMITS.maxRows + 1)}`;
    expect(() => parseImport(text(rows), '.csv')).toThrow(/more than 20,000 contacts/);
    const wide = Array.from({ length: IMPORT_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`).join(',');
    expect(() => parseImport(text(`${wide}\n`), '.csv')).toThrow(/101 columns/);
    expect(() => parseImport(text('Name,Number\nA,1,extra\n'), '.csv')).toThrow(
      /Row 2 of the CSV file has 3 cells/,
    );
    expect(() => parseImport(text('Name,Number\n"A,1\n'), '.csv')).toThrow(/not well formed/);
    expect(() => parseImport(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00]), '.csv')).toThrow(
      /The file is not text/,
    );
    expect(() => parseImport(text('BEGIN:VCARD\r\nFN:A\r\n'), '.vcf')).toThrow(
      /vCard file is not well formed/,
    );
    expect(() => parseImport(text('  \n'), '.csv')).toThrow(/The file is empty/);

    const big = await fileWith('big.csv', new Uint8Array(IMPORT_LIMITS.maxBytes + 1));
    await expect(readImportFile(big)).rejects.toThrow(/at most 10 MB/);
    const folder = await mkdtemp(join(tmpdir(), 'callbar-import-dir-'));
    await expect(readImportFile(folder)).rejects.toThrow(/is not a file/);
    await expect(readImportFile(join(folder, 'missing.csv'))).rejects.toThrow(/There is no file/);
  });
});

describe('streamed atomic write', () => {
  it('replaces the file only once every piece is written; a failure leaves the old one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'callbar-chunks-'));
    const file = join(folder, 'export.csv');
    await writeFile(file, 'old');
    async function* failing() {
      yield 'new, ';
      await Promise.resolve();
      throw new Error('the platform went away');
    }
    await expect(
      writeChunksAtomic(file, failing(), { mode: 0o600, dirMode: 0o700 }),
    ).rejects.toThrow('the platform went away');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(folder)).toEqual(['export.csv']);
    await writeChunksAtomic(file, ['a', 'b', 'c'], { mode: 0o600, dirMode: 0o700 });
    expect(await readFile(file, 'utf8')).toBe('abc');
  });
});

/**
 * Files to import as real programs write them: vCard 2.1 from Android phones, older Outlook and
 * CRMs (quoted-printable names in UTF-8 and ISO-8859-1 with soft line breaks, bare type
 * parameters, base64 photos over many lines), Excel's "Unicode Text" (UTF-16 LE with its mark,
 * tab-separated) and UTF-16 BE, and the Windows-1252 CSV Outlook and Excel write on Western
 * Windows. Each is read right, says the encoding it was read in, or is refused saying why; the
 * bounds hold whatever the encoding.
 */
import { describe, expect, it } from 'vitest';
import { guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import {
  MAX_VCARD_LINE_CHARS,
  MAX_VCARD_PARAMETERS,
} from '../../../../src-main/core/contacts-io/contact-vcard';
import { IMPORT_LIMITS, parseImport } from '../../../../src-main/core/contacts-io/import-file';

const utf8 = (lines: string[]) => new TextEncoder().encode(lines.join('\r\n'));
const HEADINGS = ['Name', 'Number', 'Secondary number', 'Speed dial', 'Company'];

describe('vCard 2.1 as phones and older Outlook write it', () => {
  it('decodes quoted-printable names in their charset, soft line breaks and all', () => {
    const table = parseImport(
      utf8([
        // Android's export: N and FN in quoted-printable UTF-8, FN broken over two lines.
        'BEGIN:VCARD',
        'VERSION:2.1',
        'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;',
        'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BC=',
        'ller',
        'TEL;CELL;PREF:+49 170 1234567',
        'TEL;WORK;VOICE:+49 30 1234567',
        'ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:B=C3=A4ckerei Gr=C3=B6=C3=9Fe',
        'END:VCARD',
        // Older Outlook: N only, in ISO-8859-1, the bare QUOTED-PRINTABLE parameter.
        'BEGIN:VCARD',
        'VERSION:2.1',
        'N;CHARSET=ISO-8859-1;QUOTED-PRINTABLE:Stra=DFer;Ren=E9;;;',
        'TEL;HOME:+49 89 7654321',
        'END:VCARD',
        // No soft break: the line as it is.
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB =E2=82=AC',
        'TEL:+1 202 555 0100',
        'END:VCARD',
        '',
      ]),
      '.vcf',
    );
    expect(table).toMatchObject({ format: 'vcard', encoding: 'utf-8', headers: HEADINGS });
    expect(table.rows).toEqual([
      ['Jürgen Müller', '+49 170 1234567', '+49 30 1234567', '', 'Bäckerei Größe'],
      ['René Straßer', '+49 89 7654321', '', '', ''],
      ['Zoë €', '+1 202 555 0100', '', '', ''],
    ]);
  });

  it('skips base64 photos over many lines, indented or not, and one over the line bound', () => {
    const photo = 'A'.repeat(76);
    const table = parseImport(
      utf8([
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Ada Lovelace',
        // Android: indented lines, a blank line ends the photo.
        'PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
        ...Array.from({ length: 40 }, () => `  ${photo}`),
        '',
        'TEL;CELL:+44 20 7946 0001',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Bob',
        // Unindented base64 lines, as some phones write them.
        'PHOTO;TYPE=JPEG;ENCODING=BASE64:/9j/4AAQSkZJRgABAQAAAQABAAD',
        ...Array.from({ length: 40 }, () => photo),
        '',
        'TEL;WORK:+44 20 7946 0002',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Cy',
        // A photo of 2 MB, folded: skipped, not refused as a line too long.
        `PHOTO;ENCODING=b;TYPE=JPEG:${'A'.repeat(2 * MAX_VCARD_LINE_CHARS)}`.replace(
          /.{75}/g,
          '$&\r\n ',
        ),
        'TEL;TYPE=CELL:+44 20 7946 0003',
        'END:VCARD',
        '',
      ]),
      '.vcf',
    );
    expect(table.rows).toEqual([
      ['Ada Lovelace', '+44 20 7946 0001', '', '', ''],
      ['Bob', '+44 20 7946 0002', '', '', ''],
      ['Cy', '+44 20 7946 0003', '', '', ''],
    ]);
  });

  it('still bounds the lines it reads, named by their line in the file', () => {
    const card = (line: string) =>
      utf8(['BEGIN:VCARD', 'VERSION:2.1', 'TEL:1', line, 'END:VCARD', '']);
    // A soft-broken name of over a megabyte, in lines of 76.
    const qp = `FN;ENCODING=QUOTED-PRINTABLE:${'=41'.repeat(MAX_VCARD_LINE_CHARS / 3 + 1)}`;
    expect(() => parseImport(card(qp.replace(/.{75}/g, '$&=\r\n')), '.vcf')).toThrow(
      `Line 4 of the vCard file is longer than ${MAX_VCARD_LINE_CHARS.toLocaleString('en-US')} characters`,
    );
    expect(() =>
      parseImport(card(`NOTE${';X'.repeat(MAX_VCARD_PARAMETERS + 1)}:x`), '.vcf'),
    ).toThrow(`Line 4 of the vCard file has more than ${MAX_VCARD_PARAMETERS} parameters`);
  });
});

describe('encodings', () => {
  const SHEET = 'Name\tTelefon\r\nJürgen Müller\t+49 30 1234567\r\nZoë €\t+49 30 7654321\r\n';

  it("reads Excel's Unicode Text (UTF-16 LE with its mark, tabs) and UTF-16 BE", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SHEET, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    for (const [bytes, encoding] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      const table = parseImport(bytes, '.txt');
      expect(table).toMatchObject({ format: 'csv', encoding, headers: ['Name', 'Telefon'] });
      expect(table.rows).toEqual([
        ['Jürgen Müller', '+49 30 1234567'],
        ['Zoë €', '+49 30 7654321'],
      ]);
      expect(guessMapping(table.headers)).toMatchObject({ display_name: 0, number: 1 });
    }
  });

  it("reads Windows' ANSI CSV (Windows-1252) and says so; UTF-8 stays UTF-8", () => {
    const csv = 'Vorname;Nachname;Straße;Telefon\r\nJürgen;Müller;Hauptstraße 1;+49 30 1234567\r\n';
    const ansi = Buffer.from(csv, 'latin1');
    const withEuro = Buffer.concat([ansi, Buffer.from('Zoë;€uro;x;+49 30 2\r\n', 'latin1')]);
    withEuro[withEuro.lastIndexOf(0xac)] = 0x80; // € is 0x80 in Windows-1252
    const table = parseImport(withEuro, '.csv');
    expect(table.encoding).toBe('windows-1252');
    expect(table.headers).toContain('Straße');
    expect(table.rows).toEqual([
      // The name in parts gains a column of them put together (column-mapping.ts).
      ['Jürgen', 'Müller', 'Hauptstraße 1', '+49 30 1234567', 'Jürgen Müller'],
      ['Zoë', '€uro', 'x', '+49 30 2', 'Zoë €uro'],
    ]);
    expect(parseImport(Buffer.from(csv, 'utf8'), '.csv').encoding).toBe('utf-8');
    expect(parseImport(Buffer.from(`\uFEFF${csv}`, 'utf8'), '.csv')).toMatchObject({
      encoding: 'utf-8',
      headers: ['Vorname', 'Nachname', 'Straße', 'Telefon', 'Vorname + Nachname'],
    });
  });

  it('refuses what is not text, and a mark the bytes do not keep to', () => {
    // An .xlsx (a zip) picked by mistake, and UTF-16 without its mark.
    const xlsx = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]);
    expect(() => parseImport(xlsx, '.csv')).toThrow(/^The file is not text/);
    expect(() => parseImport(Buffer.from(SHEET, 'utf16le'), '.csv')).toThrow(
      /^The file is not text/,
    );
    const broken = [
      Buffer.from([0xef, 0xbb, 0xbf, 0x4e, 0xe9, 0x0a]),
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('Name', 'utf16le'),
        Buffer.from([0x41]),
      ]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0x00, 0xd8, 0x41, 0x00])]),
    ];
    for (const bytes of broken) {
      expect(() => parseImport(bytes, '.csv')).toThrow(/byte-order mark of UTF-(8|16 LE) text/);
    }
  });

  it('keeps the bounds in every encoding: bytes before decoding, rows after', () => {
    const rows = `Name\tNumber\r\n${'A\t1\r\n'.repeat(IMPORT_LIMITS.maxRows + 1)}`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rows, 'utf16le')]);
    expect(le.length).toBeLessThan(IMPORT_LIMITS.maxBytes);
    expect(() => parseImport(le, '.csv')).toThrow(/more than 20,000 contacts/);
    const big = Buffer.alloc(IMPORT_LIMITS.maxBytes + 2, 0x41);
    big[0] = 0xff;
    big[1] = 0xfe;
    expect(() => parseImport(big, '.csv')).toThrow(/at most 10 MB/);
  });
});

describe('an encoding the person chooses', () => {
  // "Łódź Żółć", "Иван Петров" and "Müller" in the encodings Polish and Russian Windows and an
  // old Mac write: none is UTF-8, so each is guessed as Windows-1252 and reads as other letters.
  const file = (name: Buffer) =>
    Buffer.concat([Buffer.from('Name;Number\r\n'), name, Buffer.from(';+49 30 1234567\r\n')]);
  const polish = file(Buffer.from([0xa3, 0xf3, 0x64, 0x9f, 0x20, 0xaf, 0xf3, 0xb3, 0xe6]));
  const russian = file(
    Buffer.from([0xc8, 0xe2, 0xe0, 0xed, 0x20, 0xcf, 0xe5, 0xf2, 0xf0, 0xee, 0xe2]),
  );
  const macRoman = file(Buffer.from([0x4d, 0x9f, 0x6c, 0x6c, 0x65, 0x72]));
  const nameOf = (bytes: Buffer, chosen?: Parameters<typeof parseImport>[2]) =>
    parseImport(bytes, '.csv', chosen).rows[0]![0];

  it('reads Central European, Cyrillic and Mac Roman files in it, where the guess misreads', () => {
    expect(parseImport(polish, '.csv')).toMatchObject({
      encoding: 'windows-1252',
      encodingChosen: false,
    });
    expect(nameOf(polish)).toBe('£ód\u0178 ¯ó³æ');
    expect(parseImport(polish, '.csv', 'windows-1250')).toMatchObject({
      encoding: 'windows-1250',
      encodingChosen: true,
    });
    expect(nameOf(polish, 'windows-1250')).toBe('Łódź Żółć');
    expect(nameOf(russian)).not.toBe('Иван Петров');
    expect(nameOf(russian, 'windows-1251')).toBe('Иван Петров');
    expect(nameOf(macRoman)).toBe('M\u0178ller');
    expect(nameOf(macRoman, 'macintosh')).toBe('Müller');
    // Windows-1252 chosen reads as the guess does, € and all.
    expect(nameOf(file(Buffer.from([0x80, 0x20, 0x4d, 0xfc])), 'windows-1252')).toBe('€ Mü');
  });

  it('reads UTF-16 without its mark only when chosen', () => {
    const sheet = Buffer.from('Name\tNumber\r\nJürgen\t+49 30 1234567\r\n', 'utf16le');
    expect(() => parseImport(sheet, '.csv')).toThrow(/^The file is not text/);
    expect(parseImport(sheet, '.csv', 'utf-16le').rows).toEqual([['Jürgen', '+49 30 1234567']]);
    const be = Buffer.from(sheet).swap16();
    expect(parseImport(be, '.csv', 'utf-16be').rows).toEqual([['Jürgen', '+49 30 1234567']]);
  });

  it('refuses bytes that are not text in it, and a byte-order mark that names another', () => {
    expect(() => parseImport(polish, '.csv', 'utf-8')).toThrow(
      /^The file is not UTF-8 text: some of its bytes are not characters in UTF-8/,
    );
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name\r\nZoë\r\n')]);
    expect(() => parseImport(marked, '.csv', 'windows-1250')).toThrow(
      /^The file begins with the byte-order mark of UTF-8 text, so it is not Windows-1250/,
    );
    expect(nameOf(marked, 'utf-8')).toBe('Zoë');
    // A zero byte is no character of a contact file in any single-byte encoding either.
    expect(() => parseImport(file(Buffer.from([0x41, 0x00])), '.csv', 'macintosh')).toThrow(
      /^The file is not text/,
    );
  });
});

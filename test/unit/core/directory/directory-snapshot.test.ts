import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import {
  encodeSnapshot,
  readSnapshot,
  SnapshotRefused,
  type Snapshot,
} from '../../../../src-main/core/directory/directory-snapshot';
import { searchTextsOf } from '../../../../src-main/core/directory/search-texts';
import { entryText } from '../../../../src-main/core/directory/text-table';

/**
 * Format 5 of the directory cache (issue 45): a binary snapshot read in place. What it writes it
 * reads back exactly (any text, any whole number); a damaged or hostile file is refused whole
 * with the reason, whatever part of it lies: the envelope, the header, each section (missing,
 * short, long, past the end, misaligned), each value (numbers, flags, references, text ends),
 * counts that lie, a file cut anywhere or a byte changed anywhere. The format-4 cases of
 * directory-cache.test.ts, one by one, have their counterpart here (a column missing, one value
 * short or long, a value of the wrong kind).
 */
const head = {
  owner: { tenant_id: 'acme', user_extension: '201', base_url: 'http://127.0.0.1:1/' },
  synced_at: '2026-11-25T10:00:00.000Z',
  phonebooks: [
    { id: 1, description: 'Company', priority: 10 },
    { id: 2, description: 'Suppliers', priority: 5 },
  ],
};
const contacts: DirectoryContact[] = [
  {
    id: 7,
    phonebook: 1,
    phonebook_name: 'Company',
    display_name: 'Ada Lovelace',
    company: 'Analytical Engines',
    number: '+44 20 7123 4567',
    secondary_number: '+44 7700 900123',
    speed_dial: 7341,
  },
  {
    id: 9,
    phonebook: 2,
    phonebook_name: 'Suppliers',
    display_name: 'Émile Zola',
    company: '',
    number: '030 1234567',
    secondary_number: null,
    speed_dial: null,
  },
  {
    id: 11,
    phonebook: 1,
    phonebook_name: 'Company',
    display_name: 'Straße 𝐀𝐝𝐚 王小明',
    company: 'Analytical Engines',
    number: '',
    secondary_number: '',
    speed_dial: 0,
  },
];

const written = () => encodeSnapshot(head, contacts, searchTextsOf(contacts, 'DE'));
const rows = (snapshot: Snapshot) =>
  Array.from({ length: snapshot.rows.length }, (_, i) => snapshot.rows.make(i));

/** Why `bytes` is refused (undefined: it is read). */
function refusal(bytes: Buffer): string | undefined {
  try {
    readSnapshot(bytes);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotRefused);
    return (error as Error).message;
  }
}

const align8 = (at: number) => (at + 7) & ~7;

interface Header {
  contacts: number;
  phonebook_names: number;
  companies: number;
  search: { stamp: string } | null;
  sections: Record<string, { at: number; bytes: number }>;
  [key: string]: unknown;
}

/** A snapshot taken apart: its header and the sections' bytes (from the header's end on). */
function parts(bytes: Buffer): { header: Header; data: Buffer } {
  const length = bytes.readUInt32LE(20);
  const header = JSON.parse(bytes.toString('utf8', 24, 24 + length)) as Header;
  return { header, data: Buffer.from(bytes.subarray(align8(24 + length))) };
}

/** A snapshot put together from a header and data, with a CRC that matches (a hostile file). */
function sealed(header: unknown, data: Buffer, prefix: Buffer = written()): Buffer {
  const json = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header));
  const file = Buffer.alloc(align8(24 + json.length) + data.length);
  prefix.copy(file, 0, 0, 16);
  file.writeUInt32LE(json.length, 20);
  json.copy(file, 24);
  data.copy(file, align8(24 + json.length));
  file.writeUInt32LE(crc32(file.subarray(20)), 16);
  return file;
}

/** The written snapshot with its header changed (sealed again). */
function withHeader(change: (header: Header) => unknown): Buffer {
  const { header, data } = parts(written());
  const copy = structuredClone(header);
  return sealed(change(copy) ?? copy, data);
}

/** The written snapshot with section `name`'s bytes changed in place (sealed again). */
function withSection(name: string, change: (bytes: Buffer) => void): Buffer {
  const { header, data } = parts(written());
  const place = header.sections[name]!;
  change(data.subarray(place.at, place.at + place.bytes));
  return sealed(header, data);
}

const NUMBER_SECTIONS = ['id', 'phonebook', 'speed_dial'];
const TYPED_SECTIONS: Record<string, number> = {
  id: 8,
  phonebook: 8,
  speed_dial: 8,
  nulls: 1,
  'phonebook_name.refs': 4,
  'phonebook_name.ends': 4,
  'display_name.ends': 4,
  'company.refs': 4,
  'company.ends': 4,
  'number.ends': 4,
  'secondary_number.ends': 4,
  'search.names.ends': 4,
  'search.companies.ends': 4,
  'search.numbers.ends': 4,
};
const TEXT_TABLES = [
  'phonebook_name',
  'display_name',
  'company',
  'number',
  'secondary_number',
  'search.names',
  'search.companies',
  'search.numbers',
];
const ALL_SECTIONS = Object.keys(parts(written()).header.sections);

describe('a format-5 snapshot', () => {
  it('reads back what it wrote: every field, nulls, any text, the search texts', () => {
    const texts = searchTextsOf(contacts, 'DE');
    const snapshot = readSnapshot(encodeSnapshot(head, contacts, texts));
    expect(snapshot.head).toEqual(head);
    expect(rows(snapshot)).toEqual(contacts);
    expect(snapshot.texts!.stamp).toBe(texts.stamp);
    for (let c = 0; c < contacts.length; c++) {
      expect(entryText(snapshot.texts!.names, c)).toBe(entryText(texts.names, c));
      expect(entryText(snapshot.texts!.numbers, c)).toBe(entryText(texts.numbers, c));
      expect(entryText(snapshot.texts!.companies, snapshot.texts!.companyOf[c]!)).toBe(
        entryText(texts.companies, texts.companyOf[c]!),
      );
    }
    // A phonebook name or company repeated by many contacts is stored, and made, once.
    expect(snapshot.rows.make(0).company).toBe(snapshot.rows.make(2).company);
    expect(parts(encodeSnapshot(head, contacts, texts)).header).toMatchObject({
      contacts: 3,
      phonebook_names: 2,
      companies: 2,
    });
  });

  it('reads back the largest whole numbers, empty texts, a lone surrogate as U+FFFD, and none', () => {
    const edge: DirectoryContact[] = [
      {
        ...contacts[0]!,
        id: Number.MAX_SAFE_INTEGER,
        phonebook: -Number.MAX_SAFE_INTEGER,
        speed_dial: -1,
        display_name: '',
        company: 'x'.repeat(100_000),
      },
      { ...contacts[1]!, id: 0, display_name: 'Ada \uD800 Lovelace', number: '\n\t\u202E' },
    ];
    expect(rows(readSnapshot(encodeSnapshot(head, edge, undefined)))).toEqual([
      edge[0],
      { ...edge[1], display_name: 'Ada \uFFFD Lovelace' },
    ]);
    const none = readSnapshot(encodeSnapshot(head, [], searchTextsOf([], 'DE')));
    expect(rows(none)).toEqual([]);
    expect(none.texts?.names.ends.length).toBe(0);
    expect(readSnapshot(encodeSnapshot(head, contacts, undefined)).texts).toBeUndefined();
  });

  it('reads a file that does not start at a multiple of 8 in memory (copied, not misread)', () => {
    const bytes = written();
    const shifted = Buffer.alloc(bytes.length + 3);
    bytes.copy(shifted, 3);
    expect(rows(readSnapshot(shifted.subarray(3)))).toEqual(contacts);
  });

  it('ignores a section it does not know, and a null speed dial whatever its value', () => {
    const { header, data } = parts(written());
    header.sections.later = { at: data.length, bytes: 0 };
    expect(rows(readSnapshot(sealed(header, data)))).toEqual(contacts);
    const nullDial = withSection('speed_dial', (bytes) => bytes.writeDoubleLE(Number.NaN, 8));
    expect(rows(readSnapshot(nullDial))).toEqual(contacts);
  });
});

describe('a damaged or hostile format-5 file is refused with the reason', () => {
  const file = written();
  const { header: plain } = parts(file);
  const envelope: [string, Buffer, RegExp][] = [
    ['an empty file', Buffer.alloc(0), /not a directory snapshot/],
    ['a JSON file', Buffer.from('{"format":5}'.padEnd(64)), /not a directory snapshot/],
    ['another magic', (() => Buffer.from([0, ...file.subarray(1)]))(), /not a directory snapshot/],
    [
      'format 6',
      (() => {
        const b = Buffer.from(file);
        b.writeUInt32LE(6, 8);
        return b;
      })(),
      /format 6, which Callbar does not read \(it writes 5\)/,
    ],
    [
      'format 4 in binary',
      (() => {
        const b = Buffer.from(file);
        b.writeUInt32LE(4, 8);
        return b;
      })(),
      /format 4/,
    ],
    [
      'the other byte order',
      (() => {
        const b = Buffer.from(file);
        b.writeUInt32LE(0x04030201, 12);
        return b;
      })(),
      /another byte order/,
    ],
    [
      'a header longer than the file',
      (() => {
        const b = Buffer.from(file);
        b.writeUInt32LE(file.length, 20);
        b.writeUInt32LE(crc32(b.subarray(20)), 16);
        return b;
      })(),
      /cut short \(its header\)/,
    ],
    [
      'a header that is not JSON',
      sealed('{"owner":', parts(file).data),
      /header is not valid JSON/,
    ],
  ];

  const cuts = [9, 16, 23, 24, 24 + 10, align8(24 + file.readUInt32LE(20)), file.length - 1];
  for (const name of ALL_SECTIONS)
    cuts.push(align8(24 + file.readUInt32LE(20)) + plain.sections[name]!.at + 1);
  const truncated: [string, Buffer, RegExp][] = cuts.map((length) => [
    `a file cut at byte ${length} of ${file.length}`,
    file.subarray(0, length),
    /not a directory snapshot|cut short|checksum does not match/,
  ]);

  const flipped: [string, Buffer, RegExp][] = (
    [
      ['its header', 30],
      ...ALL_SECTIONS.filter((name) => plain.sections[name]!.bytes > 0).map(
        (name): [string, number] => [
          `its ${name} section`,
          align8(24 + file.readUInt32LE(20)) + plain.sections[name]!.at,
        ],
      ),
    ] as [string, number][]
  ).map(([where, at]) => {
    const b = Buffer.from(file);
    b[at] = b[at]! ^ 0x01;
    return [`a bit changed in ${where}`, b, /checksum does not match/];
  });

  const headers: [string, Buffer, RegExp][] = (
    [
      ['no owner', (h) => ({ ...h, owner: undefined })],
      ['a sync time that is no date', (h) => ({ ...h, synced_at: 'yesterday' })],
      [
        'a phonebook without priority',
        (h) => ({ ...h, phonebooks: [{ id: 1, description: 'x' }] }),
      ],
      ['no count of contacts', (h) => ({ ...h, contacts: undefined })],
      ['a count of -1', (h) => ({ ...h, contacts: -1 })],
      ['a count of 1.5', (h) => ({ ...h, contacts: 1.5 })],
      ['a count as text', (h) => ({ ...h, contacts: '3' })],
      ['search as text', (h) => ({ ...h, search: 'DE' })],
      ['no sections', (h) => ({ ...h, sections: undefined })],
      [
        'a section at -8',
        (h) => ({ ...h, sections: { ...h.sections, id: { at: -8, bytes: 24 } } }),
      ],
      ['an array', (h) => [h]],
    ] as [string, (h: Header) => unknown][]
  ).map(([what, change]) => [
    `a header with ${what}`,
    withHeader(change),
    /header is not a directory/,
  ]);

  const counts: [string, Buffer, RegExp][] = (
    [
      ['one contact more', (h) => ({ ...h, contacts: h.contacts + 1 })],
      ['one contact less', (h) => ({ ...h, contacts: h.contacts - 1 })],
      ['2,147,483,648 contacts', (h) => ({ ...h, contacts: 2 ** 31 })],
      ['2^53 - 1 contacts', (h) => ({ ...h, contacts: Number.MAX_SAFE_INTEGER })],
      ['one phonebook name more', (h) => ({ ...h, phonebook_names: h.phonebook_names + 1 })],
      ['one company less', (h) => ({ ...h, companies: h.companies - 1 })],
      [
        'search texts said, none there',
        (h) => ({
          ...h,
          search: { stamp: 'x' },
          sections: Object.fromEntries(
            Object.entries(h.sections).filter(([name]) => !name.startsWith('search.')),
          ),
        }),
      ],
    ] as [string, (h: Header) => unknown][]
  ).map(([what, change]) => [
    `counts that lie: ${what}`,
    withHeader(change),
    /does not hold|missing|past its end/,
  ]);

  const sections: [string, Buffer, RegExp][] = ALL_SECTIONS.flatMap((name) => {
    const size = TYPED_SECTIONS[name] ?? 1;
    const cases: [string, Buffer, RegExp][] = [
      [
        `no ${name} section`,
        withHeader((h) => {
          delete h.sections[name];
        }),
        /section is missing/,
      ],
      [
        `its ${name} section past the end`,
        withHeader((h) => {
          h.sections[name]!.at = 1 << 30;
        }),
        /past its end/,
      ],
    ];
    if (TYPED_SECTIONS[name] !== undefined) {
      cases.push(
        [
          `its ${name} section one value short`,
          withHeader((h) => {
            h.sections[name]!.bytes -= size;
          }),
          /does not hold/,
        ],
        [
          `its ${name} section one value long`,
          withHeader((h) => {
            h.sections[name]!.bytes += size;
          }),
          /does not hold|past its end/,
        ],
      );
      if (size > 1) {
        cases.push([
          `its ${name} section misaligned`,
          withHeader((h) => {
            h.sections[name]!.at += 1;
          }),
          /misaligned/,
        ]);
      }
    } else {
      // A text run: its last entry cut.
      cases.push([
        `its ${name} texts one byte short`,
        withHeader((h) => {
          h.sections[name]!.bytes -= 1;
        }),
        /end past their bytes/,
      ]);
    }
    return cases;
  });

  const numbers: [string, Buffer, RegExp][] = NUMBER_SECTIONS.flatMap((name) =>
    [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 60), -0.5].map(
      (value): [string, Buffer, RegExp] => [
        `its ${name} holding ${value}`,
        withSection(name, (bytes) => bytes.writeDoubleLE(value, 0)),
        name === 'speed_dial' ? /speed dial is not a whole number/ : /id or phonebook/,
      ],
    ),
  );

  const values: [string, Buffer, RegExp][] = [
    ...[4, 8, 255].map((flag): [string, Buffer, RegExp] => [
      `null flags holding ${flag}`,
      withSection('nulls', (bytes) => (bytes[1] = flag)),
      /null flags are not flags/,
    ]),
    ...['phonebook_name', 'company'].flatMap((name) =>
      [2, 3, 2 ** 32 - 1].map((ref): [string, Buffer, RegExp] => [
        `a ${name} reference to entry ${ref}`,
        withSection(`${name}.refs`, (bytes) => bytes.writeUInt32LE(ref, 4)),
        /references are out of range/,
      ]),
    ),
    ...TEXT_TABLES.flatMap((name): [string, Buffer, RegExp][] => [
      [
        `${name} texts out of order`,
        withSection(`${name}.ends`, (bytes) => {
          bytes.writeUInt32LE(bytes.readUInt32LE(4) + 1, 0);
        }),
        /out of order/,
      ],
      [
        `${name} texts ending past their bytes`,
        withSection(`${name}.ends`, (bytes) => {
          bytes.writeUInt32LE(2 ** 32 - 1, bytes.length - 4);
        }),
        /end past their bytes/,
      ],
    ]),
  ];

  it.each([
    ...envelope,
    ...truncated,
    ...flipped,
    ...headers,
    ...counts,
    ...sections,
    ...numbers,
    ...values,
  ])('refuses %s', (_what, bytes, why) => {
    expect(refusal(bytes)).toMatch(why);
  });

  it('refuses every file cut short, at every byte', () => {
    for (let length = 0; length < file.length; length += 7) {
      expect(refusal(file.subarray(0, length))).toBeDefined();
    }
  });
});

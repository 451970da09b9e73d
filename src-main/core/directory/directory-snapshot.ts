/**
 * Format 5 of the directory cache (`directory.bin`): the directory as one buffer a start reads
 * with one `readFile` and uses in place. Its layout (integers little-endian but where said):
 *
 *     0  8 bytes  magic: 89 "CBDIR" 0D 0A
 *     8  u32      format (5)
 *    12  u32      0x01020304 in the writer's byte order (a file from a machine of the other
 *                 order is refused: the sections are in its order)
 *    16  u32      CRC-32 of every byte from offset 20 to the end
 *    20  u32      the header's length H
 *    24  H bytes  the header, JSON (CacheFileV5Header: owner, sync time, phonebooks, counts, how
 *                 the search texts were made, where each section is)
 *        padding to a multiple of 8; the sections follow, each where the header says (from
 *        there), aligned to its values' size:
 *
 *   id, phonebook, speed_dial   f64 × contacts (integers; a null speed dial is flagged)
 *   nulls                       u8 × contacts (1: no secondary number, 2: no speed dial)
 *   X.ends + X.bytes            a text per contact (display_name, number, secondary_number;
 *                               search.names, search.numbers): UTF-8, entry i ending at ends[i]
 *   X.refs                      u32 × contacts: for phonebook_name and company, the entry of
 *                               X.ends/X.bytes (each distinct text once) each contact has;
 *                               search.companies is aligned with company's entries
 *
 * Reading checks everything a later read depends on (bounds, alignment, counts, every number
 * and offset) at once, so a damaged or hostile file is refused whole with the reason, and a file
 * accepted can never make a later read fail; the CRC refuses a torn or damaged one first.
 * Contacts are made only when asked for (ContactRows.make): a text is decoded from its bytes
 * then, a phonebook name or company once.
 */
import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';
import type { DirectoryContact } from '../../../src-shared/contract';
import type { ContactRows } from './contact-list';
import { CACHE_FORMAT, CacheFileV5Header } from './directory-cache-format';
import type { SearchTexts } from './search-texts';
import { entryText, textTable, type TextTable } from './text-table';

/** The first bytes of a format-5 file. */
export const SNAPSHOT_MAGIC = Buffer.from([0x89, 0x43, 0x42, 0x44, 0x49, 0x52, 0x0d, 0x0a]);
const BYTE_ORDER_MARK = 0x01020304;
/** Magic, format, byte order, CRC, header length. */
const PREFIX_BYTES = 24;
/** Where the CRC starts counting. */
const CRC_FROM = 20;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** What a snapshot holds besides its contacts. */
export type SnapshotHead = Pick<CacheFileV5Header, 'owner' | 'synced_at' | 'phonebooks'>;

/** A format-5 file read: its header, its contacts (made when asked for), its search texts. */
export interface Snapshot {
  head: SnapshotHead;
  rows: ContactRows;
  /** As stored (undefined: none were); the scan checks their stamp. */
  texts: SearchTexts | undefined;
}

type Kind = 'f64' | 'u32' | 'u8' | 'utf8';
const SIZE: Record<Kind, number> = { f64: 8, u32: 4, u8: 1, utf8: 1 };

/** The counts the header gives, which size the sections. */
type Counts = Pick<CacheFileV5Header, 'contacts' | 'phonebook_names' | 'companies'>;

/** Every section: its values' kind and how many (a UTF-8 run has any length). */
const SECTIONS: Record<string, { kind: Kind; count?: (counts: Counts) => number }> = {
  id: { kind: 'f64', count: (c) => c.contacts },
  phonebook: { kind: 'f64', count: (c) => c.contacts },
  speed_dial: { kind: 'f64', count: (c) => c.contacts },
  nulls: { kind: 'u8', count: (c) => c.contacts },
  'phonebook_name.refs': { kind: 'u32', count: (c) => c.contacts },
  'phonebook_name.ends': { kind: 'u32', count: (c) => c.phonebook_names },
  'phonebook_name.bytes': { kind: 'utf8' },
  'display_name.ends': { kind: 'u32', count: (c) => c.contacts },
  'display_name.bytes': { kind: 'utf8' },
  'company.refs': { kind: 'u32', count: (c) => c.contacts },
  'company.ends': { kind: 'u32', count: (c) => c.companies },
  'company.bytes': { kind: 'utf8' },
  'number.ends': { kind: 'u32', count: (c) => c.contacts },
  'number.bytes': { kind: 'utf8' },
  'secondary_number.ends': { kind: 'u32', count: (c) => c.contacts },
  'secondary_number.bytes': { kind: 'utf8' },
};
/** The sections of the search texts, there when the header's `search` is not null. */
const SEARCH_SECTIONS: typeof SECTIONS = {
  'search.names.ends': { kind: 'u32', count: (c) => c.contacts },
  'search.names.bytes': { kind: 'utf8' },
  'search.companies.ends': { kind: 'u32', count: (c) => c.companies },
  'search.companies.bytes': { kind: 'utf8' },
  'search.numbers.ends': { kind: 'u32', count: (c) => c.contacts },
  'search.numbers.bytes': { kind: 'utf8' },
};

const NO_SECONDARY = 1;
const NO_SPEED_DIAL = 2;

/** A file that is not a directory snapshot Callbar can use, and why. */
export class SnapshotRefused extends Error {}

const align8 = (at: number) => (at + 7) & ~7;

/** The snapshot of `contacts` (in order) with `head`, and the search texts when given. */
export function encodeSnapshot(
  head: SnapshotHead,
  contacts: readonly DirectoryContact[],
  texts: SearchTexts | undefined,
): Buffer {
  const n = contacts.length;
  const columns = {
    id: new Float64Array(n),
    phonebook: new Float64Array(n),
    speed_dial: new Float64Array(n),
    nulls: new Uint8Array(n),
  };
  const phonebookNames = new Dictionary(n);
  const companies = new Dictionary(n);
  const displayNames = new Array<string>(n);
  const numbers = new Array<string>(n);
  const secondaries = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const contact = contacts[i]!;
    columns.id[i] = contact.id;
    columns.phonebook[i] = contact.phonebook;
    columns.speed_dial[i] = contact.speed_dial ?? 0;
    columns.nulls[i] =
      (contact.secondary_number === null ? NO_SECONDARY : 0) |
      (contact.speed_dial === null ? NO_SPEED_DIAL : 0);
    phonebookNames.add(i, contact.phonebook_name);
    companies.add(i, contact.company);
    displayNames[i] = contact.display_name;
    numbers[i] = contact.number;
    secondaries[i] = contact.secondary_number ?? '';
  }
  const sections = new Map<string, Uint8Array>([
    ...Object.entries(columns).map(([name, values]) => [name, bytesOf(values)] as const),
    ...phonebookNames.sections('phonebook_name'),
    ...tableSections('display_name', textTable(displayNames)),
    ...companies.sections('company'),
    ...tableSections('number', textTable(numbers)),
    ...tableSections('secondary_number', textTable(secondaries)),
  ]);
  if (texts) {
    if (texts.names.ends.length !== n || texts.numbers.ends.length !== n) {
      throw new Error('the search texts are not those of the contacts written');
    }
    // Aligned with the company entries written: each company's folded text, as the texts say.
    const folded = companies.firstContacts.map((c) =>
      entryText(texts.companies, texts.companyOf[c]!),
    );
    for (const [name, bytes] of [
      ...tableSections('search.names', texts.names),
      ...tableSections('search.companies', textTable(folded)),
      ...tableSections('search.numbers', texts.numbers),
    ]) {
      sections.set(name, bytes);
    }
  }
  const placed: Record<string, { at: number; bytes: number }> = {};
  let data = 0;
  for (const [name, bytes] of sections) {
    placed[name] = { at: data, bytes: bytes.length };
    data = align8(data + bytes.length);
  }
  const header: CacheFileV5Header = {
    owner: {
      tenant_id: head.owner.tenant_id,
      user_extension: head.owner.user_extension,
      base_url: head.owner.base_url,
    },
    synced_at: head.synced_at,
    phonebooks: head.phonebooks.map(({ id, description, priority }) => ({
      id,
      description,
      priority,
    })),
    contacts: n,
    phonebook_names: phonebookNames.size,
    companies: companies.size,
    search: texts ? { stamp: texts.stamp } : null,
    sections: placed,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(PREFIX_BYTES + json.length);
  const file = Buffer.alloc(start + data);
  SNAPSHOT_MAGIC.copy(file, 0);
  file.writeUInt32LE(CACHE_FORMAT, 8);
  if (LITTLE_ENDIAN) file.writeUInt32LE(BYTE_ORDER_MARK, 12);
  else file.writeUInt32BE(BYTE_ORDER_MARK, 12);
  file.writeUInt32LE(json.length, 20);
  json.copy(file, PREFIX_BYTES);
  for (const [name, bytes] of sections) file.set(bytes, start + placed[name]!.at);
  file.writeUInt32LE(crc32(file.subarray(CRC_FROM)), 16);
  return file;
}

/**
 * Reads a format-5 file. Throws SnapshotRefused saying why a file cannot be used (it is no
 * snapshot, has another format, is damaged or hostile); nothing else.
 */
export function readSnapshot(file: Buffer): Snapshot {
  const refuse = (why: string): never => {
    throw new SnapshotRefused(why);
  };
  if (file.length < PREFIX_BYTES || !file.subarray(0, 8).equals(SNAPSHOT_MAGIC)) {
    refuse('it is not a directory snapshot');
  }
  const format = file.readUInt32LE(8);
  if (format !== CACHE_FORMAT) {
    refuse(`it has format ${format}, which Callbar does not read (it writes ${CACHE_FORMAT})`);
  }
  // Typed arrays read in place need their values aligned in memory: a small file read into
  // Node's shared pool may not start at a multiple of 8, and is copied.
  const bytes = file.byteOffset % 8 === 0 ? file : copyAligned(file);
  const mark = LITTLE_ENDIAN ? bytes.readUInt32LE(12) : bytes.readUInt32BE(12);
  if (mark !== BYTE_ORDER_MARK) refuse('it was written on a machine of another byte order');
  const headerBytes = bytes.readUInt32LE(20);
  if (headerBytes > bytes.length - PREFIX_BYTES) refuse('it is cut short (its header)');
  if (crc32(bytes.subarray(CRC_FROM)) !== bytes.readUInt32LE(16)) {
    refuse('its checksum does not match (it is damaged or cut short)');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerBytes));
  } catch {
    refuse('its header is not valid JSON');
  }
  const parsed = CacheFileV5Header.safeParse(raw);
  if (!parsed.success) return refuse('its header is not a directory');
  const header = parsed.data;
  const start = align8(PREFIX_BYTES + headerBytes);
  const section = (name: string): Uint8Array => {
    const spec = SECTIONS[name] ?? SEARCH_SECTIONS[name]!;
    const place = header.sections[name];
    if (!place) return refuse(`its ${name} section is missing`);
    const from = start + place.at;
    if (from + place.bytes > bytes.length) refuse(`its ${name} section is past its end`);
    const size = SIZE[spec.kind];
    if ((bytes.byteOffset + from) % size !== 0) refuse(`its ${name} section is misaligned`);
    if (spec.count && place.bytes !== spec.count(header) * size) {
      refuse(`its ${name} section does not hold ${spec.count(header)} values`);
    }
    return bytes.subarray(from, from + place.bytes);
  };
  const f64 = (name: string) => {
    const view = section(name);
    return new Float64Array(view.buffer, view.byteOffset, view.length / 8);
  };
  const u32 = (name: string) => {
    const view = section(name);
    return new Uint32Array(view.buffer, view.byteOffset, view.length / 4);
  };
  const table = (name: string): TextTable => {
    const ends = u32(`${name}.ends`);
    const run = section(`${name}.bytes`);
    let end = 0;
    for (let e = 0; e < ends.length; e++) {
      if (ends[e]! < end) refuse(`its ${name} texts are out of order`);
      end = ends[e]!;
    }
    if (end > run.length) refuse(`its ${name} texts end past their bytes`);
    return { bytes: Buffer.from(run.buffer, run.byteOffset, run.length), ends };
  };
  const refs = (name: string, entries: number) => {
    const values = u32(`${name}.refs`);
    for (let i = 0; i < values.length; i++) {
      if (values[i]! >= entries) refuse(`its ${name} references are out of range`);
    }
    return values;
  };
  const id = f64('id');
  const phonebook = f64('phonebook');
  const speedDial = f64('speed_dial');
  const nulls = section('nulls');
  for (let i = 0; i < header.contacts; i++) {
    if (!Number.isSafeInteger(id[i]) || !Number.isSafeInteger(phonebook[i])) {
      refuse('an id or phonebook is not a whole number');
    }
    if (nulls[i]! > (NO_SECONDARY | NO_SPEED_DIAL)) refuse('its null flags are not flags');
    if (!(nulls[i]! & NO_SPEED_DIAL) && !Number.isSafeInteger(speedDial[i])) {
      refuse('a speed dial is not a whole number');
    }
  }
  const phonebookNames = new Entries(
    table('phonebook_name'),
    refs('phonebook_name', header.phonebook_names),
  );
  const companies = new Entries(table('company'), refs('company', header.companies));
  const displayNames = table('display_name');
  const numbers = table('number');
  const secondaries = table('secondary_number');
  const texts: SearchTexts | undefined = header.search
    ? {
        names: table('search.names'),
        companies: table('search.companies'),
        companyOf: companies.refs,
        numbers: table('search.numbers'),
        stamp: header.search.stamp,
      }
    : undefined;
  const rows: ContactRows = {
    length: header.contacts,
    make: (i) => ({
      id: id[i]!,
      phonebook: phonebook[i]!,
      phonebook_name: phonebookNames.of(i),
      display_name: entryText(displayNames, i),
      company: companies.of(i),
      number: entryText(numbers, i),
      secondary_number: nulls[i]! & NO_SECONDARY ? null : entryText(secondaries, i),
      speed_dial: nulls[i]! & NO_SPEED_DIAL ? null : speedDial[i]!,
    }),
    id: (i) => id[i]!,
    speedDial: (i) => (nulls[i]! & NO_SPEED_DIAL ? null : speedDial[i]!),
  };
  const { owner, synced_at, phonebooks } = header;
  return { head: { owner, synced_at, phonebooks }, rows, texts };
}

/** A text repeated by many contacts, written once: its entries and each contact's. */
class Dictionary {
  readonly #ids = new Map<string, number>();
  readonly #texts: string[] = [];
  readonly refs: Uint32Array;
  /** The first contact of each entry. */
  readonly firstContacts: number[] = [];

  constructor(contacts: number) {
    this.refs = new Uint32Array(contacts);
  }

  get size(): number {
    return this.#texts.length;
  }

  add(contact: number, text: string): void {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.#texts.length;
      this.#texts.push(text);
      this.firstContacts.push(contact);
      this.#ids.set(text, id);
    }
    this.refs[contact] = id;
  }

  sections(name: string): [string, Uint8Array][] {
    return [[`${name}.refs`, bytesOf(this.refs)], ...tableSections(name, textTable(this.#texts))];
  }
}

/** A dictionary's texts as read: each decoded once, when first asked for. */
class Entries {
  readonly #table: TextTable;
  readonly refs: Uint32Array;
  readonly #decoded: (string | undefined)[];

  constructor(table: TextTable, refs: Uint32Array) {
    this.#table = table;
    this.refs = refs;
    this.#decoded = new Array<string | undefined>(table.ends.length);
  }

  /** Contact i's text. */
  of(i: number): string {
    const e = this.refs[i]!;
    return (this.#decoded[e] ??= entryText(this.#table, e));
  }
}

function tableSections(name: string, table: TextTable): [string, Uint8Array][] {
  return [
    [`${name}.ends`, bytesOf(table.ends)],
    [`${name}.bytes`, table.bytes],
  ];
}

function bytesOf(values: Float64Array | Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

function copyAligned(file: Buffer): Buffer {
  const copy = Buffer.from(new ArrayBuffer(file.length));
  file.copy(copy);
  return copy;
}

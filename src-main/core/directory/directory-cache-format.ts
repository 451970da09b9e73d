/**
 * The directory cache's file formats, each a versioned schema of its own, apart from the IPC
 * contract's types: a field added to or renamed in `DirectoryContact` changes no file until the
 * conversions are changed on purpose (they name every field, so the compiler points at them), and
 * an old file is migrated by reading it with its own schema.
 *
 * - Format 3 (until issue 31, `directory.json`): one JSON object per contact. 18 MB at 100,000
 *   contacts; parsing and validating it took ~300 ms of the start.
 * - Format 4 (`directory.json`): one JSON array per field ("columns"); row i of every column is
 *   contact i. 8 MB at 100,000, but a start still decoded 8 MB of text into 800,000 strings and
 *   folded 100,000 names before its first answer.
 * - Format 5 (`directory.bin`, issue 45): a binary snapshot read in one buffer and used in place
 *   (directory-snapshot): this header as JSON, then each column as a typed array, texts as UTF-8
 *   runs with their ends, repeated texts (phonebook names, companies) once, and what the scan
 *   reads before the index is built (search-texts: folded names and companies, digit texts), so
 *   a start neither parses the contacts nor folds them. Formats 3 and 4 are read to migrate them.
 */
import { z } from 'zod';
import type { DirectoryContact } from '../../../src-shared/contract';

/** The format written now. */
export const CACHE_FORMAT = 5;

/** Whose directory a file is: the account it was synced for and the platform (base_url). */
const CacheOwner = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  base_url: z.string(),
});

const CachePhonebook = z.object({
  id: z.number().int(),
  description: z.string(),
  priority: z.number().int(),
});

/** What every format holds besides its contacts. */
const CacheHeader = {
  owner: CacheOwner,
  synced_at: z.iso.datetime(),
  phonebooks: z.array(CachePhonebook),
};

/** Format 3: one object per contact (read to migrate it; never written). */
export const CacheFileV3 = z.object({
  format: z.literal(3),
  ...CacheHeader,
  contacts: z.array(
    z.object({
      id: z.number().int(),
      phonebook: z.number().int(),
      phonebook_name: z.string(),
      display_name: z.string(),
      company: z.string(),
      number: z.string(),
      secondary_number: z.string().nullable(),
      speed_dial: z.number().int().nullable(),
    }),
  ),
});
export type CacheFileV3 = z.infer<typeof CacheFileV3>;

/**
 * The values of each column: the zod schema, and the same test as a plain predicate, which reads
 * 100,000 contacts' columns in a few milliseconds where zod takes about a hundred (a test checks
 * that both accept and refuse the same values).
 */
const integer = { schema: z.number().int(), is: Number.isSafeInteger };
const text = { schema: z.string(), is: (value: unknown) => typeof value === 'string' };
const COLUMN_VALUES = {
  id: integer,
  phonebook: integer,
  phonebook_name: text,
  display_name: text,
  company: text,
  number: text,
  secondary_number: {
    schema: text.schema.nullable(),
    is: (value: unknown) => value === null || text.is(value),
  },
  speed_dial: {
    schema: integer.schema.nullable(),
    is: (value: unknown) => value === null || integer.is(value),
  },
};

const ContactColumns = z
  .object({
    id: z.array(COLUMN_VALUES.id.schema),
    phonebook: z.array(COLUMN_VALUES.phonebook.schema),
    phonebook_name: z.array(COLUMN_VALUES.phonebook_name.schema),
    display_name: z.array(COLUMN_VALUES.display_name.schema),
    company: z.array(COLUMN_VALUES.company.schema),
    number: z.array(COLUMN_VALUES.number.schema),
    secondary_number: z.array(COLUMN_VALUES.secondary_number.schema),
    speed_dial: z.array(COLUMN_VALUES.speed_dial.schema),
  })
  .refine(
    (columns) => Object.values(columns).every((column) => column.length === columns.id.length),
    {
      message: 'every column holds one value per contact',
    },
  );
type ContactColumns = z.infer<typeof ContactColumns>;

/** Format 4: the contacts as columns (read to migrate it; never written). */
export const CacheFileV4 = z.object({
  format: z.literal(4),
  ...CacheHeader,
  contacts: ContactColumns,
});
export type CacheFileV4 = z.infer<typeof CacheFileV4>;

/** Format 4 without its columns: what zod reads of a file (readCacheFileV4). */
const CacheFileV4Header = CacheFileV4.omit({ contacts: true });

/**
 * A format-4 file's content, or undefined when it is not one: what `CacheFileV4.safeParse`
 * accepts, read faster. The header goes through zod; the columns through COLUMN_VALUES'
 * predicates, one pass each (unknown keys are left out, as zod does).
 */
export function readCacheFileV4(raw: unknown): CacheFileV4 | undefined {
  const header = CacheFileV4Header.safeParse(raw);
  if (!header.success) return undefined;
  const contacts = checkedColumns((raw as { contacts?: unknown }).contacts);
  return contacts && { ...header.data, contacts };
}

/** `value` as contact columns, when every column holds one valid value per contact. */
function checkedColumns(value: unknown): ContactColumns | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const length = Array.isArray(record.id) ? record.id.length : -1;
  const columns: Record<string, unknown[]> = {};
  for (const [key, { is }] of Object.entries(COLUMN_VALUES)) {
    const column = record[key];
    if (!Array.isArray(column) || column.length !== length) return undefined;
    for (let i = 0; i < length; i++) if (!is(column[i])) return undefined;
    columns[key] = column;
  }
  return columns as ContactColumns;
}

/** `contacts` as the columns of format 4 (a format-4 file, as tests and benchmarks make one). */
export function contactColumns(contacts: readonly DirectoryContact[]): ContactColumns {
  const column = <T>(read: (contact: DirectoryContact) => T): T[] => contacts.map(read);
  return {
    id: column((contact) => contact.id),
    phonebook: column((contact) => contact.phonebook),
    phonebook_name: column((contact) => contact.phonebook_name),
    display_name: column((contact) => contact.display_name),
    company: column((contact) => contact.company),
    number: column((contact) => contact.number),
    secondary_number: column((contact) => contact.secondary_number),
    speed_dial: column((contact) => contact.speed_dial),
  };
}

/** The contacts of a format-4 file's columns, in file order. */
export function contactRows(columns: ContactColumns): DirectoryContact[] {
  const rows = new Array<DirectoryContact>(columns.id.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = {
      id: columns.id[i]!,
      phonebook: columns.phonebook[i]!,
      phonebook_name: columns.phonebook_name[i]!,
      display_name: columns.display_name[i]!,
      company: columns.company[i]!,
      number: columns.number[i]!,
      secondary_number: columns.secondary_number[i] ?? null,
      speed_dial: columns.speed_dial[i] ?? null,
    };
  }
  return rows;
}

/** A format-3 file's contacts as the directory holds them (field by field, on purpose). */
export function contactsOfV3(file: CacheFileV3): DirectoryContact[] {
  return file.contacts.map((contact) => ({
    id: contact.id,
    phonebook: contact.phonebook,
    phonebook_name: contact.phonebook_name,
    display_name: contact.display_name,
    company: contact.company,
    number: contact.number,
    secondary_number: contact.secondary_number,
    speed_dial: contact.speed_dial,
  }));
}

/** Where a section of a format-5 file is: from `at` bytes after the header, `bytes` long. */
const SnapshotSection = z.object({
  at: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});

/**
 * Format 5's header (JSON, before the sections): whose directory, when, its phonebooks, how many
 * contacts and distinct phonebook names and companies, how the search texts were made (null:
 * none stored), and where each section is (directory-snapshot names them and their types).
 */
export const CacheFileV5Header = z.object({
  ...CacheHeader,
  contacts: z.number().int().nonnegative(),
  phonebook_names: z.number().int().nonnegative(),
  companies: z.number().int().nonnegative(),
  search: z.object({ stamp: z.string() }).nullable(),
  sections: z.record(z.string(), SnapshotSection),
});
export type CacheFileV5Header = z.infer<typeof CacheFileV5Header>;

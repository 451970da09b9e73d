/**
 * Contacts in and out: importing a file into a phonebook.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';

/** The contact fields a file's columns map to (core/contacts-io). */
export const ImportField = z.enum([
  'display_name',
  'number',
  'secondary_number',
  'speed_dial',
  'company',
]);
export type ImportField = z.infer<typeof ImportField>;

/**
 * Characters of the file's text, or of its bytes in base64, one `imports.upload` carries (the web
 * preview's bodies are ≤ 1 MB).
 */
export const IMPORT_UPLOAD_CHARS = 128 * 1024;

export const importId = z.string().min(1).max(64);

export const ImportCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  not_sent: z.number().int(),
});

/**
 * The encodings a file to import is read in (core/contacts-io/import-encoding.ts): the three a
 * file can say it is in (UTF-8, UTF-16 with its byte-order mark), Windows-1252 (what Callbar reads
 * a file in that is not UTF-8), and the legacy ones a person may choose instead when the names
 * read wrong: Central European and Cyrillic Windows, and Mac Roman (older Macs' programs).
 */
export const ImportEncoding = z.enum([
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'macintosh',
]);
export type ImportEncoding = z.infer<typeof ImportEncoding>;

export const ImportPreview = z.object({
  import_id: importId,
  format: z.enum(['csv', 'vcard']),
  /** The encoding the file's text was read in: the one chosen, else the one Callbar found. */
  encoding: ImportEncoding,
  /** Whether the person chose it (false: Callbar found it). */
  encoding_chosen: z.boolean(),
  headers: z.array(z.string()),
  mapping: z.partialRecord(ImportField, z.number().int()),
  /** What the import would do with every row. */
  counts: ImportCounts,
  /** The first rows, each with what would happen to it and why. */
  rows: z.array(
    z.object({
      row: z.number().int(),
      outcome: z.enum(['created', 'updated', 'skipped', 'failed', 'not_sent']),
      cells: z.record(ImportField, z.string()),
      reason: z.string().optional(),
    }),
  ),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const ImportsChangedEvent = z.object({
  type: z.literal('imports.changed'),
  import_id: importId,
  progress: ImportCounts.extend({
    done: z.number().int(),
    total: z.number().int(),
    waiting_ms: z.number().optional(),
  }).optional(),
  result: z
    .object({
      counts: ImportCounts,
      cancelled: z.boolean(),
      stopped: z.string().optional(),
      requests: z.number().int(),
      /** The rows not imported, as a CSV to save ('' when every row went in). */
      failures_csv: z.string(),
    })
    .optional(),
});
export type ImportsChangedEvent = z.infer<typeof ImportsChangedEvent>;

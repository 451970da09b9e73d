/**
 * Reading a file to import: nothing in it is trusted. The file must be a regular file of at most
 * IMPORT_LIMITS.maxBytes (checked on the open handle, so it cannot be swapped after the check),
 * text (UTF-8, UTF-16 with its byte-order mark, else Windows-1252, or the encoding the person
 * chose: import-encoding.ts says how, and the table says which was read), CSV or vCard (by its name, else by its first line);
 * it then becomes a table of at most IMPORT_LIMITS.maxRows rows and maxColumns columns (and a
 * CSV with a name in parts, one more: column-mapping.ts withComposedName).
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { CallbarError, errorMessage } from '../errors';
import { said } from '../text/said';
import { withComposedName } from './column-mapping';
import { parseCsv, type CsvTable } from './contact-csv';
import { parseVcards } from './contact-vcard';
import { decodeImport, type ImportEncoding } from './import-encoding';

export const IMPORT_LIMITS = {
  /** 10 MB: 20,000 contacts at 500 bytes each. */
  maxBytes: 10 * 1024 * 1024,
  maxRows: 20_000,
  maxColumns: 100,
  /** A cell longer than this fails its row (the platform keeps names of at most 255). */
  maxCellChars: 255,
} as const;

export type ImportFormat = 'csv' | 'vcard';

export interface ImportTable extends CsvTable {
  format: ImportFormat;
  /** The encoding the file's text was read in. */
  encoding: ImportEncoding;
  /** Whether that encoding was chosen (false: found). */
  encodingChosen: boolean;
}

/** Reads and parses `path` (its text in `encoding` when given). */
export async function readImportFile(
  path: string,
  encoding?: ImportEncoding,
): Promise<ImportTable> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new CallbarError(
      'import_unreadable',
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? said('errors:import.noFile', { path })
        : said('errors:import.cannotOpen', { path, reason: errorMessage(error) }),
    );
  }
  let bytes: Buffer;
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new CallbarError('import_unreadable', said('errors:import.notAFile', { path }));
    if (stats.size > IMPORT_LIMITS.maxBytes) throw tooLarge(stats.size);
    const buffer = Buffer.alloc(IMPORT_LIMITS.maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length);
      if (bytesRead === 0) break;
      length += bytesRead;
      // It grew while being read.
      if (length > IMPORT_LIMITS.maxBytes) throw tooLarge(length);
    }
    bytes = buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
  return parseImport(bytes, extname(path).toLowerCase(), encoding);
}

/**
 * Parses the bytes of a file to import; `extension` (".csv", ".vcf") names its format, and
 * `chosen`, when given, the encoding its text is in.
 */
export function parseImport(
  bytes: Uint8Array,
  extension = '',
  chosen?: ImportEncoding,
): ImportTable {
  if (bytes.length > IMPORT_LIMITS.maxBytes) throw tooLarge(bytes.length);
  const { text, encoding, chosen: encodingChosen } = decodeImport(bytes, chosen);
  if (text.trim() === '') throw new CallbarError('import_unreadable', said('errors:import.empty'));
  const format: ImportFormat =
    extension === '.vcf' || extension === '.vcard'
      ? 'vcard'
      : extension === '.csv'
        ? 'csv'
        : /^\s*BEGIN:VCARD/i.test(text)
          ? 'vcard'
          : 'csv';
  const table =
    format === 'vcard'
      ? parseVcards(text, IMPORT_LIMITS.maxRows)
      : withComposedName(parseCsv(text, IMPORT_LIMITS));
  return { format, encoding, encodingChosen, ...table };
}

function tooLarge(size: number): CallbarError {
  return new CallbarError(
    'import_too_large',
    said('errors:import.tooManyBytes', { size, max: IMPORT_LIMITS.maxBytes / 1024 / 1024 }),
  );
}

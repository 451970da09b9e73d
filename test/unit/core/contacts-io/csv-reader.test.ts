/**
 * The bounded CSV reader: what spreadsheets write (separators of any locale, quotes, line breaks
 * in a cell, CRLF/LF/CR), and each bound refused at once with the line it broke on.
 */
import { describe, expect, it } from 'vitest';
import { guessSeparator, readCsvRows } from '../../../../src-main/core/contacts-io/csv-reader';

const BOUNDS = { maxCells: 5, maxCellChars: 20, maxRowChars: 60 };
const rows = (text: string, bounds = BOUNDS) => [...readCsvRows(text, bounds)];

describe('reading CSV rows', () => {
  it('reads quoted cells, doubled quotes, line breaks inside a cell and every line end', () => {
    expect(rows('Name,Tel\r\n"Weber, Anna","+49 ""30"""\n"two\nlines",2\r3,')).toEqual([
      { cells: ['Name', 'Tel'], count: 2, line: 1 },
      { cells: ['Weber, Anna', '+49 "30"'], count: 2, line: 2 },
      { cells: ['two\nlines', '2'], count: 2, line: 3 },
      { cells: ['3', ''], count: 2, line: 5 },
    ]);
  });

  it('takes the separator the first row uses most, a comma when it uses none', () => {
    expect(guessSeparator('Name;Tel;Firma\nA,B;1;2', 100)).toBe(';');
    expect(guessSeparator('Name\tTel\n', 100)).toBe('\t');
    expect(guessSeparator('"a;b;c",Tel\n', 100)).toBe(',');
    expect(guessSeparator('Name\n', 100)).toBe(',');
    expect(rows('Name;Tel\nWeber, Anna;1\n').at(-1)?.cells).toEqual(['Weber, Anna', '1']);
  });

  it('keeps the cells it may and counts the rest', () => {
    expect(rows('a,b,c,d,e,f,g\n')).toEqual([
      { cells: ['a', 'b', 'c', 'd', 'e'], count: 7, line: 1 },
    ]);
  });

  it('stops at the first malformed quote or bound, naming the line', () => {
    expect(() => rows('a,b\n"open,1\n')).toThrow(
      'The CSV file is not well formed: a quoted cell is never closed (row 2).',
    );
    expect(() => rows('a,b\n"a"b,1\n')).toThrow(
      'The CSV file is not well formed: text follows the closing quote of a cell before the next separator (row 2).',
    );
    expect(() => rows(`a\n"${'x'.repeat(21)}"\n`)).toThrow(
      'The CSV file is not well formed: a cell is longer than 20 characters (row 2).',
    );
    expect(() => rows(`a\n${'x'.repeat(21)}\n`)).toThrow(
      /a cell is longer than 20 characters \(row 2\)/,
    );
    expect(() => rows(`a\n${'x,'.repeat(40)}\n`)).toThrow(
      'The CSV file is not well formed: a row is longer than 60 characters (row 2).',
    );
  });
});

import type { Translate } from '../core/text/said';
import { terminalField } from '../core/text/terminal-text';

/**
 * A plain-text table: a header row (each header's words under `tables.` in the `cli` catalog),
 * then one row per item, columns padded to fit. Every cell is a field (one line, its controls
 * shown as text): a value cannot start a row or a cell of its own.
 */
export function formatTable(
  t: Translate,
  headerKeys: string[],
  rows: (string | number | null | undefined)[][],
): string {
  const headers = headerKeys.map((key) => t(`tables.${key}`));
  const cells = rows.map((row) => row.map(terminalField));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join(
    '\n',
  );
}

/**
 * The rows an import did not bring in (failed, or not sent because it stopped), as a CSV: the
 * row's cells as the file had them under the export's headings, then the reason. Fixed, the
 * file imports as it is (the Row and Reason columns map to no field).
 */
import { csvTable } from '../text/spreadsheet-csv';
import { FIELD_HEADINGS, RECORD_FIELDS } from './contact-record';
import type { ImportResult } from './contact-import';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';

export function failuresCsv(result: ImportResult): string {
  const rows = result.rows
    .filter((row) => row.outcome === 'failed' || row.outcome === 'not_sent')
    .map((row) => [
      row.row,
      ...RECORD_FIELDS.map((field) => row.cells[field]),
      row.reason ?? (row.outcome === 'not_sent' ? inEnglish(said('errors:import.notSent')) : ''),
    ]);
  return csvTable([
    ['Row', ...RECORD_FIELDS.map((field) => FIELD_HEADINGS[field]), 'Reason'],
    ...rows,
  ]);
}

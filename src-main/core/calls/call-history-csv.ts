/**
 * The call history as CSV (RFC 4180, CRLF, UTF-8): one line per call, newest first, with the
 * other party as the directory knew them and the user's note. Cells a spreadsheet would run as a
 * formula (a coworker's contact name, a note) are written after an apostrophe, as the contact
 * export does (text/spreadsheet-csv.ts).
 */
import type { Call } from '../../../src-shared/contract';
import { CSV_FILE_MARK, csvTable } from '../text/spreadsheet-csv';

export const CALL_CSV_HEADINGS = [
  'Started',
  'Direction',
  'State',
  'Name',
  'Company',
  'Number',
  'Talk time (s)',
  'Reason',
  'Note',
] as const;

/** Seconds between connecting and ending, when both are known. */
function talkSeconds(call: Call): number | null {
  if (!call.connected_at || !call.ended_at) return null;
  const ms = Date.parse(call.ended_at) - Date.parse(call.connected_at);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : null;
}

/**
 * `calls` (newest first) as a CSV file's text, the heading line first; `file`: saved as a file,
 * so it begins with the mark Excel needs to read UTF-8 (CSV_FILE_MARK).
 */
export function callHistoryCsv(calls: readonly Call[], { file = false } = {}): string {
  return (
    (file ? CSV_FILE_MARK : '') +
    csvTable([
      [...CALL_CSV_HEADINGS],
      ...calls.map((call) => [
        call.started_at,
        call.direction,
        call.state,
        call.party.name ?? null,
        call.party.company ?? null,
        call.party.number || null,
        talkSeconds(call),
        call.reason ?? null,
        call.note ?? null,
      ]),
    ])
  );
}

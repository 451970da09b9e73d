/**
 * Files the window saves (a phonebook's contacts, every phonebook's, the recent calls), read by
 * the window piece by piece: `start` opens an export, `read` hands over the next piece of at
 * most EXPORT_PIECE_CHARS characters (so each answer fits the web preview's 1 MB bodies), and the
 * window joins the pieces into the file it saves (its download: a save dialog in the desktop
 * shell, the browser's download in the preview). Core holds one page of contacts and one piece
 * at a time, whatever the export's size. At most MAX_OPEN_EXPORTS are open; an export not read
 * for IDLE_MS is closed.
 */
import { randomUUID } from 'node:crypto';
import {
  EXPORT_PIECE_CHARS,
  type Call,
  type ExportPiece,
  type ExportRequest,
} from '../../../src-shared/contract';
import type { PhonebookApi } from '../api/phonebook-api';
import { callHistoryCsv } from '../calls/call-history-csv';
import { exportContacts } from '../contacts-io/contact-export';
import { CallbarError } from '../errors';
import { said } from '../text/said';

/** Exports open at once; starting another closes the oldest. */
export const MAX_OPEN_EXPORTS = 3;
/** An export nobody read for this long is closed. */
export const IDLE_MS = 5 * 60_000;

/** An export as its source gives it: the file's name and its text in pieces. */
export interface ExportSource {
  file_name: string;
  pieces: AsyncIterator<string> | Iterator<string>;
  /** Contacts or calls written so far. */
  items: () => number;
}

interface OpenExport extends ExportSource {
  /** Text taken from the source and not yet handed over. */
  rest: string;
  read_at: number;
}

/**
 * What `request` exports: contacts streamed from the platform page by page (one phonebook, or
 * every one), or the recent calls (`recent`, with their notes) as CSV.
 */
export function exportSource(
  request: ExportRequest,
  sources: {
    api: PhonebookApi;
    recent: () => readonly Call[];
    /** The phonebook's name, when the request is for one (its file is named for it). */
    phonebookName?: string | undefined;
  },
): ExportSource {
  if (request.what === 'calls') {
    const recent = sources.recent();
    return {
      file_name: 'callbar-recent-calls.csv',
      // Saved as a file, which Excel opens too (spreadsheet-csv.ts).
      pieces: [callHistoryCsv(recent, { file: true })][Symbol.iterator](),
      items: () => recent.length,
    };
  }
  const { phonebook, format } = request;
  let contacts = 0;
  return {
    file_name: `${phonebook === undefined ? 'phonebooks' : fileNameOf(sources.phonebookName, `phonebook-${phonebook}`)}.${format === 'csv' ? 'csv' : 'vcf'}`,
    pieces: exportContacts(sources.api, {
      format,
      // Saved as a file, which Excel opens too (contact-export.ts).
      byteOrderMark: true,
      ...(phonebook === undefined ? {} : { phonebook }),
      onContact: () => contacts++,
    }),
    items: () => contacts,
  };
}

/** Characters no file name may hold on one of the systems Callbar runs on, and control ones. */
// eslint-disable-next-line no-control-regex
const NOT_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|\u202a-\u202e\u2066-\u2069]+/g;
const MAX_FILE_NAME_CHARS = 80;

/**
 * A phonebook's name as a file's ("Customers" → "Customers"; "A/B: north" → "A-B- north"), or
 * `fallback` when nothing of it is left (a name of dots or of characters files cannot hold).
 */
export function fileNameOf(name: string | undefined, fallback: string): string {
  const safe = (name ?? '')
    .replace(NOT_IN_FILE_NAMES, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s-]+|[.\s]+$/g, '')
    .slice(0, MAX_FILE_NAME_CHARS)
    .trim();
  return safe === '' ? fallback : safe;
}

export class WindowExports {
  readonly #exports = new Map<string, OpenExport>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Opens `source` for reading; its id and file name. */
  start(source: ExportSource): { export_id: string; file_name: string } {
    const now = this.#now();
    for (const [id, open] of this.#exports) {
      if (now - open.read_at > IDLE_MS) this.#close(id);
    }
    while (this.#exports.size >= MAX_OPEN_EXPORTS) this.#close(this.#exports.keys().next().value!);
    const id = randomUUID();
    this.#exports.set(id, { ...source, rest: '', read_at: now });
    return { export_id: id, file_name: source.file_name };
  }

  /**
   * The next piece of export `id`; the last has `done` and closes it. A failure of the source
   * (the platform, a phonebook deleted meanwhile) closes it and is thrown.
   * @throws CallbarError `export_unknown` when the export is not open (done, closed, expired).
   */
  async read(id: string): Promise<ExportPiece> {
    const open = this.#exports.get(id);
    if (!open) {
      throw new CallbarError('export_unknown', said('errors:export.notOpen'));
    }
    open.read_at = this.#now();
    let done = false;
    try {
      while (open.rest.length < EXPORT_PIECE_CHARS) {
        const next = await open.pieces.next();
        if (next.done) {
          done = true;
          break;
        }
        open.rest += next.value;
      }
    } catch (error) {
      this.#close(id);
      throw error;
    }
    const text = open.rest.slice(0, EXPORT_PIECE_CHARS);
    open.rest = open.rest.slice(text.length);
    const last = done && open.rest.length === 0;
    if (last) this.#exports.delete(id);
    return { text, done: last, items: open.items() };
  }

  #close(id: string): void {
    const open = this.#exports.get(id);
    this.#exports.delete(id);
    void Promise.resolve(open?.pieces.return?.(undefined)).catch(() => undefined);
  }
}

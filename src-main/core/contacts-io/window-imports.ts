/**
 * Imports started from the window. The renderer reads the file the person picked and hands its
 * bytes over in pieces, in base64 (each request stays small, as the web preview's bodies must),
 * bounded by IMPORT_LIMITS.maxBytes in all; core reads their encoding as it reads a file's (a
 * piece may also be UTF-8 text); a preview parses and checks every row (nothing is sent); a start
 * runs the checked plan in the background, its progress and result arriving as events; one
 * import runs at a time. Uploads and plans are kept in memory only, at most MAX_PENDING at once.
 */
import { randomUUID } from 'node:crypto';
import type { CountryCode } from 'libphonenumber-js/max';
import type { PhonebookApi } from '../api/phonebook-api';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { adjustMapping, guessMapping, type ColumnMapping } from './column-mapping';
import { dryRun, runImport, type ImportProgress, type ImportResult } from './contact-import';
import type { RECORD_FIELDS } from './contact-record';
import type { ImportEncoding } from './import-encoding';
import { IMPORT_LIMITS, parseImport } from './import-file';
import { phonebookContacts, planImport, type ImportPlan, type OnDuplicate } from './import-plan';
import { failuresCsv } from './import-report';

/** Uploads and previews kept at once (an abandoned dialog's are dropped, oldest first). */
const MAX_PENDING = 4;
/** Rows a preview shows (the counts cover every row). */
export const PREVIEW_ROWS = 200;

export type ImportEvent =
  | { import_id: string; progress: ImportProgress }
  | { import_id: string; result: ImportSummary };

/** What the window shows of a finished import (and the failures, ready to save). */
export interface ImportSummary {
  counts: ImportResult['counts'];
  cancelled: boolean;
  stopped?: string;
  requests: number;
  failures_csv: string;
}

interface Pending {
  name: string;
  chunks: Buffer[];
  bytes: number;
  plan?: ImportPlan;
  abort?: AbortController;
}

export class WindowImports {
  readonly #pending = new Map<string, Pending>();
  readonly #api: PhonebookApi;
  readonly #region: () => CountryCode;
  readonly #publish: (event: ImportEvent) => void;
  #running = false;

  constructor(options: {
    api: PhonebookApi;
    region: () => CountryCode;
    publish: (event: ImportEvent) => void;
  }) {
    this.#api = options.api;
    this.#region = options.region;
    this.#publish = options.publish;
  }

  /** Adds a piece of the file's text; the first piece (no id) opens an upload. */
  upload(request: {
    import_id?: string | undefined;
    file_name: string;
    text?: string | undefined;
    base64?: string | undefined;
  }): {
    import_id: string;
  } {
    let id = request.import_id;
    if (id === undefined) {
      id = randomUUID();
      this.#pending.set(id, { name: request.file_name, chunks: [], bytes: 0 });
      for (const old of this.#pending.keys()) {
        if (this.#pending.size <= MAX_PENDING) break;
        if (!this.#pending.get(old)!.abort) this.#pending.delete(old);
      }
    }
    const pending = this.#get(id);
    const piece =
      request.base64 === undefined
        ? Buffer.from(request.text ?? '', 'utf8')
        : Buffer.from(request.base64, 'base64');
    pending.bytes += piece.length;
    if (pending.bytes > IMPORT_LIMITS.maxBytes) {
      this.#pending.delete(id);
      throw new CallbarError(
        'import_too_large',
        said('errors:import.uploadTooLarge', { max: IMPORT_LIMITS.maxBytes / 1024 / 1024 }),
      );
    }
    pending.chunks.push(piece);
    return { import_id: id };
  }

  /** Parses the upload and checks every row against the phonebook; nothing is sent. */
  async preview(request: {
    import_id: string;
    phonebook: number;
    on_duplicate: OnDuplicate;
    mapping?: Partial<Record<(typeof RECORD_FIELDS)[number], number | null>> | undefined;
    /** The file's encoding as the person chose it (undefined: found). */
    encoding?: ImportEncoding | undefined;
  }) {
    const pending = this.#get(request.import_id);
    const extension = /\.[^.]*$/.exec(pending.name)?.[0]?.toLowerCase() ?? '';
    const table = parseImport(Buffer.concat(pending.chunks), extension, request.encoding);
    const changes = Object.fromEntries(
      Object.entries(request.mapping ?? {}).map(([field, column]) => [
        field,
        column === null || column === undefined ? '' : String(column + 1),
      ]),
    );
    const mapping: ColumnMapping = adjustMapping(
      table.headers,
      guessMapping(table.headers),
      changes,
    );
    const existing = await phonebookContacts(this.#api, request.phonebook);
    const plan = planImport(table, mapping, {
      phonebook: request.phonebook,
      existing,
      region: this.#region(),
      onDuplicate: request.on_duplicate,
    });
    pending.plan = plan;
    const planned = dryRun(plan);
    return {
      import_id: request.import_id,
      format: table.format,
      encoding: table.encoding,
      encoding_chosen: table.encodingChosen,
      headers: table.headers,
      mapping,
      counts: planned.counts,
      rows: planned.rows.slice(0, PREVIEW_ROWS).map((row) => ({
        row: row.row,
        outcome: row.outcome,
        cells: row.cells,
        ...(row.reason ? { reason: row.reason } : {}),
      })),
    };
  }

  /** Starts the previewed import; progress and the result arrive as events. */
  start(importId: string): void {
    const pending = this.#get(importId);
    if (!pending.plan) {
      throw new CallbarError('import_not_previewed', said('errors:import.notPreviewed'));
    }
    if (this.#running) {
      throw new CallbarError('import_running', said('errors:import.running'));
    }
    this.#running = true;
    const abort = new AbortController();
    pending.abort = abort;
    runImport(pending.plan, this.#api, {
      signal: abort.signal,
      onProgress: (progress) => this.#publish({ import_id: importId, progress }),
    })
      .then((result) =>
        this.#publish({
          import_id: importId,
          result: {
            counts: result.counts,
            cancelled: result.cancelled,
            ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
            requests: result.requests,
            failures_csv:
              result.counts.failed + result.counts.not_sent > 0 ? failuresCsv(result) : '',
          },
        }),
      )
      .catch((error: unknown) =>
        this.#publish({
          import_id: importId,
          result: {
            counts: { created: 0, updated: 0, skipped: 0, failed: 0, not_sent: 0 },
            cancelled: false,
            stopped: error instanceof Error ? error.message : String(error),
            requests: 0,
            failures_csv: '',
          },
        }),
      )
      .finally(() => {
        this.#running = false;
        this.#pending.delete(importId);
      });
  }

  /** Stops a running import after the row being sent. */
  cancel(importId: string): void {
    this.#pending
      .get(importId)
      ?.abort?.abort(new CallbarError('import_cancelled', said('errors:import.cancelled')));
  }

  #get(id: string): Pending {
    const pending = this.#pending.get(id);
    if (!pending) {
      throw new CallbarError('import_unknown', said('errors:import.notOpen'));
    }
    return pending;
  }
}

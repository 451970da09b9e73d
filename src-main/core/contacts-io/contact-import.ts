/**
 * Carries out an import plan against the platform, one row at a time, paced under the rate limit.
 *
 * - A 429 waits for Retry-After (reported as a wait) and sends the row again, a bounded number
 *   of times; a POST the platform throttled was never carried out, so sending it again is safe.
 * - A speed dial Callbar chose that the platform refuses (a call flow, queue, user or contact
 *   elsewhere holds it) is swapped for the next free one and the row sent again, at most
 *   MAX_SPEED_DIAL_TRIES times.
 * - Any other refusal fails that row with the platform's reason, and the import goes on.
 * - A failure that is not about the row (no connection, an answer that never came, the session
 *   gone) stops the import there: the row in flight is reported as "may have been created" when
 *   the request may have reached the platform, the rest as not sent.
 * - Cancelling (the signal) stops before the next request; the rest is reported as not sent.
 *
 * The result lists every row with what happened to it, so nothing is left half-done without the
 * person being told; importing the same file again finishes the job (rows already there are
 * skipped by number).
 */
import {
  ApiError,
  fieldOfAttr,
  NetworkError,
  RateLimitedError,
  TimeoutError,
} from '../api/api-errors';
import type { PhonebookApi } from '../api/phonebook-api';
import { explainPlatformError } from '../api/platform-messages';
import type { Contact, ContactInput } from '../api/schemas';
import { systemClock, type Clock } from '../clock';
import { RequestPacer } from '../directory/request-pacer';
import { SYNC_BUDGET } from '../directory/directory';
import { describeError } from '../errors';
import { said } from '../text/said';
import { holdSentences, inEnglish, spokenSaid } from '../text/translators';
import type { ContactRecord, RecordField } from './contact-record';
import type { ImportPlan, PlannedRow } from './import-plan';

export type RowOutcome = 'created' | 'updated' | 'skipped' | 'failed' | 'not_sent';

export interface ImportedRow {
  row: number;
  outcome: RowOutcome;
  cells: Record<RecordField, string>;
  /** What was sent, or would be (a dry run). */
  record?: ContactRecord;
  /** The contact as the platform has it now (created, updated). */
  contact?: Contact;
  reason?: string;
}

export interface ImportCounts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  not_sent: number;
}

export interface ImportProgress extends ImportCounts {
  /** Rows handled so far, of `total`. */
  done: number;
  total: number;
  /** Set while the import waits for the platform's rate limit: for how long, in ms. */
  waiting_ms?: number;
}

export interface ImportResult {
  phonebook: number;
  dry_run: boolean;
  /** The person stopped it. */
  cancelled: boolean;
  /** Why it stopped before the end, when something other than a row failed. */
  stopped?: string;
  counts: ImportCounts;
  /** Requests sent to write contacts (429s and repeats included). */
  requests: number;
  rows: ImportedRow[];
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** Whose time the pacing and Retry-After waits use (default: real time). */
  clock?: Clock;
  /** The pace of writes (default: the sync's budget, under the tightest platform limit seen). */
  pacer?: RequestPacer;
  /** 429s in a row on one row before it fails. */
  maxRateLimitWaits?: number;
}

/** Speed dials tried on one row before it fails. */
export const MAX_SPEED_DIAL_TRIES = 20;
const MAX_RATE_LIMIT_WAITS = 5;

/** What the plan would do, without sending anything. */
export function dryRun(plan: ImportPlan): ImportResult {
  const rows = plan.rows.map((planned): ImportedRow => ({
    row: planned.row,
    outcome:
      planned.action === 'create'
        ? 'created'
        : planned.action === 'update'
          ? 'updated'
          : planned.action === 'skip'
            ? 'skipped'
            : 'failed',
    cells: planned.cells,
    ...(planned.record ? { record: planned.record } : {}),
    ...(planned.reason ? { reason: planned.reason } : {}),
  }));
  return {
    phonebook: plan.phonebook,
    dry_run: true,
    cancelled: false,
    counts: countsOf(rows),
    requests: 0,
    rows,
  };
}

export async function runImport(
  plan: ImportPlan,
  api: PhonebookApi,
  options: RunOptions = {},
): Promise<ImportResult> {
  const clock = options.clock ?? systemClock;
  const pacer = options.pacer ?? new RequestPacer({ ...SYNC_BUDGET, clock });
  const maxWaits = options.maxRateLimitWaits ?? MAX_RATE_LIMIT_WAITS;
  const signal = options.signal ?? new AbortController().signal;
  const rows: ImportedRow[] = [];
  const counts: ImportCounts = { created: 0, updated: 0, skipped: 0, failed: 0, not_sent: 0 };
  let requests = 0;
  let cancelled = false;
  let stopped: string | undefined;
  const report = (waiting_ms?: number) =>
    options.onProgress?.({
      ...counts,
      done: rows.length,
      total: plan.rows.length,
      ...(waiting_ms === undefined ? {} : { waiting_ms }),
    });
  // Each row's reason is kept as soon as it is said: the window words the result again later.
  const hold = holdSentences('import run');
  const add = (row: ImportedRow) => {
    hold(row.reason);
    rows.push(row);
    counts[row.outcome]++;
  };

  /** Sends one row's request, waiting out 429s; throws what the platform answered otherwise. */
  const send = async (planned: PlannedRow, record: ContactRecord): Promise<Contact> => {
    const input: ContactInput = {
      phonebook: plan.phonebook,
      display_name: record.display_name,
      number: record.number,
      secondary_number: record.secondary_number,
      speed_dial: record.speed_dial!,
      company: record.company,
    };
    for (let waits = 0; ; waits++) {
      await pacer.take(signal);
      requests++;
      try {
        return planned.action === 'update'
          ? await api.updateContact(planned.existing!.id, input)
          : await api.createContact(input);
      } catch (error) {
        if (!(error instanceof RateLimitedError) || waits >= maxWaits) throw error;
        report(error.retryAfterMs);
        await clock.sleep(error.retryAfterMs, signal);
      }
    }
  };

  report();
  for (const planned of plan.rows) {
    const base = { row: planned.row, cells: planned.cells };
    if (stopped !== undefined || cancelled) {
      add({ ...base, outcome: 'not_sent', ...(planned.record ? { record: planned.record } : {}) });
      continue;
    }
    if (planned.action === 'fail' || planned.action === 'skip') {
      add({
        ...base,
        outcome: planned.action === 'fail' ? 'failed' : 'skipped',
        ...(planned.record ? { record: planned.record } : {}),
        ...(planned.reason ? { reason: planned.reason } : {}),
      });
      report();
      continue;
    }
    let record = planned.record!;
    for (let tries = 1; ; tries++) {
      if (signal.aborted) {
        cancelled = true;
        add({ ...base, outcome: 'not_sent', record });
        break;
      }
      try {
        const contact = await send(planned, record);
        add({
          ...base,
          outcome: planned.action === 'update' ? 'updated' : 'created',
          record,
          contact,
          // What of the row the platform could not keep (an extension after the number).
          ...(planned.reason ? { reason: planned.reason } : {}),
        });
        break;
      } catch (error) {
        if (signal.aborted) {
          cancelled = true;
          add({ ...base, outcome: 'not_sent', record });
          break;
        }
        if (planned.assignedSpeedDial && refusesSpeedDial(error) && tries < MAX_SPEED_DIAL_TRIES) {
          plan.pool.markTaken(record.speed_dial!);
          const next = plan.pool.take();
          if (next !== undefined) {
            record = { ...record, speed_dial: next };
            continue;
          }
        }
        if (error instanceof ApiError && !error.authenticationFailed && error.status < 500) {
          add({
            ...base,
            outcome: 'failed',
            record,
            reason: describeError(explainPlatformError(error)).message,
          });
          break;
        }
        // Not about this row: the import stops here and says so.
        stopped = describeError(error).message;
        const mayExist = error instanceof TimeoutError || error instanceof NetworkError;
        add({
          ...base,
          outcome: 'failed',
          record,
          reason: mayExist
            ? inEnglish(said('errors:import.noAnswer', { problem: spokenSaid(stopped) }))
            : stopped,
        });
        break;
      }
    }
    report();
  }
  return {
    phonebook: plan.phonebook,
    dry_run: false,
    cancelled,
    ...(stopped !== undefined ? { stopped } : {}),
    counts,
    requests,
    rows,
  };
}

/** The platform refused the row's speed dial (held elsewhere). */
function refusesSpeedDial(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 400 &&
    error.errors.some((each) => fieldOfAttr(each.attr) === 'speed_dial')
  );
}

function countsOf(rows: readonly ImportedRow[]): ImportCounts {
  const counts: ImportCounts = { created: 0, updated: 0, skipped: 0, failed: 0, not_sent: 0 };
  for (const row of rows) counts[row.outcome]++;
  return counts;
}

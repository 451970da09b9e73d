/**
 * The calls Callbar knows, as kept in `<dataDir>/calls.json`: current calls (so the CLI can hang
 * up a call the app or `dial --follow` saw) and recent ones (capped, clearable). The app and the
 * CLI may both write it: every write merges with what is on disk (the newer version of a call
 * wins), and replaces the file atomically. Each call records its owner (account and platform), per
 * call rather than per file: two processes of a profile may briefly disagree on the account, and
 * a merge then keeps each call with its own owner instead of relabelling the other's.
 */
import { renameSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lock } from 'proper-lockfile';
import { writeFileAtomic } from '../files/atomic-write';
import { NewerFileFormat, setAsideName } from '../config/file-format';
import { readFileNoFollowSync } from '../files/no-follow-file';
import { CallLogFormat, EMPTY_CALL_LOG, type CallLog, type CallRecord } from './call-log-format';
import type { Logger } from '../log/logger';

const MAX_RETIRED_LEGS = 500;
/** Ended calls kept in the recent list. */
export const MAX_RECENT_CALLS = 100;
/**
 * What `calls.json` may hold, as JSON: beyond it the oldest ended calls roll off. Each call is
 * bounded on its own (events, legs, delivery keys), so this is reached only by calls unusually
 * full of events; current calls (at most 20) always fit.
 */
export const MAX_CALL_LOG_BYTES = 1024 * 1024;
/** What the calls may take of it: the rest is for the retirement lists (500 ids each, bounded). */
const MAX_CALLS_BYTES = MAX_CALL_LOG_BYTES - 96 * 1024;

/** A `calls.json` larger than this is not read into memory (refused, and set aside below). */
const MAX_CALL_LOG_FILE_BYTES = 16 * 1024 * 1024;

export function isFinished(record: CallRecord): boolean {
  return record.call.state === 'ended' || record.call.state === 'failed';
}

/**
 * Two versions of the log as one: per call the newer version, the later clear, both retirements,
 * the newest recent calls up to the cap.
 */
export function mergeCallLogs(mine: CallLog, theirs: CallLog): CallLog {
  const cleared = Math.max(mine.cleared_ms, theirs.cleared_ms);
  const removed = [...new Set([...mine.removed_ids, ...theirs.removed_ids])].slice(
    -MAX_RETIRED_LEGS,
  );
  const gone = new Set(removed);
  const byId = new Map<string, CallRecord>();
  for (const record of [...theirs.calls, ...mine.calls]) {
    const known = byId.get(record.call.id);
    if (!known || supersedes(record, known)) byId.set(record.call.id, record);
  }
  let recent = 0;
  const kept = [...byId.values()]
    .filter((record) => !gone.has(record.call.id))
    .filter((record) => !(isFinished(record) && record.updated_ms <= cleared))
    .sort((a, b) => b.started_ms - a.started_ms)
    .filter((record) => !isFinished(record) || ++recent <= MAX_RECENT_CALLS);
  const { calls, rolledOff } = withinBytes(kept);
  const retired = [
    ...new Set([
      ...mine.retired_legs,
      ...theirs.retired_legs,
      ...rolledOff.flatMap((record) => record.call.leg_ids),
    ]),
  ];
  return {
    calls,
    cleared_ms: cleared,
    retired_legs: retired.slice(-MAX_RETIRED_LEGS),
    removed_ids: [...removed, ...rolledOff.map((record) => record.call.id)].slice(
      -MAX_RETIRED_LEGS,
    ),
  };
}

/** The calls (newest first) with the oldest ended ones rolled off until they fit the byte cap. */
function withinBytes(calls: CallRecord[]): { calls: CallRecord[]; rolledOff: CallRecord[] } {
  const sizes = calls.map((record) => JSON.stringify(record).length);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  const rolledOff = new Set<CallRecord>();
  for (let index = calls.length - 1; index >= 0 && total > MAX_CALLS_BYTES; index--) {
    const record = calls[index]!;
    if (!isFinished(record)) continue;
    rolledOff.add(record);
    total -= sizes[index]!;
  }
  return {
    calls: calls.filter((record) => !rolledOff.has(record)),
    rolledOff: [...rolledOff],
  };
}

/**
 * Whether `record` is the better version of `known`: an ended call stays ended (late news in
 * another process must not undo a hangup made here); otherwise the newer version wins.
 */
function supersedes(record: CallRecord, known: CallRecord): boolean {
  if (isFinished(record) !== isFinished(known)) return isFinished(record);
  return record.updated_ms >= known.updated_ms;
}

export class CallLogFile {
  readonly path: string;
  readonly #log: Logger;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, log: Logger) {
    this.path = join(dataDir, 'calls.json');
    this.#log = log;
  }

  /** The log on disk; a missing file is empty, a damaged one is set aside (and said so). */
  read(): CallLog {
    let text: string;
    try {
      const read = readFileNoFollowSync(this.path, MAX_CALL_LOG_FILE_BYTES);
      if (read === undefined) return EMPTY_CALL_LOG;
      text = read;
    } catch (error) {
      this.#log.warn('the call log could not be read', { error });
      return EMPTY_CALL_LOG;
    }
    try {
      return CallLogFormat.parse(JSON.parse(text));
    } catch (error) {
      if (error instanceof NewerFileFormat) {
        // A newer Callbar's log: kept whole under its own name, never merged into or overwritten.
        const aside = setAsideName(this.path, error.version);
        try {
          renameSync(this.path, aside);
        } catch {
          // Another process set it aside first.
        }
        this.#log.warn(`the call log was ${error.message}: kept aside, a new one started`, {
          file: aside,
        });
        return EMPTY_CALL_LOG;
      }
      const aside = `${this.path}.damaged-${Date.now()}`;
      try {
        renameSync(this.path, aside);
      } catch {
        // Another process set it aside first.
      }
      this.#log.warn('the call log was damaged; it was set aside and a new one started', {
        file: aside,
      });
      return EMPTY_CALL_LOG;
    }
  }

  /**
   * Merges `log` with the file and writes the result; resolves with what was written. The read,
   * merge and write run under a lock on the file, so two processes never lose each other's change.
   */
  write(log: CallLog): Promise<CallLog> {
    const run = this.#queue.then(async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const release = await lock(this.path, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 50, minTimeout: 10, maxTimeout: 200 },
      });
      try {
        const merged = mergeCallLogs(log, this.read());
        await writeFileAtomic(this.path, JSON.stringify(CallLogFormat.serialize(merged)) + '\n', {
          mode: 0o600,
          dirMode: 0o700,
        });
        return merged;
      } finally {
        await release();
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

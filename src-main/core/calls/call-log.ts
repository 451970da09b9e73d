/**
 * The calls Callbar knows, as kept in `<dataDir>/calls.json`: current calls (so the CLI can hang
 * up a call the app or `dial --follow` saw) and recent ones (capped, clearable). The app and the
 * CLI may both write it: every write merges with what is on disk (the newer version of a call
 * wins), and replaces the file atomically. Each call records its owner (account and platform), per
 * call rather than per file: two processes of a profile may briefly disagree on the account, and
 * a merge then keeps each call with its own owner instead of relabelling the other's.
 *
 * One call is one record, however many processes saw it: two records that share a leg id (or the
 * platform's call id) are the same call, seen by two processes before either saw the other's
 * (the window heard the platform's events of a call `callbar dial` placed); a merge makes them one,
 * the dial's own record keeping its id, with the legs, events and end state of both.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { contentStamp } from '../files/file-stamp';
import { withFileLock } from '../files/lockfile';
import { NewerFileFormat, setAsideName } from '../config/file-format';
import { readFileNoFollowSync } from '../files/no-follow-file';
import { keepNewestAside, setAsideIfStill } from '../files/kept-aside';
import {
  CallLogFormat,
  EMPTY_CALL_LOG,
  type CallLog,
  type CallRecord,
  type LegRecord,
} from './call-log-format';
import { isFinished, laterClearing } from './recent-clearing';

export { isFinished, hiddenByClearing } from './recent-clearing';
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

/** A damaged log is set aside as `calls.json.damaged-<time>`; the newest few are kept. */
const DAMAGED_PREFIX = '.damaged-';
export const DAMAGED_COPIES_KEPT = 3;

/**
 * Two versions of the log as one: per call the newer version, the later clear, both retirements,
 * the newest recent calls up to the cap.
 */
export function mergeCallLogs(mine: CallLog, theirs: CallLog): CallLog {
  const cleared = Math.max(mine.cleared_ms, theirs.cleared_ms);
  const clearing = laterClearing(mine.clearing, theirs.clearing);
  const removed = [...new Set([...mine.removed_ids, ...theirs.removed_ids])].slice(
    -MAX_RETIRED_LEGS,
  );
  const gone = new Set(removed);
  const byId = new Map<string, CallRecord>();
  for (const record of [...theirs.calls, ...mine.calls]) {
    const known = byId.get(record.call.id);
    if (!known || supersedes(record, known)) byId.set(record.call.id, record);
  }
  const { calls: single, absorbed } = oneRecordPerCall(
    [...byId.values()].filter((record) => !gone.has(record.call.id)),
  );
  for (const id of absorbed) removed.push(id);
  let recent = 0;
  const kept = single
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
    ...(clearing ? { clearing } : {}),
    retired_legs: retired.slice(-MAX_RETIRED_LEGS),
    removed_ids: [...removed, ...rolledOff.map((record) => record.call.id)].slice(
      -MAX_RETIRED_LEGS,
    ),
  };
}

/**
 * The records with each call once: records sharing a leg id or the platform's call id are merged
 * (sameCall); `absorbed` are the ids of the records merged into another.
 */
export function oneRecordPerCall(records: readonly CallRecord[]): {
  calls: CallRecord[];
  absorbed: string[];
} {
  const calls: CallRecord[] = [];
  const absorbed: string[] = [];
  for (const record of records) {
    let merged = record;
    for (let i = calls.length - 1; i >= 0; i--) {
      if (!sharesCall(calls[i]!, merged)) continue;
      const [kept, other] = keeperFirst(calls[i]!, merged);
      absorbed.push(other.call.id);
      merged = sameCall(kept, other);
      calls.splice(i, 1);
    }
    calls.push(merged);
  }
  return { calls, absorbed };
}

function sharesCall(a: CallRecord, b: CallRecord): boolean {
  if (a.platform_call_id && a.platform_call_id === b.platform_call_id) return true;
  return a.legs.some((leg) => b.legs.some((other) => other.id === leg.id));
}

/** The record whose id the call keeps: the one Callbar placed, else the one that began first. */
function keeperFirst(a: CallRecord, b: CallRecord): [CallRecord, CallRecord] {
  const placed = (record: CallRecord) => record.call.source !== undefined;
  if (placed(a) !== placed(b)) return placed(a) ? [a, b] : [b, a];
  if (a.started_ms !== b.started_ms) return a.started_ms < b.started_ms ? [a, b] : [b, a];
  return a.call.id <= b.call.id ? [a, b] : [b, a];
}

/** Leg states, the later first: an ended leg stays ended. */
const LEG_ORDER = ['ended', 'bridged', 'answered', 'ringing'] as const;

/**
 * Two records of one call as one: `kept`'s id, source and direction; the legs and events of both;
 * the newer state (an ended call stays ended), so its end is the one the platform's events or the
 * hangup said last.
 */
function sameCall(kept: CallRecord, other: CallRecord): CallRecord {
  const legs: LegRecord[] = kept.legs.map((leg) => ({ ...leg }));
  for (const leg of other.legs) {
    const known = legs.find((each) => each.id === leg.id);
    if (!known) {
      legs.push({ ...leg });
      continue;
    }
    const rank = (state: LegRecord['state']) =>
      state === undefined ? LEG_ORDER.length : LEG_ORDER.indexOf(state);
    if (rank(leg.state) < rank(known.state)) known.state = leg.state;
    known.sequence = Math.max(known.sequence ?? -Infinity, leg.sequence ?? -Infinity);
    if (!Number.isFinite(known.sequence)) delete known.sequence;
    known.own ??= leg.own;
    known.role ??= leg.role;
    if (!leg.guessed) delete known.guessed;
  }
  const later = supersedes(other, kept) ? other : kept;
  const earlier = later === kept ? other : kept;
  const connected = [kept.call.connected_at, other.call.connected_at].filter(
    (at): at is string => at !== undefined,
  );
  const party =
    kept.call.party.name || (kept.call.party.number && !other.call.party.name)
      ? kept.call.party
      : other.call.party;
  const events = [...earlier.events];
  for (const event of later.events) {
    if (!events.some((each) => JSON.stringify(each) === JSON.stringify(event))) events.push(event);
  }
  return {
    ...kept,
    call: {
      ...kept.call,
      party,
      state: later.call.state,
      leg_ids: legs.map((leg) => leg.id),
      started_at: (kept.started_ms <= other.started_ms ? kept : other).call.started_at,
      ...(connected.length > 0 ? { connected_at: connected.sort()[0]! } : {}),
      ...(later.call.ended_at ? { ended_at: later.call.ended_at } : {}),
      ...(later.call.reason ? { reason: later.call.reason } : {}),
    },
    ...(kept.platform_call_id || other.platform_call_id
      ? { platform_call_id: kept.platform_call_id ?? other.platform_call_id }
      : {}),
    ...(kept.events_name_call || other.events_name_call ? { events_name_call: true } : {}),
    legs,
    started_ms: Math.min(kept.started_ms, other.started_ms),
    updated_ms: Math.max(kept.updated_ms, other.updated_ms),
    news_ms: Math.max(kept.news_ms, other.news_ms),
    delivery_keys: [...new Set([...kept.delivery_keys, ...other.delivery_keys])].slice(-64),
    events: events.slice(-30),
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
  /** The file as this process last read or wrote it (inode, size, time). */
  #seen: string | undefined;

  constructor(dataDir: string, log: Logger) {
    this.path = join(dataDir, 'calls.json');
    this.#log = log;
  }

  /**
   * The log on disk when another process changed it since this one last read or wrote it
   * (a stat, no read, when nothing changed); else undefined.
   */
  readIfChanged(): CallLog | undefined {
    return this.#stamp() === this.#seen ? undefined : this.read();
  }

  #stamp(): string {
    return contentStamp(this.path) ?? 'none';
  }

  /**
   * The log on disk; a missing file is empty, a damaged or unreadable one is set aside (and said
   * so), the newest {@link DAMAGED_COPIES_KEPT} of those kept.
   */
  read(): CallLog {
    this.#seen = this.#stamp();
    let text: string;
    try {
      const read = readFileNoFollowSync(this.path, MAX_CALL_LOG_FILE_BYTES);
      if (read === undefined) return EMPTY_CALL_LOG;
      text = read;
    } catch (error) {
      // Too large, not a regular file, not readable: set aside too, or the next write replaces it.
      this.#setDamagedAside(undefined, error);
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
      this.#setDamagedAside(text);
      return EMPTY_CALL_LOG;
    }
  }

  /**
   * Moves the log this process found (`text`, or undefined: one it could not read) to
   * `calls.json.damaged-<time>`, unless another process set it aside first (and maybe wrote a new
   * one meanwhile), and removes the older damaged copies beyond the newest few.
   */
  #setDamagedAside(text: string | undefined, readError?: unknown): void {
    const aside = `${this.path}${DAMAGED_PREFIX}${Date.now()}`;
    let moved: boolean;
    try {
      moved = setAsideIfStill(this.path, text, aside, MAX_CALL_LOG_FILE_BYTES);
    } catch (error) {
      this.#log.warn('the call log cannot be read and could not be set aside', { error });
      return;
    }
    if (!moved) {
      if (readError !== undefined)
        this.#log.warn('the call log could not be read', { error: readError });
      return;
    }
    keepNewestAside(this.path, DAMAGED_PREFIX, DAMAGED_COPIES_KEPT);
    this.#log.warn('the call log was damaged; it was set aside and a new one started', {
      file: aside,
      ...(readError === undefined ? {} : { error: readError }),
    });
  }

  /**
   * Merges `log` with the file and writes the result; resolves with what was written. The read,
   * merge and write run under a lock on the file, so two processes never lose each other's change.
   */
  write(log: CallLog): Promise<CallLog> {
    const run = this.#queue.then(() =>
      withFileLock(this.path, async () => {
        const merged = mergeCallLogs(log, this.read());
        await writeFileAtomic(this.path, JSON.stringify(CallLogFormat.serialize(merged)) + '\n', {
          mode: 0o600,
          dirMode: 0o700,
        });
        this.#seen = this.#stamp();
        return merged;
      }),
    );
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

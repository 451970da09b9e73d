/**
 * Clearing the recent calls, undoably (issue 41): Clear hides the ended calls and keeps them in
 * the call log, with the notes on them, until its undo time is over; Undo shows them again; then
 * they are dropped for good (settled). Kept in the log rather than in a window's memory, so a
 * crash loses nothing, and every process of the profile sees the same clear (call-log.ts merges
 * two versions of it: the later wins).
 */
import { sameAccount, type AccountOwner } from '../account/account-history';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import type { CallLog, CallRecord, Clearing } from './call-log-format';

export function isFinished(record: CallRecord): boolean {
  return record.call.state === 'ended' || record.call.state === 'failed';
}

/** Of two versions of the last clear, the later (on a tie, the one no longer pending). */
export function laterClearing(
  a: Clearing | undefined,
  b: Clearing | undefined,
): Clearing | undefined {
  if (!a || !b) return a ?? b;
  if (a.at_ms !== b.at_ms) return a.at_ms > b.at_ms ? a : b;
  return a.state === 'pending' ? b : a;
}

/** Whether a pending clear hides `record` (an ended call it covers). */
export function hiddenByClearing(record: CallRecord, clearing: Clearing | undefined): boolean {
  return (
    clearing?.state === 'pending' && isFinished(record) && record.updated_ms <= clearing.covers_ms
  );
}

/** The log with its ended calls cleared, undoably until `undoMs` from `now`; unchanged if none. */
export function startClearing(log: CallLog, now: number, undoMs: number): CallLog {
  const cleared = log.calls.filter(isFinished);
  if (cleared.length === 0) return log;
  // Another process's clock may be behind: the clear covers every call it hides.
  const covers = Math.max(now, ...cleared.map((record) => record.updated_ms));
  const at = Math.max(now, (log.clearing?.at_ms ?? 0) + 1);
  return {
    ...log,
    clearing: { at_ms: at, covers_ms: covers, until_ms: now + undoMs, state: 'pending' },
  };
}

/**
 * The log with its pending clear undone.
 * @throws CallbarError `nothing_to_undo` when there is none (never cleared, undone, or too late).
 */
export function undoClearing(log: CallLog, now: number): CallLog {
  const clearing = log.clearing;
  if (clearing?.state !== 'pending' || now >= clearing.until_ms) {
    throw new CallbarError('nothing_to_undo', said('errors:calls.nothingToUndo'));
  }
  return {
    ...log,
    clearing: { ...clearing, at_ms: Math.max(now, clearing.at_ms + 1), state: 'undone' },
  };
}

/** How many of `owner`'s calls a clear that can still be undone hides, and until when. */
export function pendingClearing(
  log: CallLog,
  now: number,
  owner: AccountOwner | undefined,
): { count: number; until_ms: number } | undefined {
  const clearing = log.clearing;
  if (clearing?.state !== 'pending' || now >= clearing.until_ms || !owner) return undefined;
  const count = log.calls.filter(
    (record) =>
      record.owner && sameAccount(record.owner, owner) && hiddenByClearing(record, clearing),
  ).length;
  return { count, until_ms: clearing.until_ms };
}

/**
 * The calls a pending clear drops once its undo time is over (`force`: now), and the log
 * without them (the clear done); undefined when there is nothing to settle.
 */
export function settleClearing(
  log: CallLog,
  now: number,
  force: boolean,
): { log: CallLog; dropped: CallRecord[] } | undefined {
  const clearing = log.clearing;
  if (clearing?.state !== 'pending' || (!force && now < clearing.until_ms)) return undefined;
  const dropped = log.calls.filter((record) => hiddenByClearing(record, clearing));
  return {
    dropped,
    log: {
      ...log,
      calls: log.calls.filter((record) => !dropped.includes(record)),
      cleared_ms: Math.max(log.cleared_ms, clearing.covers_ms),
      clearing: { ...clearing, at_ms: Math.max(now, clearing.at_ms + 1), state: 'done' },
    },
  };
}

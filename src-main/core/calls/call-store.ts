/**
 * The call tracker's store: the call log it keeps, in memory and, when the profile has one, in
 * calls.json (call-log.ts). A burst of changes is one write, and what the write merged from
 * other processes is taken in; what another process wrote since is taken in when asked (catchUp,
 * reload). The calls given up beyond the bound and the ended calls beyond MAX_RECENT_CALLS are
 * dropped, and their legs retired, so late events do not bring them back. Clear hides the recent
 * calls undoably (recent-clearing.ts). Listeners hear every change.
 */
import { sameAccount, type AccountOwner } from '../account/account-history';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import { said } from '../text/said';
import { MAX_RECENT_CALLS, mergeCallLogs, type CallLogFile } from './call-log';
import { EMPTY_CALL_LOG, type CallLog, type CallRecord } from './call-log-format';
import { finishCall } from './call-state';
import {
  hiddenByClearing,
  isFinished,
  pendingClearing,
  settleClearing,
  startClearing,
  undoClearing,
} from './recent-clearing';

export interface CallStoreOptions {
  /** Where calls persist; without it they live in memory only. */
  file?: CallLogFile;
  log: Logger;
  now: () => number;
}

export class CallStore {
  readonly #file: CallLogFile | undefined;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #state: CallLog;
  #writing: Promise<unknown> = Promise.resolve();
  #writeQueued = false;

  constructor(options: CallStoreOptions) {
    this.#file = options.file;
    this.#log = options.log;
    this.#now = options.now;
    this.#state = options.file?.read() ?? EMPTY_CALL_LOG;
  }

  /** Every call record of every account, newest first (records are changed in place). */
  get calls(): readonly CallRecord[] {
    return this.#state.calls;
  }

  /**
   * `record` changed at `now`: its version is made newer than its earlier ones and than the last
   * clear, whatever the clock did since. With the clock set back (an hour or a day ahead,
   * corrected), the change lost to the version before it when merged, and an ended call fell
   * under a clear "later" by the clock: it left the recent list at the next save.
   */
  touched(record: CallRecord, now: number): void {
    const { cleared_ms, clearing } = this.#state;
    const covered =
      clearing?.state === 'pending' ? Math.max(cleared_ms, clearing.covers_ms) : cleared_ms;
    record.updated_ms = Math.max(now, record.updated_ms, covered + 1);
  }

  /** The call records of `owner`, newest first, less those a pending clear hides. */
  recordsOf(owner: AccountOwner): readonly CallRecord[] {
    const { clearing } = this.#state;
    return this.#state.calls.filter(
      (record) =>
        record.owner && sameAccount(record.owner, owner) && !hiddenByClearing(record, clearing),
    );
  }

  byId(callId: string): CallRecord | undefined {
    return this.#state.calls.find((each) => each.call.id === callId);
  }

  byLeg(legId: string): CallRecord | undefined {
    return this.#state.calls.find((record) => record.legs.some((leg) => leg.id === legId));
  }

  /** Whether the leg was of a call no longer kept, or dropped from its call. */
  isRetired(legId: string): boolean {
    return this.#state.retired_legs.includes(legId);
  }

  /** Whether a pending clear hides the record. */
  isHidden(record: CallRecord): boolean {
    return hiddenByClearing(record, this.#state.clearing);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves when everything changed so far is on disk. */
  flushed(): Promise<void> {
    return this.#writing.then(() => undefined);
  }

  /** Picks up what another process (the app, the CLI) wrote. */
  reload(): void {
    if (!this.#file) return;
    this.#absorb(this.#file.read());
  }

  /** Takes in what another process wrote to the call log since this one last read or wrote it. */
  catchUp(): void {
    const changed = this.#file?.readIfChanged();
    if (changed) this.#absorb(changed);
  }

  /**
   * Adds a new call, newest first. Beyond `current` calls followed at once, the oldest are given
   * up; beyond MAX_RECENT_CALLS ended calls, the oldest are dropped. (The caller says `changed`.)
   * It is ordered after every call already kept, whatever the clock did since (its started_at
   * stays the clock's): with the clock set back (a day ahead, corrected), it was "older" than the
   * calls made meanwhile, shown below them, and dropped at the next save when the list was full.
   */
  add(record: CallRecord, current: number): void {
    const at = record.started_ms;
    const latest = Math.max(...this.#state.calls.map((each) => each.started_ms));
    record.started_ms = Math.max(at, latest + 1);
    const calls = [record, ...this.#state.calls];
    const following = calls.filter((each) => !isFinished(each));
    // Oldest first, calls Callbar did not place before the user's dials: legs of no known call
    // (a flood of them, too) never push out the call the user placed.
    const givingUp = following
      .reverse()
      .sort((a, b) => Number(a.call.source !== undefined) - Number(b.call.source !== undefined))
      .slice(0, Math.max(0, following.length - current));
    this.touched(record, record.updated_ms);
    for (const stale of givingUp) {
      finishCall(stale, at, said('errors:callEnd.tooMany'));
      this.touched(stale, at);
    }
    const finished = calls.filter(isFinished);
    const dropped = new Set(finished.slice(MAX_RECENT_CALLS));
    this.#state = { ...this.#state, calls: calls.filter((each) => !dropped.has(each)) };
    this.#retire([...dropped]);
  }

  /** Late events of these legs are ignored from now on. (The caller says `changed`.) */
  retireLegs(legs: string[]): void {
    this.#state = {
      ...this.#state,
      retired_legs: [...this.#state.retired_legs, ...legs].slice(-500),
    };
  }

  #retire(records: CallRecord[]): void {
    if (records.length === 0) return;
    this.retireLegs(records.flatMap((record) => record.call.leg_ids));
    const ids = records.map((record) => record.call.id);
    this.#state = {
      ...this.#state,
      removed_ids: [...this.#state.removed_ids, ...ids].slice(-500),
    };
  }

  /**
   * Clears the recent calls, undoably: they are hidden, and kept in the log (so a crash loses
   * nothing) until `undoMs` from now; then settleClearing drops them (recent-clearing.ts). A clear
   * still pending is settled first. Returns the ids of the calls that settling dropped.
   */
  clearRecent(undoMs: number): string[] {
    const settled = this.settleClearing(true);
    const cleared = startClearing(this.#state, this.#now(), undoMs);
    if (cleared !== this.#state) {
      this.#state = cleared;
      this.changed();
    }
    return settled;
  }

  /**
   * Brings back the calls of the clear that can still be undone.
   * @throws CallbarError `nothing_to_undo` when there is none (never cleared, undone, or too late).
   */
  undoClear(): void {
    this.#state = undoClearing(this.#state, this.#now());
    this.changed();
  }

  /** The clear that can still be undone: how many of `owner`'s calls it hides and until when. */
  pendingClear(owner: AccountOwner | undefined): { count: number; until_ms: number } | undefined {
    return pendingClearing(this.#state, this.#now(), owner);
  }

  /**
   * Drops the calls of a clear whose undo time is over (`now`: at once); returns their ids (the
   * notes on them go too).
   */
  settleClearing(now = false): string[] {
    const settled = settleClearing(this.#state, this.#now(), now);
    if (!settled) return [];
    this.#state = settled.log;
    this.#retire(settled.dropped);
    this.changed();
    return settled.dropped.map((record) => record.call.id);
  }

  /** Something changed: it is written (one write waits at a time), and the listeners hear it. */
  changed(): void {
    const file = this.#file;
    if (file && !this.#writeQueued) {
      // One write waits at a time and takes the state as it is then: a burst is one write.
      this.#writeQueued = true;
      this.#writing = this.#writing
        .then(() => {
          this.#writeQueued = false;
          return file.write(structuredClone(this.#state));
        })
        .then(
          (merged) => this.#absorb(merged),
          (error: unknown) =>
            this.#log.warn('the call log could not be saved', { error: errorMessage(error) }),
        );
    }
    this.#emit();
  }

  #absorb(log: CallLog): void {
    const before = JSON.stringify(this.#state);
    this.#state = mergeCallLogs(this.#state, log);
    if (JSON.stringify(this.#state) !== before) this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

/**
 * The repeat-dial guard: one click places one call. A dial of a destination is refused while
 * another dial of it is in flight, and for REPEAT_GUARD_MS after one was sent or ended — in every
 * process of the profile (the app, the CLI, a `tel:` link handed to a second instance), not only
 * in this one.
 *
 * The profile's `last-dial.json` (no secret in it: destinations, when, which process) is read and
 * written under the profile's `dial.lock`, so "check, then record" is one step across processes;
 * within a process the claims queue up as well. A dial is recorded *before* it is sent, in flight,
 * and recorded again, ended, once the platform answered. A dial in flight blocks only while the
 * process that sends it runs (a crashed one blocks no longer than REPEAT_GUARD_MS), and at most
 * IN_FLIGHT_MAX_MS. The clock being set back or forward does not block dials for longer: only a
 * record within the window on either side of now counts.
 *
 * When the dial cannot be recorded, it is not placed: without the record another process could
 * place it a second time.
 */
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  processOnlyLock,
  profileSessionLock,
  isRunning,
  type SessionLock,
} from '../account/session-lock';
import { fileFormat } from '../config/file-format';
import { memoryStateFile, profileStateFile, type StateFile } from '../config/state-file';
import { CallbarError, errorMessage } from '../errors';
import { said } from '../text/said';
import { spokenSaid } from '../text/translators';
import type { Logger } from '../log/logger';

/** A second dial of the same destination this soon after the first is taken as the same click. */
export const REPEAT_GUARD_MS = 2000;

/** A dial in flight blocks at most this long (the platform client gives up after 15 s). */
export const IN_FLIGHT_MAX_MS = 60_000;

/** The most dials the file remembers (older ones no longer block anything anyway). */
const MAX_RECORDS = 50;

const DialRecord = z.object({
  /** The destination as sent (E.164 or an extension). */
  destination: z.string().max(64),
  /** When the dial was sent (in flight) or ended, ms since the epoch by the wall clock. */
  at: z.number(),
  in_flight: z.boolean(),
  /** The process sending it. */
  pid: z.number().int().positive(),
  host: z.string().max(255),
});
type DialRecord = z.infer<typeof DialRecord>;

export const RecentDials = z.object({ dials: z.array(DialRecord).max(MAX_RECORDS) });
export type RecentDials = z.infer<typeof RecentDials>;

/** `last-dial.json`: version 1; files from before versions had the same content. */
export const RecentDialsFile = fileFormat({
  version: 1,
  content: RecentDials,
});

export interface DialGuardOptions {
  file: StateFile<RecentDials>;
  /** The file's path, to tell from its time alone that nobody dialled lately (dialElsewhere). */
  path?: string;
  lock: SessionLock;
  log: Logger;
  now?: () => number;
}

export class DialGuard {
  readonly #file: StateFile<RecentDials>;
  readonly #path: string | undefined;
  readonly #lock: SessionLock;
  readonly #log: Logger;
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();
  /**
   * The file as this process last wrote it (its time), and until when another process's dial in
   * it counts (dialElsewhere): while the file is unchanged, that answers without reading it.
   */
  #written: { mtimeMs: number; othersUntil: number } | undefined;

  constructor(options: DialGuardOptions) {
    this.#file = options.file;
    this.#path = options.path;
    this.#lock = options.lock;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Records a dial of `destination` as in flight, or throws `duplicate_dial` (naming it as
   * `display`) when a dial of it is in flight or was sent or ended within REPEAT_GUARD_MS. Returns
   * what to call once the platform answered (never throws).
   */
  async claim(destination: string, display: string): Promise<() => Promise<void>> {
    const mine = await this.#alone(async () => {
      const now = this.#now();
      const recent = await this.#recent(now);
      const previous = recent.find((record) => record.destination === destination);
      if (previous && blocks(previous, now)) {
        throw new CallbarError(
          'duplicate_dial',
          said('errors:calls.duplicateDial', { display: spokenSaid(display) }),
        );
      }
      const record: DialRecord = {
        destination,
        at: now,
        in_flight: true,
        pid: process.pid,
        host: hostname(),
      };
      await this.#write(recent, record);
      return record;
    });
    return () =>
      this.#alone(async () => {
        const now = this.#now();
        const recent = await this.#recent(now);
        // Still ours (nobody else may dial it meanwhile, unless this one took too long).
        const current = recent.find((record) => record.destination === destination);
        if (current?.pid !== mine.pid || current.at !== mine.at) return;
        await this.#write(recent, { ...mine, at: now, in_flight: false });
      }).catch((error: unknown) => {
        // The record stays "in flight" while this process runs, at most IN_FLIGHT_MAX_MS.
        this.#log.warn('could not record that a dial ended', { error });
      });
  }

  /**
   * Whether another process of the profile has a dial in flight, or had one answered within
   * `withinMs` (its call may not be in the call log yet): call events of legs nobody knows may
   * be that dial's (call-tracker.ts waits for its record). `false` at once when the file says so
   * by its time alone (nobody dialled within IN_FLIGHT_MAX_MS), else the file's answer.
   */
  dialElsewhere(withinMs: number): false | Promise<boolean> {
    if (this.#path !== undefined) {
      let mtimeMs: number;
      try {
        mtimeMs = statSync(this.#path).mtimeMs;
      } catch {
        return false; // no dial was ever recorded
      }
      if (Math.abs(Date.now() - mtimeMs) > IN_FLIGHT_MAX_MS) return false;
      // Last written here: only the other processes' dials this process wrote back count.
      const written = this.#written;
      if (written?.mtimeMs === mtimeMs && this.#now() >= written.othersUntil) return false;
    }
    return this.#file.read().then((stored) => {
      const now = this.#now();
      return (stored?.dials ?? []).some((record) => countsElsewhere(record, now, withinMs));
    });
  }

  /** Runs `task` alone: after this process's earlier claims, holding the profile's dial lock. */
  #alone<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#lock.hold(task));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The records that may still block a dial. */
  async #recent(now: number): Promise<DialRecord[]> {
    const stored = await this.#file.read();
    return (stored?.dials ?? []).filter((record) => Math.abs(now - record.at) < IN_FLIGHT_MAX_MS);
  }

  async #write(recent: DialRecord[], record: DialRecord): Promise<void> {
    const others = recent.filter((each) => each.destination !== record.destination);
    try {
      const dials = [...others.slice(-(MAX_RECORDS - 1)), record];
      await this.#file.write({ dials });
      if (this.#path !== undefined) {
        // Until when the other processes' dials written back count (IN_FLIGHT_MAX_MS at most).
        const now = this.#now();
        const counting = dials.filter((each) => countsElsewhere(each, now, REPEAT_GUARD_MS));
        const othersUntil = counting.length > 0 ? now + IN_FLIGHT_MAX_MS : 0;
        this.#written = { mtimeMs: statSync(this.#path).mtimeMs, othersUntil };
      }
    } catch (error) {
      throw new CallbarError(
        'dial_unrecorded',
        said('errors:calls.dialUnrecorded', { reason: errorMessage(error) }),
        { cause: error },
      );
    }
  }
}

/**
 * Whether `record` is another process's dial that may not be in the call log yet: in flight (while
 * that process runs), or answered within `withinMs`.
 */
function countsElsewhere(record: DialRecord, now: number, withinMs: number): boolean {
  const elsewhere = record.pid !== process.pid || record.host !== hostname();
  return (
    elsewhere &&
    Math.abs(now - record.at) < (record.in_flight ? IN_FLIGHT_MAX_MS : withinMs) &&
    (!record.in_flight || record.host !== hostname() || isRunning(record.pid))
  );
}

/** Whether `record` makes a dial of its destination now a repeat of the same click. */
function blocks(record: DialRecord, now: number): boolean {
  const apart = Math.abs(now - record.at);
  if (apart < REPEAT_GUARD_MS) return true;
  // In flight: while the process sending it runs (one on another computer sharing the profile
  // cannot be asked), within IN_FLIGHT_MAX_MS (`recent` dropped older ones).
  return record.in_flight && (record.host !== hostname() || isRunning(record.pid));
}

/** The guard of this process only (unit tests, a core without a profile folder). */
export function memoryDialGuard(log: Logger, now?: () => number): DialGuard {
  return new DialGuard({
    file: memoryStateFile(),
    lock: processOnlyLock,
    log,
    ...(now ? { now } : {}),
  });
}

/** The guard shared by every process of the profile in `dataDir`. */
export function profileDialGuard(dataDir: string, log: Logger, now?: () => number): DialGuard {
  const path = join(dataDir, 'last-dial.json');
  return new DialGuard({
    path,
    file: profileStateFile(path, RecentDialsFile, log, 'record of recent dials'),
    lock: profileSessionLock(dataDir, {
      log,
      name: 'dial.lock',
      holding: said('errors:lock.checkingDial'),
      staleMs: 5_000,
      waitMs: 10_000,
    }),
    log,
    ...(now ? { now } : {}),
  });
}

/**
 * Keeps a burst of requests (a sync: about 90 pages for a full tenant at 100 contacts a page)
 * under the platform's rate limit instead of running into 429s. The contract does not publish the
 * limits, so the pacer allows `budget` requests per sliding `windowMs` and otherwise waits until
 * the oldest request leaves the window, the same rule the platform's throttle applies. One pacer
 * serves every sync of a process, so a sync started right after another waits its turn; a 429
 * from another process's traffic is still handled by the sync (wait for Retry-After, go on).
 *
 * A platform stricter than the budget is learnt from, but only from what looks like its limit:
 * a 429 that says how long its window stays full (a Retry-After in the future), or a second 429
 * within one window; a lone 429 that names no wait (a passing fault, a proxy's hiccup) teaches
 * nothing. At such a 429 the requests this pacer had in the window (the refused one aside) are at
 * most the platform's limit, so the budget drops to 80 % of them, and the next requests keep under
 * it, so one learning costs one 429 (two at most, when two walks were in flight). A platform that
 * announces its limit (`RateLimit-Policy`, see rate-limit-gate.ts) is believed at once, with the
 * same margin: no 429. Nothing learnt (nor read back) goes below 20 requests a minute, so a
 * misleading 429 or header cannot make syncs crawl, and it is forgotten after an hour, so a
 * raised limit (or a wrong lesson) is found out again. What was learnt is kept in the profile
 * (`memory`, rate-limit.json), read before every request, so the profile's other processes (the
 * app, the CLI) and the next syncs start from it instead of meeting the same 429.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { RatePolicy } from '../api/rate-limit-gate';
import { systemClock, type Clock } from '../clock';
import { fileFormat } from '../config/file-format';
import { profileStateFile, type StateFile } from '../config/state-file';
import type { Logger } from '../log/logger';

/** What was learnt of the platform's limit: `budget` requests per `window_ms`. */
export const LearntRate = z.object({
  budget: z.number().int().min(1),
  window_ms: z.number().int().min(1),
  learnt_at: z.string(),
});
export type LearntRate = z.infer<typeof LearntRate>;

/** `rate-limit.json`: version 1; files from before versions had the same content. */
export const LearntRateFile = fileFormat({
  version: 1,
  content: LearntRate,
});

/** The profile's file of the learnt rate (see directory.ts). */
export const LEARNT_RATE_FILE = 'rate-limit.json';

/** The learnt rate of the profile in `dataDir`, shared by its processes. */
export function learntRateFile(dataDir: string, log: Logger): StateFile<LearntRate> {
  return profileStateFile(
    join(dataDir, LEARNT_RATE_FILE),
    LearntRateFile,
    log,
    'learnt rate limit',
  );
}

/** A 429 with fewer of our requests in the window teaches nothing (see learnFromRefusal). */
const MIN_LEARNT_BUDGET = 5;

/** The share of a learnt limit used: room for requests the pacer does not see (retries). */
const MARGIN = 0.8;

/** Nothing learnt takes the pacer below this many requests a minute (scaled to its window). */
export const LEARNT_RATE_FLOOR_PER_MINUTE = 20;

/** How long a learnt rate holds. */
export const LEARNT_RATE_LIFETIME_MS = 60 * 60_000;

/** A 429 as the pacer hears of it. */
export interface Refusal {
  /** How long the platform asked to wait (its Retry-After), when it said. */
  retryAfterMs?: number;
}

export interface PacerOptions {
  budget: number;
  windowMs: number;
  /** Whose time the window is measured in, and waited in (default: the process's real time). */
  clock?: Clock;
  /** Where a learnt rate is kept for the profile's processes (default: this pacer only). */
  memory?: StateFile<LearntRate>;
}

export class RequestPacer {
  readonly #budget: number;
  readonly #windowMs: number;
  readonly #floor: number;
  readonly #clock: Clock;
  readonly #memory: StateFile<LearntRate> | undefined;
  /** The budget learnt from the platform (here or by another process), when lower, and when. */
  #learnt: { budget: number; at: number } | undefined;
  /** Start times of the requests in the window, oldest first. */
  readonly #sent: number[] = [];
  /** When the 429s that named no wait came, within the last window. */
  readonly #unexplained: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(options: PacerOptions) {
    this.#budget = options.budget;
    this.#windowMs = options.windowMs;
    this.#floor = Math.ceil((LEARNT_RATE_FLOOR_PER_MINUTE * options.windowMs) / 60_000);
    this.#clock = options.clock ?? systemClock;
    this.#memory = options.memory;
  }

  /** Requests allowed per window: the configured budget, or less when the platform said so. */
  get budget(): number {
    if (this.#learnt && !this.#current(this.#learnt.at)) this.#learnt = undefined;
    return Math.min(this.#budget, this.#learnt?.budget ?? Infinity);
  }

  /**
   * The platform refused a request this pacer let through (429). When it looks like the
   * platform's limit (see the module comment), the limit is at most the requests in the window
   * before that one: lowers the budget (never raises it, never below the floor) and keeps it for
   * the profile's other processes.
   */
  async learnFromRefusal(refusal: Refusal = {}): Promise<void> {
    this.#expire();
    if (!((refusal.retryAfterMs ?? 0) > 0)) {
      // Named no wait: believed only as the second within a window.
      this.#unexplained.push(this.#clock.now());
      if (this.#unexplained.length < 2) return;
    }
    const seen = this.#sent.length - 1;
    // So few of ours in the window: the platform counted other traffic too (another program of
    // the user's), which says nothing of its limit.
    if (seen < MIN_LEARNT_BUDGET) return;
    await this.#lower(Math.floor(seen * MARGIN));
  }

  /** The platform announced its limit (RateLimit-Policy): keep under it, with the same margin. */
  async learnPolicy(policy: RatePolicy): Promise<void> {
    await this.#lower(Math.floor((policy.limit * MARGIN * this.#windowMs) / policy.windowMs));
  }

  async #lower(wanted: number): Promise<void> {
    const budget = Math.max(this.#floor, wanted);
    // What another process kept meanwhile counts too: a lesson never raises the profile's file.
    await this.#recall();
    if (budget >= this.budget) return;
    const at = this.#clock.now();
    this.#learnt = { budget, at };
    await this.#memory?.write({
      budget,
      window_ms: this.#windowMs,
      learnt_at: new Date(at).toISOString(),
    });
  }

  /** Resolves when one more request may go out (in call order); counts it as sent. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#wait(signal));
    // The next caller waits for this one, whether it got its turn or was cancelled.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** Requests counted in the current window. */
  get inWindow(): number {
    this.#expire();
    return this.#sent.length;
  }

  async #wait(signal?: AbortSignal): Promise<void> {
    await this.#recall();
    for (;;) {
      this.#expire();
      if (this.#sent.length < this.budget) {
        this.#sent.push(this.#clock.now());
        return;
      }
      // At most a window: the oldest request leaves it by then whatever the clock did.
      const wait = this.#sent[0]! + this.#windowMs - this.#clock.now();
      await this.#clock.sleep(Math.min(Math.max(wait, 0), this.#windowMs), signal);
    }
  }

  /** Adopts what the profile's processes learnt (scaled to this pacer's window). */
  async #recall(): Promise<void> {
    const learnt = await this.#memory?.read();
    const at = learnt ? Date.parse(learnt.learnt_at) : NaN;
    if (!learnt || !this.#current(at)) return;
    const scaled = Math.floor((learnt.budget * this.#windowMs) / learnt.window_ms);
    // The file is the profile's, not the platform's word: held to the same floor.
    const budget = Math.max(this.#floor, scaled);
    if (budget < (this.#learnt?.budget ?? Infinity)) this.#learnt = { budget, at };
  }

  /** Whether a rate learnt at `at` still holds (a time ahead of the clock holds nothing). */
  #current(at: number): boolean {
    const age = this.#clock.now() - at;
    return age >= 0 && age <= LEARNT_RATE_LIFETIME_MS;
  }

  /**
   * Drops what left the window, and what the clock says has not happened yet: a time ahead of
   * it means the clock was set back since, and a request "in the future" would otherwise stay
   * in the window (and the next ones wait) for as long as the clock was set back.
   */
  #expire(): void {
    const now = this.#clock.now();
    const horizon = now - this.#windowMs;
    const inWindow = (at: number) => at > horizon && at <= now;
    if (!this.#sent.every(inWindow)) this.#keep(this.#sent, inWindow);
    if (!this.#unexplained.every(inWindow)) this.#keep(this.#unexplained, inWindow);
  }

  #keep(times: number[], keep: (at: number) => boolean): void {
    const kept = times.filter(keep);
    times.splice(0, times.length, ...kept);
  }
}

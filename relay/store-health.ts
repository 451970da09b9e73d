/**
 * Whether this node's store answers, followed all the time rather than only when the load
 * balancer asks: a node whose Redis is down, unreachable or hung (a stopped process keeps its
 * connections open and answers nothing) must not hold its device streams, which would then wait
 * for wake-ups and reads that never come while the desktop believes it is live, nor take requests
 * that would wait on the store. The node pings its store every `intervalMs`; a ping without an
 * answer within `timeoutMs` marks the store away (`onAway`: the streams end, new requests are
 * refused 503 at once, /readyz refuses), the next answered one marks it back (`onBack`).
 *
 * ioredis alone says nothing: with `maxRetriesPerRequest: null` its commands wait in its queue
 * across reconnections, and a hung server's connection never closes; `commandTimeout`
 * (redis-store.ts) bounds each command, this bounds what the node does meanwhile.
 */
import type { Logger } from '../src-main/core/log/logger';
import { StoreUnavailable, type RelayStore } from './relay-store';

/** How often a node asks its store whether it answers, and how long it waits for the answer. */
export interface StoreCheck {
  intervalMs: number;
  timeoutMs: number;
}

export const STORE_CHECK: StoreCheck = { intervalMs: 1000, timeoutMs: 2000 };

/** Seconds a client refused while the store is away is told to wait (Retry-After). */
export const STORE_RETRY_AFTER_S = 5;

export interface StoreHealth {
  /** False from a ping left unanswered until the next answered one. */
  readonly up: boolean;
  /**
   * The store answered the node's last check (and has answered one at all: a node that just
   * started is not ready before its first check, made at once, is answered).
   */
  readonly ready: boolean;
  /** Aborts when the store goes away (a fresh one each time it comes back): polls end on it. */
  readonly away: AbortSignal;
  /** Throws StoreUnavailable (503) while the store is away. */
  require(): void;
  stop(): void;
}

/** How often the loop clock reads the time while a wait runs, and the most one reading counts. */
const LOOP_STEP_MS = 50;
const LOOP_STEP_MOST_MS = 2 * LOOP_STEP_MS;

/**
 * Time as this process's event loop lived it: read every LOOP_STEP_MS while a wait runs, a gap
 * longer than LOOP_STEP_MOST_MS (the thread held: a start compiling its routes, a long
 * collection, a loaded machine) counts as LOOP_STEP_MOST_MS. Ticks only while a wait runs.
 */
const loopClock = (() => {
  let counted = 0;
  let last = performance.now();
  let waits = 0;
  let ticker: NodeJS.Timeout | undefined;
  const now = () => {
    const at = performance.now();
    counted += Math.min(at - last, LOOP_STEP_MOST_MS);
    last = at;
    return counted;
  };
  return {
    now,
    /** A wait begins: the clock ticks until every wait ended. */
    begin() {
      if (waits++ === 0) {
        last = performance.now();
        ticker = setInterval(now, LOOP_STEP_MS).unref();
      }
      return now();
    },
    end() {
      if (--waits === 0) clearInterval(ticker);
    },
  };
})();

/**
 * `promise`'s outcome, or `late()`'s when it has not settled within `timeoutMs` of the loop
 * clock's time. A node whose own thread was held does not take that for the store's silence: the
 * hold counts as one step, and the timeout waits on for the rest (before, a node that started
 * its first check and then compiled its routes for two seconds on a loaded machine said at once
 * that its store did not answer, and refused every request for a second). When the time is up,
 * an answer waiting in the node's sockets is given one turn of the event loop (setImmediate runs
 * after the sockets are read) before the store counts as silent.
 */
export async function settledWithin<T>(
  promise: Promise<T>,
  timeoutMs: number,
  late: () => T,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const began = loopClock.begin();
  const outcome = await Promise.race([
    promise.then((value) => ({ value })),
    new Promise<undefined>((resolve) => {
      const check = () => {
        const left = timeoutMs - (loopClock.now() - began);
        if (left > 0) timer = setTimeout(check, left);
        else setImmediate(() => resolve(undefined));
      };
      timer = setTimeout(check, timeoutMs);
    }),
  ]).finally(() => {
    clearTimeout(timer);
    loopClock.end();
  });
  return outcome ? outcome.value : late();
}

/** Whether `store` answers a ping within `timeoutMs` (settledWithin). */
export function answersWithin(store: RelayStore, timeoutMs: number): Promise<boolean> {
  const answered = store.ping().then(
    () => true,
    () => false,
  );
  return settledWithin(answered, timeoutMs, () => false);
}

export function watchStoreHealth(
  store: RelayStore,
  check: StoreCheck,
  /** The node's logger (a function: it is replaced once Fastify's logger exists). */
  log: () => Logger,
  on: { away: () => void; back: () => void },
): StoreHealth {
  let up = true;
  let away = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let awaySince = 0;
  let answeredOnce = false;
  const next = () => {
    // Unreferenced: a node that failed to start is not kept alive by its checks.
    if (!stopped) timer = setTimeout(() => void probe(), check.intervalMs).unref();
  };
  // One ping at a time: a hung store does not collect a ping a second.
  const probe = async () => {
    const answered = await answersWithin(store, check.timeoutMs);
    if (stopped) return;
    if (answered) answeredOnce = true;
    if (!answered && up) {
      up = false;
      awaySince = Date.now();
      log().warn('the store does not answer: device streams end and requests are refused (503)', {
        timeout_ms: check.timeoutMs,
      });
      away.abort();
      on.away();
    } else if (answered && !up) {
      up = true;
      away = new AbortController();
      log().info('the store answers again', { away_ms: Date.now() - awaySince });
      on.back();
    }
    next();
  };
  void probe();
  return {
    get up() {
      return up;
    },
    get ready() {
      return up && answeredOnce;
    },
    get away() {
      return away.signal;
    },
    require: () => {
      if (!up) throw new StoreUnavailable();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

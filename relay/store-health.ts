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

/**
 * `promise`'s outcome, or `late()`'s when it has not settled within `timeoutMs`. A node whose own
 * thread was held past the timeout (a long collection, a loaded machine) runs its timers before
 * it reads its sockets: the timeout gives an answer waiting there one turn of the event loop
 * (setImmediate runs after the sockets are read) before it counts the store as silent, so a slow
 * node does not take a store that had answered for one that did not.
 */
export async function settledWithin<T>(
  promise: Promise<T>,
  timeoutMs: number,
  late: () => T,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    promise.then((value) => ({ value })),
    new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => setImmediate(() => resolve(undefined)), timeoutMs)),
    ),
  ]).finally(() => clearTimeout(timer));
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

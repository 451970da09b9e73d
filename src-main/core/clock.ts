/**
 * Time as Callbar's waiting code sees it: what time it is, and a wait that a cancellation ends
 * early. Code that waits on the platform's own clock (the sync's pacing under the rate limit, a
 * 429's Retry-After) takes a Clock instead of calling Date.now and setTimeout, so anything that
 * moves the platform's time (the simulator's controllable clock, `advanceClock` in the tests)
 * moves Callbar's waits with it. The process's real time is `systemClock`.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason if it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest a Node timer waits: a longer delay overflows and fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A real-time wait that ends early (rejecting with the signal's reason) when the signal aborts.
 * A wait longer than a timer can hold (about 24.8 days: a platform's Retry-After can ask for
 * anything) is waited in parts, not ended at once.
 */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const wait = (left: number) => {
      timer = setTimeout(
        () => {
          if (left > MAX_TIMER_MS) return wait(left - MAX_TIMER_MS);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.min(left, MAX_TIMER_MS),
      );
    };
    wait(ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep: abortableDelay };

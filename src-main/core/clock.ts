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

/** A real-time wait that ends early (rejecting with the signal's reason) when the signal aborts. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep: abortableDelay };

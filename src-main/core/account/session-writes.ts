/**
 * Session writes in flight: from the moment a refresh request leaves until the new pair is in the
 * vault (and while an activation's pair is being stored), the platform may hold a pair the vault
 * does not. Closing waits for them, at most a bound, and says so either way.
 */
import type { Logger } from '../log/logger';

export class SessionWrites {
  #count = 0;
  readonly #ended = new Set<() => void>();

  /** True while a write is in flight: a process that ends now may end the session. */
  get active(): boolean {
    return this.#count > 0;
  }

  /** Runs `write` as a session write. */
  async run<T>(write: () => Promise<T>): Promise<T> {
    this.#count += 1;
    try {
      return await write();
    } finally {
      this.#count -= 1;
      if (this.#count === 0) {
        for (const ended of this.#ended) ended();
        this.#ended.clear();
      }
    }
  }

  /** Resolves once no write is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#ended.add(resolve));
  }

  /** Waits for the writes in flight, at most `waitMs`; then gives up and logs it. */
  async settled(waitMs: number, log: Logger): Promise<void> {
    if (this.#count === 0) return;
    const started = performance.now();
    const saved = await new Promise<boolean>((resolve) => {
      const ended = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#ended.delete(ended);
        resolve(false);
      }, waitMs);
      this.#ended.add(ended);
    });
    const waited_ms = Math.round(performance.now() - started);
    if (saved) log.info('waited for the session to be stored before closing', { waited_ms });
    else {
      log.warn(
        'gave up waiting for the session to be stored; closing anyway (the session may have to be connected again)',
        { waited_ms },
      );
    }
  }
}

/**
 * The long polls this node holds open for activation waits, capped per client address and in
 * total: past the first cap a poll is answered 429, past the second 503, before it touches the
 * store. (A poll costs no Redis connection of its own, see redis-wakeups.ts; the caps bound the
 * sockets and timers a client can make a node hold.)
 */
import { HttpRejection } from '../src-main/core/http/http-rejection';
import type { WaitCaps } from './relay-config';

export class OpenWaits {
  readonly #caps: WaitCaps;
  readonly #byAddress = new Map<string, number>();
  #total = 0;

  constructor(caps: WaitCaps) {
    this.#caps = caps;
  }

  /** How many are open now. */
  get size(): number {
    return this.#total;
  }

  /** Holds `wait` open for `address`, or refuses it (429, 503) when a cap is reached. */
  async hold<T>(address: string, wait: () => Promise<T>): Promise<T> {
    const mine = this.#byAddress.get(address) ?? 0;
    if (mine >= this.#caps.perAddress) {
      throw new HttpRejection(429, 'Too many activation waits from this address; slow down.');
    }
    if (this.#total >= this.#caps.total) {
      throw new HttpRejection(
        503,
        'The relay holds as many activation waits as it can; try again.',
      );
    }
    this.#byAddress.set(address, mine + 1);
    this.#total += 1;
    try {
      return await wait();
    } finally {
      this.#total -= 1;
      const left = (this.#byAddress.get(address) ?? 1) - 1;
      if (left === 0) this.#byAddress.delete(address);
      else this.#byAddress.set(address, left);
    }
  }
}

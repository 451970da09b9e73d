/**
 * Whether something Callbar talks to anyway (the platform, the relay's stream) is away, judged
 * only from the attempts it makes for its own work: no request of its own. One failure is a blip
 * (a request, a network hiccup) and says nothing; FAILURES_FOR_OUTAGE in a row, with no answer
 * between them, are an outage, dated from the first of them. The next answer ends it.
 */
import type { Said } from '../text/said';

/**
 * Answers that say the service is not there behind its gateway (502, 503, 504): failures. Any
 * other answer, a refusal or a 429 included, shows it there.
 */
export function unavailableStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** Failures in a row, with no answer between them, that make an outage. */
export const FAILURES_FOR_OUTAGE = 2;

/** Why an attempt failed, in a few words: text as it came, or a phrase in the reader's words. */
export type OutageReason = string | Said;

/** Away since `since` (epoch ms: the first failure of the run); `reason` is the latest's. */
export interface Outage {
  since: number;
  reason: OutageReason;
}

export class OutageWatch {
  readonly #now: () => number;
  readonly #listeners = new Set<(outage: Outage | undefined) => void>();
  #failures = 0;
  #firstFailure: number | undefined;
  #outage: Outage | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The outage under way, if any. */
  get outage(): Outage | undefined {
    return this.#outage;
  }

  /** An attempt got no answer (refused, broken, timed out, the service unavailable). */
  failed(reason: OutageReason): void {
    this.#failures += 1;
    this.#firstFailure ??= this.#now();
    if (this.#failures < FAILURES_FOR_OUTAGE) return;
    const changed =
      this.#outage === undefined || JSON.stringify(this.#outage.reason) !== JSON.stringify(reason);
    this.#outage = { since: this.#firstFailure, reason };
    if (changed) this.#tell();
  }

  /** An attempt was answered: any outage is over. */
  answered(): void {
    this.#failures = 0;
    this.#firstFailure = undefined;
    if (!this.#outage) return;
    this.#outage = undefined;
    this.#tell();
  }

  /** Calls `listener` when an outage starts, changes its reason or ends; gives the unsubscribe. */
  onChange(listener: (outage: Outage | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(): void {
    for (const listener of this.#listeners) listener(this.#outage);
  }
}

/**
 * DRF's ScopedRateThrottle: per scope and per authenticated user, a sliding window of request
 * times on the simulator clock. A refused request is not counted; the wait is DRF's
 * (remaining window / available requests), sent rounded up as Retry-After.
 */
import type { SimClock } from './clock';
import type { RateLimit, RateScope } from './options';

export type ThrottleDecision = { allowed: true } | { allowed: false; waitSeconds: number };

export class RateLimiter {
  private readonly limits: Record<RateScope, RateLimit>;
  private readonly history = new Map<string, number[]>();

  constructor(
    private readonly clock: SimClock,
    limits: Record<RateScope, RateLimit>,
  ) {
    this.limits = {
      phonebook: { ...limits.phonebook },
      'call-control': { ...limits['call-control'] },
    };
  }

  current(): Record<RateScope, RateLimit> {
    return {
      phonebook: { ...this.limits.phonebook },
      'call-control': { ...this.limits['call-control'] },
    };
  }

  set(limits: Partial<Record<RateScope, RateLimit>>): void {
    Object.assign(this.limits, limits);
  }

  check(scope: RateScope, key: string): ThrottleDecision {
    const { limit, window_seconds } = this.limits[scope];
    const duration = window_seconds * 1000;
    const now = this.clock.now();
    const historyKey = `${scope}|${key}`;
    // Newest first, as DRF keeps it.
    const history = (this.history.get(historyKey) ?? []).filter(
      (time) => time > now - duration && time <= now,
    );
    if (history.length >= limit) {
      const oldest = history[history.length - 1] ?? now;
      const remaining = history.length > 0 ? duration - (now - oldest) : duration;
      const available = limit - history.length + 1;
      this.history.set(historyKey, history);
      return {
        allowed: false,
        waitSeconds: available > 0 ? remaining / 1000 / available : remaining / 1000,
      };
    }
    history.unshift(now);
    this.history.set(historyKey, history);
    return { allowed: true };
  }

  reset(): void {
    this.history.clear();
  }
}

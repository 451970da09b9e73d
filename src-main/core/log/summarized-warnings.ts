/**
 * Warnings that can come in floods (a web page hammering the loopback receiver) logged without
 * flooding the log: the first of a quiet period is written at once, the rest are counted and
 * written as one summary line per interval ("refused 6,804 more: 403 ×6,800, 413 ×4").
 */
import type { LogFields, Logger } from './logger';

export interface SummarizedWarnings {
  /** Logs `message` now, or counts it under `kind` until the interval's summary. */
  warn(kind: string, message: string, fields?: LogFields): void;
  /** Writes the pending summary now (on shutdown). */
  flush(): void;
}

/** How often a flood's summary line is written, by default. */
export const SUMMARY_INTERVAL_MS = 10_000;

export function summarizedWarnings(
  log: Logger,
  summary: string,
  intervalMs = SUMMARY_INTERVAL_MS,
): SummarizedWarnings {
  let counts = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (counts.size === 0) return;
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    log.warn(summary, {
      count: total,
      by_kind: Object.fromEntries(counts),
      interval_ms: intervalMs,
    });
    counts = new Map();
  };

  return {
    warn(kind, message, fields) {
      if (timer === undefined) {
        log.warn(message, fields);
        // Until the interval ends, the same and other kinds are only counted.
        timer = setTimeout(flush, intervalMs);
        timer.unref();
        return;
      }
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    },
    flush,
  };
}

/**
 * The log of requests to the platform (everything except the control API), so tests can count
 * e.g. click-to-dial POSTs or token refreshes. Bodies are JSON-parsed where possible with tokens,
 * secrets, passwords and confirmation keys redacted.
 */
import type { FaultEffect } from './faults';

export type LogScope = 'phonebook' | 'call-control' | 'token' | 'portal' | null;

export interface LoggedFault {
  id: string;
  when: 'before' | 'after';
  effects: FaultEffect[];
  /** For `after` faults: the status the simulator produced before the fault took the answer. */
  original_status?: number;
}

export interface LoggedRequest {
  seq: number;
  /** Simulated time the request arrived (ISO 8601, UTC). */
  time: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The status the client received; null when the connection was reset. */
  status: number | null;
  scope: LogScope;
  body: unknown;
  fault?: LoggedFault;
}

const SECRET_KEY = /token|secret|password|confirmation_key|csrf/i;
const MAX_ENTRIES = 10_000;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]';
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEY.test(key) ? '[redacted]' : redact(inner, depth + 1),
      ]),
    );
  }
  return value;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private nextSeq = 1;

  seq(): number {
    return this.nextSeq++;
  }

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): LoggedRequest[] {
    return [...this.entries].sort((a, b) => a.seq - b.seq);
  }

  clear(): void {
    this.entries = [];
  }
}

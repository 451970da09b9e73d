/**
 * The user's calls per party, from the call log, for the search's ranking (directory/
 * call-affinity.ts): how many calls each contact or number had and when the last one started.
 */
import type { CallRecord } from './call-log-format';

/** The user's calls with one party: how many, and when the last one started. */
export interface PartyCalls {
  /** The contact, when Callbar identified the party as one. */
  contact_id?: number;
  /** The party's number as the call showed it. */
  number: string;
  calls: number;
  /** Milliseconds since the epoch. */
  last_ms: number;
}

/** Calls grouped by contact (when identified) or by number; failed dials count too. */
export function partyCalls(records: readonly CallRecord[]): PartyCalls[] {
  const parties = new Map<string, PartyCalls>();
  for (const { call, started_ms } of records) {
    const { party } = call;
    const key = party.contact_id !== undefined ? `contact ${party.contact_id}` : party.number;
    if (key === '') continue;
    const known = parties.get(key);
    if (known) {
      known.calls++;
      known.last_ms = Math.max(known.last_ms, started_ms);
    } else {
      parties.set(key, {
        ...(party.contact_id !== undefined ? { contact_id: party.contact_id } : {}),
        number: party.number,
        calls: 1,
        last_ms: started_ms,
      });
    }
  }
  return [...parties.values()];
}

/**
 * The user's own calls as the search ranks them: contacts called often and lately rank first
 * among hits of the same match quality (ranked-candidates), the way a launcher learns what its
 * user picks. The calls come from the call log (calls/call-history.ts) as counts per party; the
 * index never reads the log itself.
 */

import type { PartyCalls } from '../calls/call-history';

// The calls' summary is the calls floor's (calls/call-history.ts); said here for the index.
export type { PartyCalls };

const DAY_MS = 24 * 60 * 60_000;
/** Weight of a call by the age of the last one (Firefox's frecency buckets). */
const RECENCY_WEIGHTS: readonly (readonly [maxAgeMs: number, weight: number])[] = [
  [4 * DAY_MS, 100],
  [14 * DAY_MS, 70],
  [31 * DAY_MS, 50],
  [90 * DAY_MS, 30],
];
const OLD_WEIGHT = 10;

/** How strongly a party's calls pull it up: the number of calls weighted by their recency. */
export function frecency(party: PartyCalls, now: number): number {
  const age = now - party.last_ms;
  const weight = RECENCY_WEIGHTS.find(([maxAge]) => age <= maxAge)?.[1] ?? OLD_WEIGHT;
  return party.calls * weight;
}

/**
 * The rate of a client's refused reads, on this node. A GET is not rate limited (an office's
 * desktops reconnect their streams through one address, and a bucket in the shared store would
 * cost the Redis call a GET is spared), so before, a client could send refused GETs as fast as a
 * kept-alive connection carries them: each a stream with a made-up credential or a connect link
 * with a made-up nonce, and each a Redis read. Now every GET the relay refuses (401, 403, 404)
 * takes a token from the client's bucket here, at the relay's rate; a client whose bucket is empty
 * is answered 429 before its GET reaches the store, until the bucket refills. A client whose GETs
 * are answered takes nothing, so valid streams never meet this limit.
 *
 * Per node and in memory: the limit is there to spare the store. Bounded: past `maxClients`
 * buckets, the oldest is forgotten (it starts full again).
 */
import { TokenBucket, type Rate } from '../src-main/core/calls/token-bucket';

/** The statuses a refused read ends with: not known, not allowed, not there. */
const REFUSALS = new Set([401, 403, 404]);

export interface RefusedReads {
  /** Whether `client` may make a GET now: false while its refusals are past the rate. */
  allowed(client: string): boolean;
  /** Counts a GET of `client` that ended with `status`. */
  ended(client: string, status: number): void;
  /** Clients with a bucket (for the tests). */
  readonly size: number;
}

export function refusedReads(rate: Rate, now: () => number, maxClients = 10_000): RefusedReads {
  const buckets = new Map<string, TokenBucket>();
  return {
    allowed: (client) => buckets.get(client)?.peek() ?? true,
    ended: (client, status) => {
      if (!REFUSALS.has(status)) return;
      let bucket = buckets.get(client);
      if (bucket) {
        // Kept newest last, so the first is the one unused the longest.
        buckets.delete(client);
      } else {
        bucket = new TokenBucket(rate, now);
        if (buckets.size >= maxClients) buckets.delete(buckets.keys().next().value!);
      }
      buckets.set(client, bucket);
      bucket.take();
    },
    get size() {
      return buckets.size;
    },
  };
}

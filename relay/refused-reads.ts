/**
 * The rate of a client's refused reads, on this node. A GET is not rate limited (an office's
 * desktops reconnect their streams through one address, and a bucket in the shared store would
 * cost the Redis call a GET is spared), so before, a client could send refused GETs as fast as a
 * kept-alive connection carries them: each a stream with a made-up credential or a connect link
 * with a made-up nonce, and each a Redis read. Now every GET the relay refuses (401, 403, 404, or
 * closed before its answer) takes a token from the client's bucket here, at the relay's rate; a
 * client whose bucket is empty is answered 429 before its GET reaches the store, until the bucket
 * refills. A GET under way counts against the bucket until it is answered (or, a stream, until
 * its credential is known): before, only refusals already answered did, so fifty GETs sent at
 * once all found the token one of them needed, and a client that kept fifty in flight was never
 * refused (1,000 of 1,000 made-up streams answered 401, each a Redis read). A client whose GETs
 * are answered takes nothing, so valid streams never meet this limit.
 *
 * Per node and in memory: the limit is there to spare the store. Bounded: past `maxClients`
 * buckets, the oldest is forgotten (it starts full again); GETs under way are bounded by the
 * connections a client may hold.
 */
import { TokenBucket, type Rate } from '../src-main/core/calls/token-bucket';

/** The statuses a refused read ends with: not known, not allowed, not there. */
const REFUSALS = new Set([401, 403, 404]);

export interface RefusedReads {
  /**
   * Whether `client` may make the GET `request` now: false while its refusals and its GETs under
   * way are past the rate. An allowed one is under way until `ended`.
   */
  begin(client: string, request: object): boolean;
  /**
   * `request` was answered with `status` (undefined: closed before it was answered, which counts
   * as refused); a refusal takes a token. Again for the same request: nothing.
   */
  ended(client: string, request: object, status: number | undefined): void;
  /** Clients with a bucket (for the tests). */
  readonly size: number;
}

export function refusedReads(rate: Rate, now: () => number, maxClients = 10_000): RefusedReads {
  const buckets = new Map<string, TokenBucket>();
  const underWay = new Map<string, Set<object>>();
  return {
    begin: (client, request) => {
      const pending = underWay.get(client) ?? new Set<object>();
      const needed = pending.size + 1;
      const bucket = buckets.get(client);
      if (!(bucket ? bucket.peek(needed) : needed <= rate.burst)) return false;
      pending.add(request);
      underWay.set(client, pending);
      return true;
    },
    ended: (client, request, status) => {
      const pending = underWay.get(client);
      if (!pending?.delete(request)) return;
      if (pending.size === 0) underWay.delete(client);
      if (status !== undefined && !REFUSALS.has(status)) return;
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

/**
 * Wake-ups over Redis sharded pub/sub (SSUBSCRIBE, Redis 7) on the node's subscriber connections
 * (one for one server; one per shard for a cluster, ioredis's sharded subscribers), however many
 * clients wait: a device stream waits for appends to its queue, an activation poll for its
 * mailbox. A channel is subscribed while someone on this node waits on it. After a connection
 * comes back (a restart, a failover), every waiter is woken once to look for what it may have
 * missed (ioredis subscribes again by itself); a waiting take also looks again every few seconds.
 */
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from '../src-main/core/log/logger';

export interface Wakeups {
  /**
   * Calls `onWake` for each publish on `channel` until the returned function is called. `ready`
   * settles once the subscription is in place: what is published from then on wakes it.
   */
  watch(channel: string, onWake: () => void): { ready: Promise<void>; stop: () => void };
}

export function redisWakeups(subscriber: Redis | Cluster, log: Logger): Wakeups {
  const watchers = new Map<string, { set: Set<() => void>; ready: Promise<void> }>();
  let wasConnected = false;
  subscriber.on('smessage', (channel: string) => {
    for (const watcher of watchers.get(channel)?.set ?? []) watcher();
  });
  subscriber.on('ready', () => {
    // Publishes made while this node was cut off from Redis reached nobody here.
    if (wasConnected) {
      for (const { set } of watchers.values()) for (const watcher of set) watcher();
    }
    wasConnected = true;
  });
  return {
    watch: (channel, onWake) => {
      let entry = watchers.get(channel);
      if (!entry) {
        const ready = subscriber.ssubscribe(channel).then(
          () => undefined,
          (error: unknown) => log.warn('redis subscribe failed', { error }),
        );
        entry = { set: new Set(), ready };
        watchers.set(channel, entry);
      }
      const current = entry;
      current.set.add(onWake);
      return {
        ready: current.ready,
        stop: () => {
          current.set.delete(onWake);
          if (current.set.size === 0 && watchers.get(channel) === current) {
            watchers.delete(channel);
            subscriber.sunsubscribe(channel).catch(() => undefined);
          }
        },
      };
    },
  };
}

/** How often a waiting take looks again without a wake-up. */
const RETAKE_MS = 2000;

/**
 * Takes one value with `take` as soon as there is one, trying at once (once `watch` is in
 * place) and at every wake-up, for up to `timeoutMs`; never two takes at once, and none after it
 * settled, so a value taken is never dropped.
 */
export function takeWhenWoken(
  wakeups: Wakeups,
  channel: string,
  take: () => Promise<string | undefined>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    /** The time is up: no new take starts. */
    let expiring = false;
    let taking: Promise<void> | undefined;
    let again = false;
    const finish = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(retaking);
      watcher.stop();
      resolve(value);
    };
    const attempt = () => {
      if (settled || expiring) return;
      if (taking) {
        again = true;
        return;
      }
      taking = take()
        .then((value) => {
          if (value !== undefined) finish(value);
        })
        .catch(() => undefined)
        .finally(() => {
          taking = undefined;
          if (again && !settled && !expiring) {
            again = false;
            attempt();
          }
        });
    };
    const watcher = wakeups.watch(channel, attempt);
    const expire = () => {
      expiring = true;
      clearInterval(retaking);
      // A take under way may bring a value: it is given, not dropped.
      if (taking) void taking.then(() => finish(undefined));
      else finish(undefined);
    };
    const timer = setTimeout(expire, timeoutMs);
    // A wake-up lost in a failover is not waited out.
    const retaking = setInterval(attempt, RETAKE_MS);
    if (signal?.aborted) expire();
    signal?.addEventListener('abort', expire, { once: true });
    void watcher.ready.then(attempt);
  });
}

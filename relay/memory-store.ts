/**
 * The embedded store: everything in this process's memory, for a single relay node (the demo, a
 * small office). Lost at a restart: a desktop then activates again. Offsets have Redis's form.
 */
/* eslint-disable @typescript-eslint/require-await -- the interface is asynchronous (Redis); memory answers at once */
import { EventEmitter } from 'node:events';
import { TokenBucket } from '../src-main/core/calls/token-bucket';
import {
  QUEUE_MAX_LENGTH,
  type DeviceRecord,
  type QueuedMessage,
  type RelayStore,
} from './relay-store';

interface Expiring<T> {
  value: T;
  until: number;
}

/** Compares two `ms-seq` offsets. */
export function compareOffsets(a: string, b: string): number {
  const [am = 0n, as = 0n] = a.split('-').map(BigInt);
  const [bm = 0n, bs = 0n] = b.split('-').map(BigInt);
  return am === bm ? Number(as - bs) : am < bm ? -1 : 1;
}

export function memoryStore(now: () => number = Date.now): RelayStore {
  const waiting = new Map<string, Expiring<string>>();
  const boxes = new Map<string, Expiring<string>[]>();
  const devices = new Map<string, DeviceRecord>();
  const queues = new Map<string, QueuedMessage[]>();
  const dials = new Map<string, number>();
  const legs = new Map<string, Expiring<string[]>>();
  const buckets = new Map<string, TokenBucket>();
  /** The time of the take being made (the buckets read it through their clock). */
  let takeAt = 0;
  const appended = new EventEmitter();
  appended.setMaxListeners(0);
  let lastMs = 0;
  let seq = 0;

  const live = <T>(entry: Expiring<T> | undefined) =>
    entry && entry.until > now() ? entry.value : undefined;
  /** Expired entries go once the maps grow (the embedded store must not grow without bound). */
  const sweep = () => {
    if (legs.size + waiting.size + dials.size < 10_000) return;
    const at = now();
    for (const map of [legs, waiting]) {
      for (const [name, entry] of map) if (entry.until <= at) map.delete(name);
    }
    for (const [id, dialled] of dials) if (at - dialled > 10 * 60_000) dials.delete(id);
  };

  return {
    putWaiting: async (key, publicKey, ttlMs) => {
      waiting.set(key, { value: publicKey, until: now() + ttlMs });
      sweep();
    },
    takeWaiting: async (key) => {
      const value = live(waiting.get(key));
      waiting.delete(key);
      return value;
    },
    push: async (box, value, ttlMs) => {
      const list = boxes.get(box) ?? [];
      list.push({ value, until: now() + ttlMs });
      boxes.set(box, list);
      appended.emit(`box:${box}`);
    },
    pop: (box, timeoutMs) =>
      new Promise((resolve) => {
        const take = () => {
          const list = boxes.get(box) ?? [];
          while (list.length > 0) {
            const value = live(list.shift());
            if (value !== undefined) return value;
          }
          boxes.delete(box);
          return undefined;
        };
        const first = take();
        if (first !== undefined) return resolve(first);
        const onPush = () => {
          const value = take();
          if (value === undefined) return;
          clearTimeout(timer);
          appended.off(`box:${box}`, onPush);
          resolve(value);
        };
        const timer = setTimeout(() => {
          appended.off(`box:${box}`, onPush);
          resolve(undefined);
        }, timeoutMs);
        appended.on(`box:${box}`, onPush);
      }),
    addDevice: async (device) => {
      devices.set(device.device_id, device);
    },
    deviceByCredential: async (hash) =>
      [...devices.values()].find((device) => device.credential_sha256 === hash),
    devicesOf: async (tenant, extension) =>
      [...devices.values()].filter(
        (device) => device.tenant_id === tenant && device.user_extension === extension,
      ),
    listDevices: async () => [...devices.values()],
    removeDevice: async (id) => {
      queues.delete(id);
      return devices.delete(id);
    },
    append: async (id, data) => {
      const ms = Math.max(now(), lastMs);
      seq = ms === lastMs ? seq + 1 : 0;
      lastMs = ms;
      const offset = `${ms}-${seq}`;
      const queue = queues.get(id) ?? [];
      queue.push({ id: offset, data });
      if (queue.length > QUEUE_MAX_LENGTH) queue.splice(0, queue.length - QUEUE_MAX_LENGTH);
      queues.set(id, queue);
      appended.emit(`device:${id}`);
      return offset;
    },
    readAfter: async (id, after, count) =>
      (queues.get(id) ?? [])
        .filter((message) => compareOffsets(message.id, after) > 0)
        .slice(0, count),
    watch: (id, onAppend) => {
      appended.on(`device:${id}`, onAppend);
      return () => appended.off(`device:${id}`, onAppend);
    },
    noteDial: async (id, at) => {
      dials.set(id, at);
      sweep();
    },
    dialledSince: async (since) =>
      [...dials.entries()].filter(([, at]) => at >= since).map(([id]) => id),
    legRoute: async (leg) => live(legs.get(leg)),
    setLegRoute: async (leg, ids, ttlMs) => {
      legs.set(leg, { value: ids, until: now() + ttlMs });
      sweep();
    },
    takeToken: async (name, rate, atMs) => {
      takeAt = atMs;
      // Bounded: a flood of client addresses starts every bucket full again.
      if (buckets.size > 10_000) buckets.clear();
      let bucket = buckets.get(name);
      if (!bucket) buckets.set(name, (bucket = new TokenBucket(rate, () => takeAt)));
      return bucket.take();
    },
    close: async () => {
      appended.removeAllListeners();
    },
  };
}

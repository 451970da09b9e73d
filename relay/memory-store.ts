/**
 * The embedded store: everything in this process's memory, for a single relay node (the demo, a
 * small office). Lost at a restart: a desktop then activates again. Offsets have Redis's form.
 * Every entry has the life it has in Redis (a wait, a mailbox value, a cap's member, a dial
 * note, a leg's route), and what outlives it goes at the next sweep (at most once a second, on
 * the next write, and on a timer), so what clients leave behind cannot grow without bound.
 */
/* oxlint-disable typescript/require-await -- the interface is asynchronous (Redis); memory answers at once */
import { EventEmitter } from 'node:events';
import { TokenBucket } from '../src-main/core/calls/token-bucket';
import {
  DIAL_NOTES_KEPT_MS,
  LEGS_PER_DIAL,
  messageMark,
  QUEUE_MAX_LENGTH,
  REPEAT_WINDOW_MS,
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

/** How often expired entries are looked for. */
const SWEEP_INTERVAL_MS = 1000;

/** The embedded store, and how many entries it holds (what the bounds are measured by). */
export type MemoryStore = RelayStore & { entries(): number };

export function memoryStore(now: () => number = Date.now): MemoryStore {
  const waiting = new Map<string, Expiring<string>>();
  const boxes = new Map<string, Expiring<string>[]>();
  const pools = new Map<string, Map<string, number>>();
  const devices = new Map<string, DeviceRecord>();
  const queues = new Map<string, QueuedMessage[]>();
  /** Per tenant: device → when it last noted a dial. */
  const dials = new Map<string, Map<string, number>>();
  const legGrants = new Map<string, Expiring<number>>();
  const legs = new Map<string, Expiring<string[]>>();
  /** Per client address; it goes once it would be full again anyway (as in Redis). */
  const buckets = new Map<string, Expiring<TokenBucket>>();
  /** Messages appended lately, by device and mark: a repeat is not appended again. */
  const sent = new Map<string, Expiring<true>>();
  /** The time of the take being made (the buckets read it through their clock). */
  let takeAt = 0;
  const appended = new EventEmitter();
  appended.setMaxListeners(0);
  /** Per device: its queue's last offset's time and ordinal (offsets never go back). */
  const offsets = new Map<string, { ms: number; ordinal: number }>();
  let sweptAt = -Infinity;

  const live = <T>(entry: Expiring<T> | undefined) =>
    entry && entry.until > now() ? entry.value : undefined;
  const sweep = (force = false) => {
    const at = now();
    if (!force && at - sweptAt < SWEEP_INTERVAL_MS) return;
    sweptAt = at;
    for (const map of [waiting, legs, legGrants, buckets, sent] as Map<
      string,
      Expiring<unknown>
    >[]) {
      for (const [name, entry] of map) if (entry.until <= at) map.delete(name);
    }
    for (const [box, list] of boxes) {
      const kept = list.filter((entry) => entry.until > at);
      if (kept.length > 0) boxes.set(box, kept);
      else boxes.delete(box);
    }
    for (const [pool, members] of pools) {
      for (const [member, until] of members) if (until <= at) members.delete(member);
      if (members.size === 0) pools.delete(pool);
    }
    for (const [tenant, notes] of dials) {
      for (const [id, dialled] of notes) if (at - dialled > DIAL_NOTES_KEPT_MS) notes.delete(id);
      if (notes.size === 0) dials.delete(tenant);
    }
  };
  const timer = setInterval(() => sweep(true), SWEEP_INTERVAL_MS * 10);
  timer.unref();
  const wrote = () => sweep();

  return {
    putWaiting: async (name, value, ttlMs) => {
      wrote();
      const before = live(waiting.get(name));
      if (before !== undefined) return before;
      waiting.set(name, { value, until: now() + ttlMs });
      return undefined;
    },
    readWaiting: async (name) => live(waiting.get(name)),
    updateWaiting: async (name, value) => {
      const entry = waiting.get(name);
      if (live(entry) === undefined) return false;
      entry!.value = value;
      return true;
    },
    renewWaiting: async (name, ttlMs) => {
      const entry = waiting.get(name);
      if (live(entry) !== undefined) entry!.until = now() + ttlMs;
    },
    takeWaiting: async (name) => {
      const value = live(waiting.get(name));
      waiting.delete(name);
      return value;
    },
    admit: async (pool, member, cap, ttlMs, atMs) => {
      wrote();
      const members = pools.get(pool) ?? new Map<string, number>();
      for (const [each, until] of members) if (until <= atMs) members.delete(each);
      if (!members.has(member) && members.size >= cap) return false;
      members.set(member, atMs + ttlMs);
      pools.set(pool, members);
      return true;
    },
    release: async (pool, member) => {
      pools.get(pool)?.delete(member);
    },
    push: async (box, value, ttlMs) => {
      wrote();
      const until = now() + ttlMs;
      const list = boxes.get(box) ?? [];
      list.push({ value, until });
      // The whole mailbox lives `ttlMs` from its last push, as the Redis list does.
      for (const entry of list) entry.until = until;
      boxes.set(box, list);
      appended.emit(`box:${box}`);
    },
    pop: (box, timeoutMs, signal) =>
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
        const expire = () => {
          clearTimeout(timer);
          appended.off(`box:${box}`, onPush);
          resolve(undefined);
        };
        const timer = setTimeout(expire, timeoutMs);
        signal?.addEventListener('abort', expire, { once: true });
        appended.on(`box:${box}`, onPush);
        if (signal?.aborted) expire();
      }),
    addDevice: async (device) => {
      devices.set(device.device_id, device);
    },
    deviceByCredential: async (hash) =>
      [...devices.values()].find((device) => device.credential_sha256 === hash),
    deviceIdsOf: async (tenant, extension) =>
      [...devices.values()]
        .filter((device) => device.tenant_id === tenant && device.user_extension === extension)
        .map((device) => device.device_id),
    isKnown: async (hash) =>
      [...devices.values()].some((device) => device.credential_sha256 === hash),
    listDevices: async () => [...devices.values()],
    removeDevice: async (id) => {
      queues.delete(id);
      offsets.delete(id);
      legGrants.delete(id);
      const record = devices.get(id);
      if (record) dials.get(record.tenant_id)?.delete(id);
      return devices.delete(id);
    },
    append: async (id, data, options) => {
      wrote();
      if (options?.known && !devices.has(id)) return '';
      const mark = `${id}\n${messageMark(data)}`;
      if (live(sent.get(mark))) return '';
      sent.set(mark, { value: true, until: now() + REPEAT_WINDOW_MS });
      const last = offsets.get(id) ?? { ms: 0, ordinal: 0 };
      const next = { ms: Math.max(now(), last.ms), ordinal: last.ordinal + 1 };
      offsets.set(id, next);
      const offset = `${next.ms}-${next.ordinal}`;
      const queue = queues.get(id) ?? [];
      queue.push({ id: offset, data });
      if (queue.length > QUEUE_MAX_LENGTH) {
        // Trimmed whether or not anyone listens (before, an append without `dropped` kept all).
        const dropped = queue.splice(0, queue.length - QUEUE_MAX_LENGTH).length;
        options?.dropped?.(dropped);
      }
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
    noteDial: async (id, tenant, at, windowMs) => {
      wrote();
      const notes = dials.get(tenant) ?? new Map<string, number>();
      notes.set(id, at);
      dials.set(tenant, notes);
      legGrants.set(id, { value: 0, until: now() + windowMs });
    },
    dialledSince: async (tenant, since) =>
      [...(dials.get(tenant) ?? new Map<string, number>()).entries()]
        .filter(([, at]) => at >= since)
        .map(([id]) => id),
    grantLeg: async (id) => {
      const entry = legGrants.get(id);
      if (live(entry) === undefined) return false;
      entry!.value += 1;
      return entry!.value <= LEGS_PER_DIAL;
    },
    legRoute: async (tenant, leg) => live(legs.get(JSON.stringify([tenant, leg]))),
    setLegRoute: async (tenant, leg, ids, ttlMs) => {
      wrote();
      legs.set(JSON.stringify([tenant, leg]), { value: ids, until: now() + ttlMs });
    },
    takeToken: async (name, rate, atMs) => {
      takeAt = atMs;
      // Bounded: a flood of client addresses starts every bucket full again.
      if (buckets.size > 10_000) buckets.clear();
      wrote();
      let entry = buckets.get(name);
      if (!entry) {
        entry = { value: new TokenBucket(rate, () => takeAt), until: 0 };
        buckets.set(name, entry);
      }
      entry.until = atMs + Math.ceil((rate.burst / rate.perSecond) * 1000) + 1000;
      return entry.value.take();
    },
    ping: async () => undefined,
    entries: () => {
      sweep(true);
      let total = waiting.size + legs.size + legGrants.size + buckets.size + sent.size;
      for (const list of boxes.values()) total += list.length;
      for (const members of pools.values()) total += members.size;
      for (const notes of dials.values()) total += notes.size;
      return total;
    },
    close: async () => {
      clearInterval(timer);
      appended.removeAllListeners();
    },
  };
}

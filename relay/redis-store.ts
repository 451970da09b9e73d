/**
 * The shared store: Redis, for any number of stateless relay nodes. Per device: a hash with its
 * record, a stream (XADD, bounded with MAXLEN ~) as its queue with replay by offset, and a
 * pub/sub channel that tells every node "something was appended", so the node holding the
 * device's connection reads it at once. Mailboxes are lists read with BLPOP (on a connection of
 * their own while they block). After Redis comes back, every watcher is woken once to read what
 * it may have missed (ioredis reconnects and subscribes again by itself).
 */
import { Redis } from 'ioredis';
import type { Logger } from '../src-main/core/log/logger';
import {
  QUEUE_MAX_LENGTH,
  type DeviceRecord,
  type QueuedMessage,
  type RelayStore,
} from './relay-store';

const PREFIX = 'callbar:relay:';
const key = (...parts: string[]) => PREFIX + parts.join(':');
const userKey = (tenant: string, extension: string) =>
  key('user', JSON.stringify([tenant, extension]));
/**
 * A token bucket in Redis (TokenBucket's rule, atomically, for every node): KEYS[1] the bucket;
 * ARGV burst, per second, now (ms). Answers 1 when a token was taken. The bucket expires once it
 * would be full again anyway.
 */
const TAKE_TOKEN = `
local burst = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * per_second)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / per_second * 1000) + 1000)
return taken
`;

/** Dial notes older than this are dropped (the fallback looks back seconds, not hours). */
const DIAL_NOTES_KEPT_MS = 10 * 60_000;

/** The connection with the script defined above. */
type TokenRedis = Redis & {
  takeToken(key: string, burst: number, perSecond: number, atMs: number): Promise<number>;
};

export function redisStore(url: string, log: Logger): RelayStore {
  const options = { lazyConnect: false, maxRetriesPerRequest: null };
  const redis = new Redis(url, options);
  redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  const subscriber = new Redis(url, options);
  const watchers = new Map<string, Set<() => void>>();
  const blocking = new Set<Redis>();
  let wasConnected = false;
  for (const connection of [redis, subscriber]) {
    connection.on('error', (error: Error) => log.warn('redis connection problem', { error }));
  }
  subscriber.on('message', (channel: string) => {
    for (const watcher of watchers.get(channel) ?? []) watcher();
  });
  subscriber.on('ready', () => {
    // Appends made while this node was cut off from Redis were announced to nobody here.
    if (wasConnected) for (const set of watchers.values()) for (const watcher of set) watcher();
    wasConnected = true;
  });

  const deviceFrom = (fields: Record<string, string>): DeviceRecord | undefined =>
    fields.device_id
      ? {
          device_id: fields.device_id,
          tenant_id: fields.tenant_id ?? '',
          user_extension: fields.user_extension ?? '',
          credential_sha256: fields.credential_sha256 ?? '',
          created_at: fields.created_at ?? '',
        }
      : undefined;
  const device = async (id: string) => deviceFrom(await redis.hgetall(key('device', id)));

  return {
    putWaiting: async (name, publicKey, ttlMs) => {
      await redis.set(key('wait', name), publicKey, 'PX', ttlMs);
    },
    takeWaiting: async (name) => (await redis.getdel(key('wait', name))) ?? undefined,
    push: async (box, value, ttlMs) => {
      await redis.multi().rpush(key('box', box), value).pexpire(key('box', box), ttlMs).exec();
    },
    pop: async (box, timeoutMs) => {
      // BLPOP blocks its connection: one of its own for the wait.
      const connection = redis.duplicate();
      blocking.add(connection);
      try {
        const answer = await connection.blpop(key('box', box), timeoutMs / 1000);
        return answer?.[1];
      } finally {
        blocking.delete(connection);
        connection.disconnect();
      }
    },
    addDevice: async (record) => {
      await redis
        .multi()
        .hset(key('device', record.device_id), { ...record })
        .set(key('credential', record.credential_sha256), record.device_id)
        .sadd(userKey(record.tenant_id, record.user_extension), record.device_id)
        .sadd(key('devices'), record.device_id)
        .exec();
    },
    deviceByCredential: async (hash) => {
      const id = await redis.get(key('credential', hash));
      return id ? device(id) : undefined;
    },
    devicesOf: async (tenant, extension) => {
      const ids = await redis.smembers(userKey(tenant, extension));
      const records = await Promise.all(ids.map(device));
      return records.filter((record) => record !== undefined);
    },
    listDevices: async () => {
      const records = await Promise.all((await redis.smembers(key('devices'))).map(device));
      return records.filter((record) => record !== undefined);
    },
    removeDevice: async (id) => {
      const record = await device(id);
      if (!record) return false;
      await redis
        .multi()
        .del(key('device', id), key('queue', id), key('credential', record.credential_sha256))
        .srem(userKey(record.tenant_id, record.user_extension), id)
        .srem(key('devices'), id)
        .exec();
      return true;
    },
    append: async (id, data) => {
      const offset = await redis.xadd(
        key('queue', id),
        'MAXLEN',
        '~',
        QUEUE_MAX_LENGTH,
        '*',
        'data',
        data,
      );
      await redis.publish(key('appended', id), '');
      return offset ?? '';
    },
    readAfter: async (id, after, count) => {
      const entries = await redis.xrange(key('queue', id), `(${after}`, '+', 'COUNT', count);
      return entries.map(([offset, fields]): QueuedMessage => ({
        id: offset,
        data: fields[1] ?? '',
      }));
    },
    watch: (id, onAppend) => {
      const channel = key('appended', id);
      let set = watchers.get(channel);
      if (!set) {
        set = new Set();
        watchers.set(channel, set);
        subscriber.subscribe(channel).catch((error: unknown) => {
          log.warn('redis subscribe failed', { error });
        });
      }
      set.add(onAppend);
      return () => {
        set.delete(onAppend);
        if (set.size === 0 && watchers.get(channel) === set) {
          watchers.delete(channel);
          subscriber.unsubscribe(channel).catch(() => undefined);
        }
      };
    },
    noteDial: async (id, at) => {
      await redis
        .multi()
        .zadd(key('dials'), at, id)
        .zremrangebyscore(key('dials'), '-inf', at - DIAL_NOTES_KEPT_MS)
        .exec();
    },
    dialledSince: (since) => redis.zrangebyscore(key('dials'), since, '+inf'),
    legRoute: async (leg) => {
      const value = await redis.get(key('leg', leg));
      return value ? (JSON.parse(value) as string[]) : undefined;
    },
    setLegRoute: async (leg, ids, ttlMs) => {
      await redis.set(key('leg', leg), JSON.stringify(ids), 'PX', ttlMs);
    },
    takeToken: async (name, rate, atMs) => {
      const taken = await (redis as TokenRedis).takeToken(
        key('rate', name),
        rate.burst,
        rate.perSecond,
        atMs,
      );
      return taken === 1;
    },
    close: async () => {
      for (const connection of blocking) connection.disconnect();
      subscriber.disconnect();
      await redis.quit().catch(() => undefined);
    },
  };
}

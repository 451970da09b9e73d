/**
 * The shared store: Redis, for any number of stateless relay nodes. Per device: a hash with its
 * record, a stream (XADD, bounded with MAXLEN ~) as its queue with replay by offset, and a
 * pub/sub channel that tells every node "something was appended", so the node holding the
 * device's connection reads it at once. Mailboxes are lists with a pub/sub channel of their own:
 * a wait pops when woken, on the node's one subscriber connection (redis-wakeups.ts), so however
 * many clients wait a node holds two connections to Redis. Waits (activation registrations) are
 * strings with a life, set only if absent; caps are sorted sets of members by expiry, counted and
 * filled atomically by a script.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../src-main/core/log/logger';
import { redisWakeups, takeWhenWoken } from './redis-wakeups';
import {
  DIAL_NOTES_KEPT_MS,
  LEGS_PER_DIAL,
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

/**
 * A cap: KEYS[1] a sorted set of members scored by when they stop counting; ARGV member, cap,
 * now (ms), ttl (ms). Answers 1 when the member counts (it was counted already, or there was
 * room), 0 when the pool is full.
 */
const ADMIT = `
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false and
   redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
local until_ms = now + tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], until_ms, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], math.max(until_ms, tonumber(last[2])))
return 1
`;

/** One more leg for a device that noted a dial (KEYS[1] its count; ARGV the most): 1 or 0. */
const GRANT_LEG = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('INCR', KEYS[1]) > tonumber(ARGV[1]) then return 0 end
return 1
`;

/** The connection with the scripts defined above. */
type ScriptedRedis = Redis & {
  takeToken(key: string, burst: number, perSecond: number, atMs: number): Promise<number>;
  admit(key: string, member: string, cap: number, atMs: number, ttlMs: number): Promise<number>;
  grantLeg(key: string, most: number): Promise<number>;
};

export function redisStore(
  url: string,
  log: Logger,
  hooks: { onError?: () => void } = {},
): RelayStore {
  const options = { lazyConnect: false, maxRetriesPerRequest: null };
  const redis = new Redis(url, options) as ScriptedRedis;
  redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  redis.defineCommand('admit', { numberOfKeys: 1, lua: ADMIT });
  redis.defineCommand('grantLeg', { numberOfKeys: 1, lua: GRANT_LEG });
  const subscriber = new Redis(url, options);
  for (const connection of [redis, subscriber]) {
    connection.on('error', (error: Error) => {
      hooks.onError?.();
      log.warn('redis connection problem', { error });
    });
  }
  const wakeups = redisWakeups(subscriber, log);

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
  const dials = (tenant: string) => key('dials', tenant);

  return {
    putWaiting: async (name, value, ttlMs) => {
      // Redis 7: set only if absent, and say what was there.
      const before = await redis.call('SET', key('wait', name), value, 'PX', ttlMs, 'NX', 'GET');
      return typeof before === 'string' ? before : undefined;
    },
    readWaiting: async (name) => (await redis.get(key('wait', name))) ?? undefined,
    updateWaiting: async (name, value) =>
      (await redis.set(key('wait', name), value, 'KEEPTTL', 'XX')) === 'OK',
    renewWaiting: async (name, ttlMs) => {
      await redis.pexpire(key('wait', name), ttlMs);
    },
    takeWaiting: async (name) => (await redis.getdel(key('wait', name))) ?? undefined,
    admit: async (pool, member, cap, ttlMs, atMs) =>
      (await redis.admit(key('cap', pool), member, cap, atMs, ttlMs)) === 1,
    release: async (pool, member) => {
      await redis.zrem(key('cap', pool), member);
    },
    push: async (box, value, ttlMs) => {
      await redis.multi().rpush(key('box', box), value).pexpire(key('box', box), ttlMs).exec();
      await redis.publish(key('pushed', box), '');
    },
    pop: (box, timeoutMs, signal) =>
      takeWhenWoken(
        wakeups,
        key('pushed', box),
        async () => (await redis.lpop(key('box', box))) ?? undefined,
        timeoutMs,
        signal,
      ),
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
        .del(
          key('device', id),
          key('queue', id),
          key('credential', record.credential_sha256),
          key('legs', id),
        )
        .srem(userKey(record.tenant_id, record.user_extension), id)
        .srem(key('devices'), id)
        .zrem(dials(record.tenant_id), id)
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
    watch: (id, onAppend) => wakeups.watch(key('appended', id), onAppend).stop,
    noteDial: async (id, tenant, at, windowMs) => {
      await redis
        .multi()
        .zadd(dials(tenant), at, id)
        .zremrangebyscore(dials(tenant), '-inf', at - DIAL_NOTES_KEPT_MS)
        .pexpire(dials(tenant), DIAL_NOTES_KEPT_MS)
        .set(key('legs', id), 0, 'PX', windowMs)
        .exec();
    },
    dialledSince: (tenant, since) => redis.zrangebyscore(dials(tenant), since, '+inf'),
    grantLeg: async (id) => (await redis.grantLeg(key('legs', id), LEGS_PER_DIAL)) === 1,
    legRoute: async (tenant, leg) => {
      const value = await redis.get(key('leg', JSON.stringify([tenant, leg])));
      return value ? (JSON.parse(value) as string[]) : undefined;
    },
    setLegRoute: async (tenant, leg, ids, ttlMs) => {
      await redis.set(key('leg', JSON.stringify([tenant, leg])), JSON.stringify(ids), 'PX', ttlMs);
    },
    takeToken: async (name, rate, atMs) => {
      const taken = await redis.takeToken(key('rate', name), rate.burst, rate.perSecond, atMs);
      return taken === 1;
    },
    ping: async () => {
      await redis.ping();
    },
    close: async () => {
      subscriber.disconnect();
      await redis.quit().catch(() => undefined);
    },
  };
}

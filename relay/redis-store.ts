/**
 * The shared store: Redis (one server, RELAY_REDIS_URL) or a Redis Cluster
 * (RELAY_REDIS_CLUSTER_NODES, through ioredis's Cluster client), for any number of stateless relay
 * nodes. Per device, in one hash slot (the `{device id}` hash tag): a hash with its record, a
 * stream (XADD, bounded with MAXLEN ~) as its queue with replay by offset, its leg count, and a
 * sharded pub/sub channel (SPUBLISH/SSUBSCRIBE, Redis 7) that tells the node holding the device's
 * connection "something was appended". Per tenant, in the tenant's slot: its users' device sets,
 * its devices, its dial notes. Mailboxes are lists with a sharded channel of their own: a wait
 * pops when woken, on the node's subscriber connections (redis-wakeups.ts: one, or one per shard),
 * so however many clients wait a node holds a fixed number of connections. Waits (activation
 * registrations) are strings with a life, set only if absent; caps are sorted sets of members by
 * expiry, counted and filled atomically by a script. No command spans two slots. On a cluster each
 * append waits for a replica's acknowledgement (WAIT 1) before the platform is answered, so a
 * master lost right after keeps the event; a master that has no replica in sync (its own replica
 * was promoted after a failover, or the cluster has none) is not waited on: WAIT would hold the
 * node's one connection to that master for its whole timeout on every append.
 */
import { Cluster, Redis } from 'ioredis';
import type { Logger } from '../src-main/core/log/logger';
import { redisWakeups, takeWhenWoken } from './redis-wakeups';
import { settledWithin } from './store-health';
import {
  DIAL_NOTES_KEPT_MS,
  LEGS_PER_DIAL,
  QUEUE_MAX_LENGTH,
  messageMark,
  REPEAT_WINDOW_MS,
  type DeviceRecord,
  type QueuedMessage,
  StoreUnavailable,
  type RelayStore,
} from './relay-store';

const PREFIX = 'callbar:relay:';
const key = (...parts: string[]) => PREFIX + parts.join(':');
/** A device's keys share its slot. */
const deviceKey = (kind: string, id: string) => key(kind, `{${id}}`);
/** A tenant's keys share its slot. */
const tenantKey = (kind: string, tenant: string, ...rest: string[]) =>
  key(kind, `{tenant:${tenant}}`, ...rest);
const userKey = (tenant: string, extension: string) =>
  tenantKey('user', tenant, JSON.stringify(extension));
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

/**
 * Appends a message once (relay-store.ts, `append`): KEYS[1] the device's queue, KEYS[2] the
 * message's mark, KEYS[3] the device's wake-up channel, KEYS[4] its record, KEYS[5] its queue's
 * last offset (time and ordinal; all in the device's slot); ARGV the queue's most, the message,
 * how long the mark lasts (ms), '1' on a cluster: count this master's replicas in sync
 * (`state=online`) and leave the wake-up to the caller (after WAIT), else publish it here (one
 * Redis command per append instead of two), and '1' to append only while the device's record
 * exists (`known`). The offset is `<ms>-<ordinal>`: Redis's clock (never behind the queue's last
 * offset; past it for a queue written before ordinals) and the message's number in the queue, so
 * a reader sees a gap where messages were dropped. Answers the offset ('' for a repeat or an
 * unknown device), that count, and how many messages the bound dropped. One script, so a node
 * killed halfway leaves either both or neither.
 */
const APPEND_ONCE = `
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[4]) == 0 then return {'', 0, 0} end
if not redis.call('SET', KEYS[2], '', 'NX', 'PX', ARGV[3]) then return {'', 0, 0} end
local time = redis.call('TIME')
local ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local last = redis.call('HGET', KEYS[5], 'ms')
if last then
  ms = math.max(ms, tonumber(last))
else
  local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
  if newest then ms = math.max(ms, tonumber(string.match(newest[1], '^%d+')) + 1) end
end
local ordinal = redis.call('HINCRBY', KEYS[5], 'ordinal', 1)
redis.call('HSET', KEYS[5], 'ms', string.format('%d', ms))
local before = redis.call('XLEN', KEYS[1])
local offset = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1],
  string.format('%d-%d', ms, ordinal), 'data', ARGV[2])
local dropped = before + 1 - redis.call('XLEN', KEYS[1])
local online = 0
if ARGV[4] == '1' then
  local _, count = string.gsub(redis.call('INFO', 'replication'), 'state=online', '')
  online = count
else
  redis.call('SPUBLISH', KEYS[3], '')
end
return {offset, online, dropped}
`;

/** One more leg for a device that noted a dial (KEYS[1] its count; ARGV the most): 1 or 0. */
const GRANT_LEG = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('INCR', KEYS[1]) > tonumber(ARGV[1]) then return 0 end
return 1
`;

/** The connection with the scripts defined above. */
type ScriptedRedis = (Redis | Cluster) & {
  takeToken(key: string, burst: number, perSecond: number, atMs: number): Promise<number>;
  admit(key: string, member: string, cap: number, atMs: number, ttlMs: number): Promise<number>;
  grantLeg(key: string, most: number): Promise<number>;
  appendOnce(
    queue: string,
    mark: string,
    channel: string,
    record: string,
    offsets: string,
    most: number,
    data: string,
    markMs: number,
    countReplicas: '1' | '0',
    known: '1' | '0',
  ): Promise<[string, number, number]>;
};

/** One Redis (`redis://…`), or a Redis Cluster given by some of its nodes (`host:port`). */
export type RedisTarget = string | { cluster: string[] };

/** How long an append waits for a replica's acknowledgement (a cluster only). */
const REPLICA_WAIT_MS = 1000;

/**
 * How long a command may wait for Redis's answer (ioredis's `commandTimeout`), queued while
 * ioredis reconnects or sent to a server that answers nothing (a hung process keeps its
 * connection open): past it the command fails, and the request that needed it is answered 503
 * instead of waiting for ever (`maxRetriesPerRequest: null` keeps commands queued across
 * reconnections). Longer than WAIT's REPLICA_WAIT_MS; a command that failed so may still be done
 * when Redis answers again, which the repeat window (REPEAT_WINDOW_MS) makes harmless for an
 * append the platform repeats.
 */
export const COMMAND_TIMEOUT_MS = 3000;

/** Errors Redis answers with while it cannot serve (as opposed to a command it refuses). */
const UNAVAILABLE_REPLIES = /^(LOADING|CLUSTERDOWN|MASTERDOWN|TRYAGAIN|BUSY)\b/;

/** `error` as StoreUnavailable when it says Redis did not answer, else as it is. */
function unavailable(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof StoreUnavailable) return error;
  const refused = error.name === 'ReplyError' && !UNAVAILABLE_REPLIES.test(error.message);
  return refused ? error : new StoreUnavailable(error);
}

/**
 * `store` with each of its promises' failures told apart (`unavailable`). With `deadlines` (a
 * cluster), a call that has not settled after COMMAND_TIMEOUT_MS (a pop: after its own wait and
 * that) fails as unavailable too: ioredis's Cluster queues commands while it has no node to send
 * them to (every node down, the client reconnecting), where `commandTimeout` does not reach, and
 * a request in flight then waited until Redis came back. Its command may still be carried out
 * when Redis answers again, as one that timed out (COMMAND_TIMEOUT_MS).
 */
function telling(store: RelayStore, deadlines: boolean): RelayStore {
  const told = { ...store };
  for (const name of Object.keys(told) as (keyof RelayStore)[]) {
    const method = store[name] as (...args: unknown[]) => unknown;
    (told as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const result = method(...args);
      if (!(result instanceof Promise)) return result;
      const answer = result.catch((error: unknown) => {
        throw unavailable(error);
      });
      if (!deadlines || name === 'close') return answer;
      const waits = name === 'pop' ? (args[1] as number) : 0;
      const ms = waits + COMMAND_TIMEOUT_MS;
      return settledWithin(answer, ms, () => {
        throw new StoreUnavailable(new Error(`no answer within ${ms} ms`));
      });
    };
  }
  return told;
}

export function redisStore(
  target: RedisTarget,
  log: Logger,
  hooks: { onError?: () => void } = {},
): RelayStore {
  const options = { lazyConnect: false, maxRetriesPerRequest: null };
  // Commands only: the subscriber's SSUBSCRIBE waits for a server that comes back.
  const commands = { ...options, commandTimeout: COMMAND_TIMEOUT_MS };
  // The commands issued in one turn of the event loop go to Redis as one write (ioredis's
  // auto-pipelining): each was a write of its own, and at thousands of devices the keep-alives'
  // and deliveries' writes were a third of a node's CPU (a profile under `npm run bench:relay`).
  // The sharded subscriptions keep their own connections.
  const pipelined = {
    enableAutoPipelining: true,
    autoPipeliningIgnoredCommands: ['ssubscribe', 'sunsubscribe'],
  };
  const cluster = typeof target === 'string' ? undefined : target.cluster;
  const redis = (
    cluster
      ? new Cluster(
          cluster.map((node) => {
            const [host = '127.0.0.1', port = '6379'] = node.split(':');
            return { host, port: Number(port) };
          }),
          { redisOptions: commands, shardedSubscribers: true, ...pipelined },
        )
      : new Redis(target as string, { ...commands, ...pipelined })
  ) as ScriptedRedis;
  redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  redis.defineCommand('admit', { numberOfKeys: 1, lua: ADMIT });
  redis.defineCommand('grantLeg', { numberOfKeys: 1, lua: GRANT_LEG });
  redis.defineCommand('appendOnce', { numberOfKeys: 5, lua: APPEND_ONCE });
  /** Said at most once a minute: appends on a master without a replica in sync. */
  let unreplicatedSaidAt = -Infinity;
  // A cluster client subscribes on a connection per shard of its own; one server, on a second.
  const subscriber = cluster ? redis : new Redis(target as string, options);
  for (const connection of new Set([redis, subscriber])) {
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
  const device = async (id: string) => deviceFrom(await redis.hgetall(deviceKey('device', id)));
  const dials = (tenant: string) => tenantKey('dials', tenant);
  const present = (records: (DeviceRecord | undefined)[]) =>
    records.filter((record) => record !== undefined);

  const store: RelayStore = {
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
      await redis.spublish(key('pushed', box), '');
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
      // Each in its own slot; the credential last: a device is found by it once it is whole.
      await redis.hset(deviceKey('device', record.device_id), { ...record });
      await redis.sadd(userKey(record.tenant_id, record.user_extension), record.device_id);
      await redis.sadd(tenantKey('devices', record.tenant_id), record.device_id);
      await redis.sadd(key('tenants'), record.tenant_id);
      await redis.set(key('credential', record.credential_sha256), record.device_id);
    },
    deviceByCredential: async (hash) => {
      const id = await redis.get(key('credential', hash));
      return id ? device(id) : undefined;
    },
    deviceIdsOf: (tenant, extension) => redis.smembers(userKey(tenant, extension)),
    isKnown: async (hash) => (await redis.exists(key('credential', hash))) === 1,
    listDevices: async () => {
      const tenants = await redis.smembers(key('tenants'));
      const ids = await Promise.all(
        tenants.map((tenant) => redis.smembers(tenantKey('devices', tenant))),
      );
      return present(await Promise.all(ids.flat().map(device)));
    },
    removeDevice: async (id) => {
      const record = await device(id);
      if (!record) return false;
      // The credential first: from then on the device is unknown.
      await redis.del(key('credential', record.credential_sha256));
      await redis.del(
        deviceKey('device', id),
        deviceKey('queue', id),
        deviceKey('offsets', id),
        deviceKey('legs', id),
      );
      await redis.srem(userKey(record.tenant_id, record.user_extension), id);
      await redis.srem(tenantKey('devices', record.tenant_id), id);
      await redis.zrem(dials(record.tenant_id), id);
      return true;
    },
    append: async (id, data, options) => {
      const queue = deviceKey('queue', id);
      const appended = deviceKey('appended', id);
      const mark = key('sent', `{${id}}`, messageMark(data));
      const [offset, replicas, dropped] = await redis.appendOnce(
        queue,
        mark,
        appended,
        deviceKey('device', id),
        deviceKey('offsets', id),
        QUEUE_MAX_LENGTH,
        data,
        REPEAT_WINDOW_MS,
        cluster ? '1' : '0',
        options?.known ? '1' : '0',
      );
      if (dropped > 0) options?.dropped?.(dropped);
      // One server: the script published the wake-up.
      if (offset === '' || !cluster) return offset;
      // WAIT has no key: in a pipeline with the device's channel it goes to the slot's master,
      // on the connection that appended (it waits for this connection's writes), and the wake-up
      // follows once a replica has the event.
      const publish = redis.pipeline();
      if (replicas > 0) publish.wait(1, REPLICA_WAIT_MS);
      const results = await publish.spublish(appended, '').exec();
      for (const [error] of results ?? []) if (error) throw error;
      const acknowledged = replicas > 0 && results?.[0]?.[1] !== 0;
      if (!acknowledged && Date.now() - unreplicatedSaidAt > 60_000) {
        unreplicatedSaidAt = Date.now();
        log.warn(
          replicas > 0
            ? 'an event was queued before a replica acknowledged it'
            : 'events are queued on a Redis master without a replica in sync (after a failover, until a replica is added)',
        );
      }
      return offset;
    },
    readAfter: async (id, after, count) => {
      const entries = await redis.xrange(deviceKey('queue', id), `(${after}`, '+', 'COUNT', count);
      return entries.map(([offset, fields]): QueuedMessage => ({
        id: offset,
        data: fields[1] ?? '',
      }));
    },
    watch: (id, onAppend) => wakeups.watch(deviceKey('appended', id), onAppend).stop,
    noteDial: async (id, tenant, at, windowMs) => {
      await redis
        .multi()
        .zadd(dials(tenant), at, id)
        .zremrangebyscore(dials(tenant), '-inf', at - DIAL_NOTES_KEPT_MS)
        .pexpire(dials(tenant), DIAL_NOTES_KEPT_MS)
        .exec();
      await redis.set(deviceKey('legs', id), 0, 'PX', windowMs);
    },
    dialledSince: (tenant, since) => redis.zrangebyscore(dials(tenant), since, '+inf'),
    grantLeg: async (id) => (await redis.grantLeg(deviceKey('legs', id), LEGS_PER_DIAL)) === 1,
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
      if (subscriber !== redis) subscriber.disconnect();
      await redis.quit().catch(() => undefined);
    },
  };
  return telling(store, cluster !== undefined);
}

/**
 * What a flood from the internet costs Redis: nothing for the probes, and for everything else at
 * most the rate a client is allowed, however fast it sends.
 *
 * The load balancer's probes are never refused (a client's refused reads do not count against
 * them), so what they cost must not depend on who sends them: `/healthz` and `/readyz` send
 * Redis nothing. Before, each `/readyz` pinged Redis, so anyone who could reach the port made
 * Redis answer a command per request, as fast as they could send them. Readiness is the node's
 * own check (a ping a second) instead; it still turns 503 when Redis stops, and a node that has
 * not had its first answer yet is not ready.
 *
 * Past its rate a client is refused 429, but before, the refusal cost a store call all the same:
 * each POST took from the shared bucket in Redis (1,000 refused, 4,000 commands), and GETs that
 * the relay refuses (a stream with a made-up credential: a Redis read each) were limited only by
 * refusals already answered, so fifty sent at once always passed (1,000 of 1,000 answered 401).
 * One relay node on a real redis-server; another with a small rate.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import type { RelayStore } from '../../../relay/relay-store';
import { silentLogger } from '../../../src-main/core/log/logger';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

let redis: RunningRedis;
let store: RelayStore;
let node: RunningRelay;
let slow: RunningRelay;
let admin: Redis;
const RATE = { burst: 20, perSecond: 2 };

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url, { maxRetriesPerRequest: null });
  admin.on('error', () => undefined);
  store = redisStore(redis.url, silentLogger);
  node = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    webhookSecret: 'relay-probes-webhook-secret-0123456789abc',
  });
  slow = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    webhookSecret: 'relay-probes-webhook-secret-0123456789abc',
    rate: RATE,
  });
});
afterAll(async () => {
  await node?.close();
  await slow?.close();
  await store?.close();
  admin?.disconnect();
  await redis?.stop();
});

/**
 * Commands Redis has carried out so far for requests: every command but the nodes' own checks (a
 * PING a second from each node, however long a flood takes on a loaded machine) and this count's
 * INFO.
 */
const commands = async () => {
  let count = 0;
  for (const [, name, calls] of (await admin.info('commandstats')).matchAll(
    /^cmdstat_([^:]+):calls=(\d+)/gm,
  )) {
    if (name !== 'ping' && name !== 'info') count += Number(calls);
  }
  return count;
};

it('a flood of /readyz and /healthz sends Redis nothing', async () => {
  await until('the node ready', async () =>
    (await fetch(`${node.origin}/readyz`)).status === 200 ? true : undefined,
  );
  const before = await commands();
  const probes = 600;
  for (let round = 0; round < probes / 50; round += 1) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        fetch(`${node.origin}/${index % 2 ? 'healthz' : 'readyz'}`),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
  }
  // Nothing per probe (the nodes' own checks are not counted).
  expect((await commands()) - before).toBe(0);
});

/** `count` requests, `atOnce` at a time: their statuses, the Redis commands and seconds taken. */
async function flood(count: number, send: () => Promise<Response>, atOnce = 50) {
  const before = await commands();
  const started = performance.now();
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += atOnce) {
    const answers = await Promise.all(Array.from({ length: atOnce }, send));
    for (const answer of answers) {
      statuses.push(answer.status);
      await answer.body?.cancel();
    }
  }
  return {
    answered: (status: number) => statuses.filter((each) => each === status).length,
    commands: (await commands()) - before,
    seconds: Math.ceil((performance.now() - started) / 1000),
  };
}

it('a client past its rate reaches Redis at the rate at most, GETs and POSTs alike', async () => {
  // Streams with a made-up credential: each one let through is a Redis read, refused 401.
  const streams = await flood(
    600,
    () =>
      fetch(`${slow.origin}/device/stream`, {
        headers: { authorization: `Bearer ${'a'.repeat(43)}` },
      }),
    100,
  );
  const allowed = RATE.burst + streams.seconds * RATE.perSecond;
  expect(streams.answered(401)).toBeLessThanOrEqual(allowed);
  expect(streams.answered(401) + streams.answered(429)).toBe(600);
  // A read for each stream let through (answered 401), none for those refused 429.
  expect(streams.commands).toBe(streams.answered(401));

  // Registrations that are not: each one let through takes from the shared bucket (a script of
  // four commands) and is refused 400.
  const posts = await flood(300, () =>
    fetch(`${slow.origin}/device/activation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }),
  );
  expect(posts.answered(400) + posts.answered(429)).toBe(300);
  const taken = RATE.burst + posts.seconds * RATE.perSecond;
  expect(posts.commands).toBeLessThanOrEqual(4 * taken);
});

it('/readyz still refuses while Redis is away, and answers once it is back', async () => {
  await redis.stop();
  await until('/readyz refusing', async () =>
    (await fetch(`${node.origin}/readyz`)).status === 503 ? true : undefined,
  );
  expect((await fetch(`${node.origin}/healthz`)).status).toBe(200);
  await redis.restart();
  await until('/readyz answering', async () =>
    (await fetch(`${node.origin}/readyz`)).status === 200 ? true : undefined,
  );
});

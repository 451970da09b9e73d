/**
 * A relay node whose Redis stops answering: stopped (nothing listens on its port) or hung
 * (SIGSTOP: its connections stay open and nothing answers). Within seconds /readyz refuses while
 * /healthz still answers, the device's stream ends (the desktop's link says its events are delayed,
 * as `events_delayed` in its status), and whatever needs Redis is refused at once, 503 with
 * Retry-After, instead of waiting for ever: the platform's events, streams, activation waits.
 * Once Redis answers again the node is ready again, the stream serves again from the desktop's
 * offset, and the events refused meanwhile, repeated by the platform, arrive once each; an event
 * Redis took while hung (its request was answered 503) is not queued again by the platform's
 * repeat. One relay node on a real redis-server, Callbar's own RelayLink as the desktop, real HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import { relayMetrics } from '../../../relay/relay-metrics';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { StoreUnavailable, type RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { DEVICE_PATHS } from '../../../src-main/core/relay/relay-protocol';
import { secretFingerprint } from '../../../src-main/core/secret-compare';
import { freePort } from '../../support/free-port';
import { addTestDevice } from '../../support/relay-device';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const SECRET = 'relay-redis-outage-secret-0123456789abcd';
/** What a request that needs Redis may take while Redis is away: old nodes took for ever. */
const PROMPTLY_MS = 5000;
let redis: RunningRedis;
let store: RelayStore;
let node: RunningRelay;
const metrics = relayMetrics();
const storeUp = async () => (await metrics.storeUp.get()).values[0]?.value;

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
  node = await startRelay({
    port: await freePort(),
    store,
    log: silentLogger,
    webhookSecret: SECRET,
    metrics,
    // Checked more often than the default (every 1 s, 2 s to answer), so the test is short.
    storeCheck: { intervalMs: 200, timeoutMs: 1000 },
  });
});
afterAll(async () => {
  redis?.resume();
  await node?.close();
  await store?.close();
  await redis?.stop();
});

const request = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${node.origin}${path}`, {
    ...init,
    signal: AbortSignal.timeout(PROMPTLY_MS),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
};
const status = async (path: string) => (await request(path)).status;
const deliver = (id: string, extension: string) =>
  request(`/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, tenant_id: 'acme', user_extension: extension }),
  });

async function outage(extension: string, cut: () => Promise<void>, heal: () => Promise<void>) {
  const { device_id: device, credential } = await addTestDevice(store, `device-${extension}`);
  const received: string[] = [];
  const link = new RelayLink({
    urls: [node.origin],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    maxBackoffMs: 200,
  });
  const stream = link.connect(
    { device_id: device, credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  try {
    await stream.ready;
    expect((await deliver(`${extension}-before`, extension)).status).toBe(200);
    await until('the first event', () => (received.length === 1 ? true : undefined));

    await cut();
    await until('readiness refused', async () =>
      (await status('/readyz')) === 503 ? true : undefined,
    );
    expect(await status('/healthz')).toBe(200);
    // The stream ended and is refused again: the desktop says its events are delayed.
    await until('the desktop hearing nothing', () =>
      stream.outage && !stream.live ? true : undefined,
    );
    expect(await storeUp()).toBe(0);

    const refused = await deliver(`${extension}-during`, extension);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.text).toContain('cannot reach its store');
    const streamed = await request(DEVICE_PATHS.stream, {
      headers: { authorization: `Bearer ${credential}` },
    });
    expect(streamed.status).toBe(503);
    const waited = await request(DEVICE_PATHS.wait, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_sha256: 'a'.repeat(64), proof: 'b'.repeat(43) }),
    });
    expect(waited.status).toBe(503);

    await heal();
    await until('ready again', async () => ((await status('/readyz')) === 200 ? true : undefined));
    expect(await storeUp()).toBe(1);
    await until('the stream serving again', () =>
      stream.live && !stream.outage ? true : undefined,
    );
    // The platform repeats the refused event; then the next one comes.
    expect((await deliver(`${extension}-during`, extension)).status).toBe(200);
    expect((await deliver(`${extension}-after`, extension)).status).toBe(200);
    await until('every event', () => (received.length >= 3 ? true : undefined));
    expect(received).toEqual([`${extension}-before`, `${extension}-during`, `${extension}-after`]);
  } finally {
    stream.close();
    await stream.ended;
  }
}

it('Redis stopped: not ready, streams end, requests refused at once; all back with it', async () => {
  await outage(
    '601',
    () => redis.stop(),
    () => redis.restart(),
  );
});

it('Redis hung (SIGSTOP): the same, by timeout; all back once it goes on', async () => {
  await outage(
    '602',
    () => Promise.resolve(redis.pause()),
    () => Promise.resolve(redis.resume()),
  );
});

it('an event Redis took while hung, answered 503, is not queued twice by the platform’s repeat', async () => {
  const device = 'device-603';
  await store.addDevice({
    device_id: device,
    tenant_id: 'acme',
    user_extension: '603',
    credential_sha256: createHash('sha256').update(randomBytes(32)).digest('hex'),
    created_at: new Date().toISOString(),
  });
  const message = JSON.stringify({ type: 'event', event: { id: '603-hung' } });
  redis.pause();
  // Sent, and Redis answers nothing: the command times out (ioredis commandTimeout).
  await expect(store.append(device, message, { known: true })).rejects.toBeInstanceOf(
    StoreUnavailable,
  );
  redis.resume();
  // Redis carries out what it was sent meanwhile.
  await until('the event queued', async () =>
    (await store.readAfter(device, '0-0', 10)).length === 1 ? true : undefined,
  );
  // The platform repeats the call it was answered 503 for.
  expect(await store.append(device, message, { known: true })).toBe('');
  expect(await store.readAfter(device, '0-0', 10)).toHaveLength(1);
});

it('an activation poll held open ends at once when Redis hangs, not at its 20 s', async () => {
  const key = randomBytes(32).toString('hex');
  const proof = randomBytes(32).toString('base64url');
  const registered = await request(DEVICE_PATHS.activation, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key_sha256: key,
      public_key: randomBytes(32).toString('base64url'),
      proof_sha256: secretFingerprint(proof),
      connect_link: { name: randomBytes(32).toString('hex'), sealed: 'A'.repeat(100) },
    }),
  });
  expect(registered.status).toBe(204);
  // Bounded well below the poll's 20 s: it must end because Redis went away.
  const poll = request(DEVICE_PATHS.wait, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key_sha256: key, proof }),
  });
  // Held: the node listens for its mailbox (everything before that is done).
  const observer = new Redis(redis.url);
  const channel = `callbar:relay:pushed:handoff:${key}`;
  try {
    await until('the poll held', async () => {
      const channels = (await observer.call('PUBSUB', 'SHARDCHANNELS', channel)) as string[];
      return channels.length === 1 ? true : undefined;
    });
  } finally {
    observer.disconnect();
  }
  redis.pause();
  try {
    expect((await poll).status).toBe(204);
  } finally {
    redis.resume();
  }
  await until('ready again', async () => ((await status('/readyz')) === 200 ? true : undefined));
});

/**
 * The relay under faults, with a real redis-server and two nodes: a device (Callbar's own relay
 * link) that reconnects gets what it missed from its offset (Last-Event-ID); a node that dies
 * mid-stream leaves its devices to the other node, nothing lost; Redis restarted, the nodes
 * recover and deliver again (its append-only file kept the queues). Plus the relay's refusals of
 * what the platform's side must never accept.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import type { RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

const SECRET = 'relay-faults-webhook-secret-0123456789ab';
let redis: RunningRedis;
const stores: RelayStore[] = [];
const nodes: RunningRelay[] = [];

const startNode = async () => {
  const store = redisStore(redis.url, silentLogger);
  stores.push(store);
  const node = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    webhookSecret: SECRET,
    keepAliveMs: 500,
  });
  nodes.push(node);
  return node;
};

/** A device known to the relay, as an activation leaves it. */
function device(extension: string) {
  return addTestDevice(stores[0]!, `device-${extension}`, { user_extension: extension });
}

/** A rich-profile call event for `extension`, POSTed to `node` as the platform does. */
function deliver(node: RunningRelay, extension: string, id: string, path = `/events/${SECRET}`) {
  return fetch(`${node.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, tenant_id: 'acme', user_extension: extension }),
  });
}

function listen(urls: string[], who: { device_id: string; credential: string }) {
  const received: string[] = [];
  const link = new RelayLink({
    urls,
    log: silentLogger,
    cursor: cursor,
    maxBackoffMs: 200,
  });
  const stream = link.connect(
    who,
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  return { received, stream };
}
let cursor = memoryStateFile<RelayCursor>();

beforeAll(async () => {
  redis = await startRedis();
  await startNode();
  await startNode();
});
afterAll(async () => {
  for (const node of nodes) await node.close();
  for (const store of stores) await store.close();
  await redis?.stop();
});

it('a device that reconnects gets what it missed, once (Last-Event-ID)', async () => {
  cursor = memoryStateFile<RelayCursor>();
  const who = await device('301');
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  const first = listen([a.origin], who);
  await first.stream.ready;
  expect((await deliver(b, '301', 'leg-1')).status).toBe(200);
  await until('leg-1', () => (first.received.includes('leg-1') ? true : undefined));
  first.stream.close();
  // Offline: two events wait in the device's stream.
  await deliver(a, '301', 'leg-2');
  await deliver(b, '301', 'leg-3');
  const second = listen([b.origin], who);
  await second.stream.ready;
  expect(second.received).toEqual(['leg-2', 'leg-3']);
  second.stream.close();
});

it('a node killed mid-stream: the device reconnects to the other node and misses nothing', async () => {
  cursor = memoryStateFile<RelayCursor>();
  const who = await device('302');
  const doomed = await startNode();
  const survivor = nodes[1]!;
  const device302 = listen([doomed.origin, survivor.origin], who);
  await device302.stream.ready;
  await deliver(survivor, '302', 'before');
  await until('before', () => (device302.received.includes('before') ? true : undefined));
  await doomed.close();
  for (let index = 0; index < 20; index += 1) await deliver(survivor, '302', `during-${index}`);
  await until('all 21 events', () => (device302.received.length === 21 ? true : undefined));
  expect(device302.received).toEqual([
    'before',
    ...Array.from({ length: 20 }, (_, index) => `during-${index}`),
  ]);
  device302.stream.close();
});

it('Redis restarted: the queues survive and new events flow again', async () => {
  cursor = memoryStateFile<RelayCursor>();
  const who = await device('303');
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  await deliver(a, '303', 'queued');
  await redis.restart();
  const device303 = listen([b.origin, a.origin], who);
  await until('the queued event', () => (device303.received.includes('queued') ? true : undefined));
  // The platform's delivery is answered once Redis is back (the store waits and retries).
  await until('a delivery accepted', async () =>
    (await deliver(a, '303', 'after')).status === 200 ? true : undefined,
  );
  await until('the event after the restart', () =>
    device303.received.includes('after') ? true : undefined,
  );
  device303.stream.close();
});

it('refuses what the platform side must not accept', async () => {
  const [a] = nodes as [RunningRelay];
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${a.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const event = JSON.stringify({ id: 'leg-x' });
  expect((await post('/events', event)).status).toBe(403); // no secret
  expect((await post('/events/wrong-secret', event)).status).toBe(403);
  expect((await post(`/events/${SECRET}`, event, { origin: 'https://evil.example' })).status).toBe(
    403,
  );
  expect((await post(`/events/${SECRET}`, 'x'.repeat(17 * 1024))).status).toBe(413);
  expect((await post(`/events/${SECRET}`, `${'['.repeat(100)}${']'.repeat(100)}`)).status).toBe(
    400,
  );
  const handshake = {
    tenant_id: 'acme',
    user_extension: '301',
    confirmation_key: 'nobody-waits-for-this',
    access_token: 'a',
    refresh_token: 'r',
  };
  const activation = await post(`/activate/${SECRET}`, JSON.stringify(handshake));
  expect(activation.status).toBe(403);
  expect(activation.headers.get('access-control-allow-origin')).toBeNull();
  const text = await fetch(`${a.origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: event,
  });
  expect(text.status).toBe(415);
  // A device credential nobody was issued.
  const stream = await fetch(`${a.origin}/device/stream`, {
    headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
  });
  expect(stream.status).toBe(401);
});

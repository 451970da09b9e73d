/**
 * The relay as IT runs it (issue 43), with real processes: two relay nodes (`npm run relay`) on
 * Debian's redis-server, each with its metrics port and JSON logs, and a device (Callbar's own
 * RelayLink) streaming from the first. Health and readiness (also with Redis gone), Prometheus
 * metrics on their own port only, JSON log lines without secrets, and a SIGTERM drain: /readyz
 * refuses at once, the device moves to the other node on the reconnect hint, every event arrives
 * once, and the process exits by itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { relayProcess, type RelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { capturingLogger } from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SECRET = 'relay-operations-webhook-secret-01234567';
let redis: RunningRedis;
let store: RelayStore;
const nodes: { process: RelayProcess; origin: string; metrics: string }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
  // One after the other: two tsx starts at once are slow on a loaded machine.
  for (let index = 0; index < 2; index += 1) {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const process_ = relayProcess([], {
      ...process.env,
      RELAY_PORT: String(port),
      RELAY_METRICS_PORT: String(metricsPort),
      RELAY_LOG_LEVEL: 'debug',
      RELAY_REDIS_URL: redis.url,
      RELAY_WEBHOOK_SECRET: SECRET,
    });
    nodes.push({
      process: process_,
      origin: `http://127.0.0.1:${port}`,
      metrics: `http://127.0.0.1:${metricsPort}/metrics`,
    });
    await Promise.race([
      process_.listening,
      process_.exit.then((exit) => {
        throw new Error(`the relay exited: ${exit.stderr}`);
      }),
    ]);
  }
});
afterAll(async () => {
  for (const node of nodes) if (node.process.child.exitCode === null) node.process.child.kill();
  await store?.close();
  await redis?.stop();
});

const status = async (url: string) => {
  const response = await fetch(url);
  await response.body?.cancel();
  return response.status;
};
const deliver = (origin: string, id: string) =>
  fetch(`${origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, tenant_id: 'acme', user_extension: '501' }),
  }).then((response) => response.status);
/** A metric's value in a node's Prometheus text (the first sample matching `line`). */
const metric = async (url: string, line: RegExp) => {
  const text = await (await fetch(url)).text();
  const found = text.split('\n').find((each) => line.test(each));
  return found === undefined ? undefined : Number(found.split(' ').at(-1));
};

it('health, readiness, and metrics on their own port only', async () => {
  const [a] = nodes as [(typeof nodes)[0]];
  expect(await status(`${a.origin}/healthz`)).toBe(200);
  expect(await status(`${a.origin}/readyz`)).toBe(200);
  expect(await status(`${a.origin}/metrics`)).toBe(404);
  const text = await (await fetch(a.metrics)).text();
  for (const name of [
    'callbar_relay_devices_connected',
    'callbar_relay_events_received_total',
    'callbar_relay_events_delivered_total',
    'callbar_relay_http_requests_total',
    'callbar_relay_delivery_seconds_bucket',
    'callbar_relay_stream_backlog_bucket',
    'callbar_relay_activation_waits_open',
    'callbar_relay_redis_errors_total',
  ]) {
    expect(text).toContain(name);
  }
});

it('SIGTERM: readiness refuses at once, the device moves on the hint, nothing lost or twice, JSON logs without secrets', async () => {
  const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
  const credential = randomBytes(32).toString('base64url');
  await store.addDevice({
    device_id: 'device-501',
    tenant_id: 'acme',
    user_extension: '501',
    credential_sha256: createHash('sha256').update(credential).digest('hex'),
    created_at: new Date().toISOString(),
  });
  const received: string[] = [];
  const linkLog = capturingLogger();
  const link = new RelayLink({
    urls: [a.origin, b.origin],
    log: linkLog.log,
    cursor: memoryStateFile<RelayCursor>(),
    // Long pauses: only the hint makes the device move on at once.
    maxBackoffMs: 60_000,
    random: () => 1,
  });
  const stream = link.connect(
    { device_id: 'device-501', credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  for (let index = 0; index < 10; index += 1)
    expect(await deliver(b.origin, `leg-${index}`)).toBe(200);
  await until('the first events through A', () => (received.length === 10 ? true : undefined));
  expect(await metric(a.metrics, /^callbar_relay_devices_connected /)).toBe(1);
  expect(await metric(a.metrics, /^callbar_relay_events_delivered_total /)).toBe(10);
  expect(await metric(b.metrics, /^callbar_relay_events_received_total /)).toBe(10);
  expect(
    await metric(b.metrics, /^callbar_relay_http_requests_total\{status="200"\}/),
  ).toBeGreaterThanOrEqual(10);

  // Events keep coming (to B) while A drains.
  let sending = true;
  let sent = 10;
  const sender = (async () => {
    while (sending) {
      expect(await deliver(b.origin, `leg-${sent}`)).toBe(200);
      sent += 1;
    }
  })();
  a.process.child.kill('SIGTERM');
  const readiness = await until('A refuses readiness', async () => {
    const answer = await status(`${a.origin}/readyz`).catch(() => 0);
    return answer === 503 || answer === 0 ? answer : undefined;
  });
  expect(readiness).toBe(503);
  const exited = await a.process.exit;
  sending = false;
  await sender;
  expect(exited.code).toBe(0);
  await until('every event once', () => (received.length >= sent ? true : undefined));
  expect(received).toEqual(Array.from({ length: sent }, (_, index) => `leg-${index}`));
  expect(link.host).toBe(new URL(b.origin).host);
  expect(linkLog.lines.join('\n')).toContain('the relay node is stopping; connecting again');
  stream.close();

  // A's log: JSON lines with level, time, message; requests with their id; the device named;
  // never the secret or the credential.
  const lines = exited.stderr.split('\n').filter(Boolean);
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const entry of entries) {
    expect(typeof entry.level).toBe('string');
    expect(typeof entry.time).toBe('string');
    expect(typeof entry.message).toBe('string');
  }
  expect(entries.some((entry) => typeof entry.reqId === 'string')).toBe(true);
  expect(entries.some((entry) => entry.device === 'device-501')).toBe(true);
  expect(entries.some((entry) => entry.message === 'relay draining')).toBe(true);
  for (const line of lines) {
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain(credential);
  }
});

it('readiness refuses within seconds when Redis is unreachable, and comes back with it', async () => {
  const [, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
  await redis.stop();
  expect(await status(`${b.origin}/readyz`)).toBe(503);
  expect(await status(`${b.origin}/healthz`)).toBe(200);
  await redis.restart();
  await until('ready again', async () =>
    (await status(`${b.origin}/readyz`)) === 200 ? true : undefined,
  );
});

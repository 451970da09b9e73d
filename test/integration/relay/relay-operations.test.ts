/**
 * The relay as IT runs it (issue 43), with real processes: two relay nodes (`npm run relay`) on
 * Debian's redis-server, each with its metrics port and JSON logs, and a device (Callbar's own
 * RelayLink) streaming from the first. Health and readiness (also with Redis gone), Prometheus
 * metrics on their own port only, JSON log lines without secrets, and a SIGTERM drain: /readyz
 * refuses at once, the device moves to the other node on the reconnect hint, every event arrives
 * once, and the process exits by itself.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { RECONNECT_HINT } from '../../../relay/device-routes';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { DEVICE_PATHS } from '../../../src-main/core/relay/relay-protocol';
import { freePort } from '../../support/free-port';
import { relayProcess, type RelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { capturingLogger } from '../../support/sim-harness';
import { addTestDevice } from '../../support/relay-device';
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
      // The platform's calls are not slowed (as in `npm run bench:relay`): while A drains they
      // keep coming, without a pause.
      RELAY_RATE_BURST: '1000000',
      RELAY_RATE_PER_SECOND: '1000000',
      // Its 251 streams and the platform's calls all come from this one address, the streams of
      // one device (more than a drain's batch, cheaply).
      RELAY_CONNECTIONS_PER_ADDRESS: '100000',
      RELAY_STREAMS_PER_DEVICE: '1000',
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
  // Gone before the next file shares this worker (isolate: false): killed, and waited for.
  for (const node of nodes)
    if (node.process.child.exitCode === null) node.process.child.kill('SIGKILL');
  await Promise.all(nodes.map((node) => node.process.exit));
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
/** A device stream read whole (until the node ends it), as text. */
const rawStream = async (origin: string, credential: string) => {
  const response = await fetch(`${origin}${DEVICE_PATHS.stream}`, {
    headers: { authorization: `Bearer ${credential}` },
  });
  return response.text();
};
/** Streams of the device besides its RelayLink's: more than one batch of the drain. */
const OTHER_STREAMS = 250;
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
  const { credential } = await addTestDevice(store, 'device-501');
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
  // More streams of the same device on A, beyond one batch of the drain (relay-drain.ts).
  const others = Array.from({ length: OTHER_STREAMS }, () => rawStream(a.origin, credential));
  await until('the other streams open on A', async () =>
    (await metric(a.metrics, /^callbar_relay_devices_connected /)) === OTHER_STREAMS + 1
      ? true
      : undefined,
  );
  for (let index = 0; index < 10; index += 1)
    expect(await deliver(b.origin, `leg-${index}`)).toBe(200);
  await until('the first events through A', () => (received.length === 10 ? true : undefined));
  // Each of the ten to each stream.
  await until('the first events to every stream on A', async () =>
    (await metric(a.metrics, /^callbar_relay_events_delivered_total /)) === 10 * (OTHER_STREAMS + 1)
      ? true
      : undefined,
  );
  expect(await metric(b.metrics, /^callbar_relay_events_received_total /)).toBe(10);
  expect(
    await metric(b.metrics, /^callbar_relay_http_requests_total\{status="200"\}/),
  ).toBeGreaterThanOrEqual(10);

  // Events keep coming while A drains, three at a time, to A first (a proxy that has not seen
  // its readiness fall yet), as the platform does: a call not answered 200 goes to the other node.
  let sending = true;
  let sent = 10;
  const platform = async () => {
    while (sending) {
      const id = `leg-${sent}`;
      sent += 1;
      for (let attempt = 0; ; attempt += 1) {
        const origin = attempt % 2 === 0 ? a.origin : b.origin;
        if ((await deliver(origin, id).catch(() => 0)) === 200) break;
        if (attempt % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const senders = [platform(), platform(), platform()];
  a.process.child.kill('SIGTERM');
  const readiness = await until('A refuses readiness', async () => {
    const answer = await status(`${a.origin}/readyz`).catch(() => 0);
    return answer === 503 || answer === 0 ? answer : undefined;
  });
  expect(readiness).toBe(503);
  const exited = await a.process.exit;
  sending = false;
  await Promise.all(senders);
  expect(exited.code).toBe(0);
  await until('every event', () => (received.length >= sent ? true : undefined));
  // Each once: no call A stored was cut before its answer (and so repeated at B).
  const ids = Array.from({ length: sent }, (_, index) => `leg-${index}`);
  expect([...received].sort()).toEqual([...ids].sort());
  expect(link.host).toBe(new URL(b.origin).host);
  expect(linkLog.lines.join('\n')).toContain('the relay node is stopping; connecting again');
  stream.close();
  // Every stream on A ended with the hint (the drain ends them in batches).
  for (const text of await Promise.all(others)) expect(text.endsWith(RECONNECT_HINT)).toBe(true);

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
  // The node's own account of its exit: its drain finished (not its guard), every stream ended,
  // no call of the platform's cut; and how long it took, the figure `npm run bench:relay` reads.
  const exit = entries.find((entry) => entry.message === 'relay exits');
  expect(exit).toMatchObject({
    signal: 'SIGTERM',
    deadline: false,
    streams: OTHER_STREAMS + 1,
    calls_cut: 0,
  });
  expect(typeof exit?.after_ms).toBe('number');
  for (const line of lines) {
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain(credential);
  }
});

it('readiness refuses within seconds when Redis is unreachable, and comes back with it', async () => {
  const [, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
  await redis.stop();
  // The node's own check (a ping a second, 2 s for its answer) says so; /readyz asks it, not Redis.
  await until('not ready', async () =>
    (await status(`${b.origin}/readyz`)) === 503 ? true : undefined,
  );
  expect(await status(`${b.origin}/healthz`)).toBe(200);
  await redis.restart();
  await until('ready again', async () =>
    (await status(`${b.origin}/readyz`)) === 200 ? true : undefined,
  );
});

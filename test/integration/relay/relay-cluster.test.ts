/**
 * The relay on a real Redis Cluster (issue 43): three masters and three replicas started from
 * Debian's redis-server and joined by `redis-cli --cluster create`, one relay process configured
 * with RELAY_REDIS_CLUSTER_NODES and one in-process node on the same cluster, devices (Callbar's
 * own RelayLink) whose queues live on different masters. Call events flow while the master holding
 * one device's keys is killed (SIGKILL) and its replica promoted: every event arrives, in order,
 * none twice; `devices list` reads the per-tenant sets. Then appends wait for a replica only on a
 * master that has one (the promoted one has none left). Last, the whole cluster killed: no store
 * call waits for its return. One cluster for the whole file, in order.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { StoreUnavailable, type RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import { relayProcess, type RelayProcess } from '../../support/relay-process';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const SECRET = 'relay-cluster-webhook-secret-0123456789ab';
let cluster: RunningCluster;
let store: RelayStore;
let local: RunningRelay;
let child: RelayProcess;
let remote: string;

const env = (port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  RELAY_PORT: String(port),
  RELAY_REDIS_CLUSTER_NODES: cluster.nodes.join(','),
  RELAY_WEBHOOK_SECRET: SECRET,
  RELAY_RATE_BURST: '100000',
  RELAY_RATE_PER_SECOND: '100000',
});

beforeAll(async () => {
  cluster = await startRedisCluster();
  store = redisStore({ cluster: cluster.nodes }, silentLogger);
  local = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    webhookSecret: SECRET,
    keepAliveMs: 1000,
    rate: { burst: 100_000, perSecond: 100_000 },
  });
  const port = await freePort();
  child = relayProcess([], env(port));
  await child.listening;
  remote = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  if (child?.child.exitCode === null) child.child.kill('SIGKILL');
  await local?.close();
  await store?.close();
  await cluster?.stop();
});

async function device(extension: string) {
  const { device_id, credential } = await addTestDevice(store, `device-${extension}`, {
    user_extension: extension,
  });
  const received: string[] = [];
  const link = new RelayLink({
    urls: [remote, local.origin],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    maxBackoffMs: 200,
  });
  const stream = link.connect(
    { device_id, credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  return { device_id, extension, received, stream };
}

const deliver = (origin: string, extension: string, id: string) =>
  fetch(`${origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, tenant_id: 'acme', user_extension: extension }),
  }).then((response) => response.status);

it('events flow across a master failover: none lost, none twice, in order', async () => {
  const devices = await Promise.all(['601', '602', '603', '604'].map(device));
  const listed = await relayProcess(['devices', 'list'], env(0)).exit;
  expect(listed.code).toBe(0);
  for (const each of devices) expect(listed.stdout).toContain(`${each.device_id}  acme/`);

  let sending = true;
  const sent = new Map<string, number>(devices.map((each) => [each.extension, 0]));
  const senders = devices.map(async (each, index) => {
    // Half through the relay process, half through the in-process node.
    const origin = index % 2 === 0 ? remote : local.origin;
    while (sending) {
      const count = sent.get(each.extension)!;
      // A delivery refused while the cluster elects (a 5xx) is the platform's to repeat: only
      // an accepted one counts as sent.
      if ((await deliver(origin, each.extension, `${each.extension}-${count}`)) === 200) {
        sent.set(each.extension, count + 1);
      }
    }
  });
  await until('events flowing', () =>
    devices.every((each) => each.received.length >= 5) ? true : undefined,
  );
  // The master that holds the first device's keys (its queue, its channel) dies.
  const killed = await cluster.killMaster(`callbar:relay:queue:{${devices[0]!.device_id}}`);
  expect(killed).toMatch(/^127\.0\.0\.1:\d+$/);
  const atKill = devices.map((each) => each.received.length);
  await until('events after the failover', () =>
    devices.every((each, index) => each.received.length >= atKill[index]! + 10) ? true : undefined,
  );
  sending = false;
  await Promise.all(senders);
  for (const each of devices) {
    const total = sent.get(each.extension)!;
    await until(`all events of ${each.device_id}`, () =>
      each.received.length >= total ? true : undefined,
    );
    expect(each.received).toEqual(
      Array.from({ length: total }, (_, index) => `${each.extension}-${index}`),
    );
    each.stream.close();
  }
});

/** How often the server at `node` (host:port) has run WAIT. */
async function waitCalls(node: string): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-cli', [
    '-p',
    node.split(':')[1]!,
    'info',
    'commandstats',
  ]);
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stdout)?.[1] ?? 0);
}

it("the platform's repeat of an event reaches the device once, whichever node takes it", async () => {
  const each = await device('640');
  expect(await deliver(local.origin, '640', 'leg-640')).toBe(200);
  // The repeat (the same bytes) at the other node, then the next event.
  expect(await deliver(remote, '640', 'leg-640')).toBe(200);
  expect(await deliver(remote, '640', 'leg-641')).toBe(200);
  await until('the next event', () => (each.received.includes('leg-641') ? true : undefined));
  expect(each.received).toEqual(['leg-640', 'leg-641']);
  each.stream.close();
});

it('appends wait for a replica only on a master that has one in sync', async () => {
  // After the failover above, the master of device-601's slot is its former replica: no replica
  // of its own. A new device whose keys are there, and one whose master kept its replica.
  const promoted = await cluster.masterOf('callbar:relay:queue:{device-601}');
  const chosen: { promoted?: string; replicated?: string; master?: string } = {};
  for (let extension = 610; !(chosen.promoted && chosen.replicated); extension += 1) {
    const master = await cluster.masterOf(`callbar:relay:queue:{device-${extension}}`);
    if (master === promoted) chosen.promoted ??= String(extension);
    else if (!chosen.replicated) Object.assign(chosen, { replicated: String(extension), master });
  }
  const replicated = chosen.master!;
  const devices = await Promise.all([chosen.promoted, chosen.replicated].map(device));
  const before = [await waitCalls(promoted), await waitCalls(replicated)];
  for (let index = 0; index < 10; index += 1) {
    for (const [at, each] of devices.entries()) {
      const origin = at === 0 ? remote : local.origin;
      expect(await deliver(origin, each.extension, `${each.extension}-late-${index}`)).toBe(200);
    }
  }
  for (const each of devices) {
    await until(`the late events of ${each.device_id}`, () =>
      each.received.length >= 10 ? true : undefined,
    );
    expect(each.received).toEqual(
      Array.from({ length: 10 }, (_, index) => `${each.extension}-late-${index}`),
    );
    each.stream.close();
  }
  // WAIT on a master with no replica holds the relay's one connection to it for its whole
  // timeout, every append: none there, one per append where a replica keeps the events.
  expect((await waitCalls(promoted)) - before[0]!).toBe(0);
  expect((await waitCalls(replicated)) - before[1]!).toBeGreaterThanOrEqual(10);
});

it('a whole cluster gone: every store call is answered unavailable, none waits for its return', async () => {
  const id = 'device-690';
  await store.addDevice({
    device_id: id,
    tenant_id: 'acme',
    user_extension: '690',
    credential_sha256: createHash('sha256').update(id).digest('hex'),
    created_at: new Date().toISOString(),
  });
  expect(await store.deviceIdsOf('acme', '690')).toEqual([id]);
  await cluster.killAll();
  // The first calls fail on their closed connections; later ones meet the client reconnecting,
  // which queues them where ioredis's commandTimeout does not reach: each must still fail.
  for (let round = 0; round < 4; round += 1) {
    const calls = [
      store.deviceIdsOf('acme', '690'),
      store.append(id, JSON.stringify({ id: `gone-${round}` })),
      store.takeToken('gone', { burst: 1, perSecond: 1 }, Date.now()),
    ];
    // A pop ends when its wait is up (none came), or as unavailable.
    const popped = store.pop('gone', 200).catch((error: unknown) => error);
    await Promise.all(calls.map((call) => expect(call).rejects.toBeInstanceOf(StoreUnavailable)));
    expect([undefined, 'unavailable']).toContain(
      await popped.then((value) => (value instanceof StoreUnavailable ? 'unavailable' : value)),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 60_000);

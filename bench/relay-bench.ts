/**
 * `npm run bench:relay -- [DEVICES] [EVENTS]` (default 1000 and 5000): the relay under load
 * on this machine. Two relay nodes (in this process) share a real redis-server; DEVICES light
 * devices (Callbar's own RelayLink, half connected to each node) stream; the platform's side POSTs
 * EVENTS call events naming their user to either node. Prints events delivered per second, p50/p99
 * delivery latency, memory per connected device (relay and device sides together, one process),
 * then closes one node while events keep coming: events lost and the time until every device of
 * that node has everything again. Not part of the suite (it loads both cores for seconds).
 */
import { createHash, randomBytes } from 'node:crypto';
import { redisStore } from '../relay/redis-store';
import { startRelay, type RunningRelay } from '../relay/relay-server';
import type { RelayStore } from '../relay/relay-store';
import { memoryStateFile } from '../src-main/core/config/state-file';
import { silentLogger } from '../src-main/core/log/logger';
import { RelayLink, type RelayCursor, type RelayStream } from '../src-main/core/relay/relay-link';
import { startRedis } from '../test/support/redis-server';

const DEVICES = Number(process.argv[2] ?? 1000);
const EVENTS = Number(process.argv[3] ?? 5000);
const SECRET = 'relay-bench-webhook-secret-0123456789ab';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  const redis = await startRedis();
  const stores: RelayStore[] = [];
  const nodes: RunningRelay[] = [];
  for (let index = 0; index < 2; index += 1) {
    const store = redisStore(redis.url, silentLogger);
    stores.push(store);
    nodes.push(
      await startRelay({
        port: 0,
        store,
        log: silentLogger,
        webhookSecret: SECRET,
        rate: { burst: 1e9, perSecond: 1e9 },
      }),
    );
  }
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const received = new Map<number, Set<string>>();
  const latencies: number[] = [];
  const streams: RelayStream[] = [];
  let lastReceipt = 0;
  for (let device = 0; device < DEVICES; device += 1) {
    const credential = randomBytes(32).toString('base64url');
    await stores[0]!.addDevice({
      device_id: `bench-${device}`,
      tenant_id: 'bench',
      user_extension: String(1000 + device),
      credential_sha256: createHash('sha256').update(credential).digest('hex'),
      created_at: new Date().toISOString(),
    });
    const seen = new Set<string>();
    received.set(device, seen);
    const urls = device % 2 === 0 ? [a.origin, b.origin] : [b.origin, a.origin];
    const link = new RelayLink({
      urls,
      log: silentLogger,
      cursor: memoryStateFile<RelayCursor>(),
      maxBackoffMs: 500,
    });
    streams.push(
      link.connect(
        { device_id: `bench-${device}`, credential },
        (message) => {
          if (message.type === 'event' && !seen.has(message.event.id)) {
            seen.add(message.event.id);
            latencies.push(Date.now() - Number(message.event.sent_at));
            lastReceipt = Date.now();
          }
          return Promise.resolve();
        },
        () => undefined,
      ),
    );
  }
  await Promise.all(streams.map((stream) => stream.ready));
  const rssPerDevice = (process.memoryUsage().rss - rssBefore) / DEVICES;

  /** POSTs `count` events, `concurrency` at a time, to alternating nodes; their targets. */
  const send = async (count: number, prefix: string, targets: RunningRelay[]) => {
    let next = 0;
    const sent: number[] = [];
    const worker = async () => {
      while (next < count) {
        const index = next++;
        const device = index % DEVICES;
        sent.push(device);
        const node = targets[index % targets.length]!;
        const response = await fetch(`${node.origin}/events/${SECRET}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            id: `${prefix}-${index}`,
            tenant_id: 'bench',
            user_extension: String(1000 + device),
            sent_at: String(Date.now()),
          }),
        });
        await response.body?.cancel();
        if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    return sent;
  };
  const total = () => [...received.values()].reduce((sum, seen) => sum + seen.size, 0);
  const waitFor = async (count: number, limitMs: number) => {
    const deadline = Date.now() + limitMs;
    while (total() < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };

  const started = Date.now();
  await send(EVENTS, 'steady', nodes);
  await waitFor(EVENTS, 60_000);
  const seconds = (lastReceipt - started) / 1000;
  const sorted = [...latencies].sort((x, y) => x - y);

  // A node closed under load: its devices reconnect to the other; nothing may be lost.
  latencies.length = 0;
  const killAt = Date.now();
  const sending = send(EVENTS, 'kill', [b]);
  await new Promise((r) => setTimeout(r, 50));
  await a.close();
  await sending;
  await waitFor(EVENTS * 2, 60_000);
  const recovered = (lastReceipt - killAt) / 1000;
  const lost = EVENTS * 2 - total();

  console.log(`Relay: ${DEVICES} devices, 2 nodes, Redis ${redis.url} (one run, this machine)`);
  console.log(`  events delivered per second   ${(EVENTS / seconds).toFixed(0)}`);
  console.log(
    `  delivery latency p50 / p99    ${percentile(sorted, 50)} ms / ${percentile(sorted, 99)} ms`,
  );
  console.log(
    `  memory per connected device  ${(rssPerDevice / 1024).toFixed(1)} KiB (relay + device in one process)`,
  );
  console.log(
    `  node closed under load        ${lost} events lost; all delivered ${recovered.toFixed(1)} s after the close`,
  );
  for (const stream of streams) stream.close();
  await b.close();
  for (const store of stores) await store.close();
  await redis.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

/**
 * A relay process's last words reach whoever reads its output, also when that reader is behind
 * (a pipe to a log shipper, `npm run bench:relay`, `devices list | less`): on a pipe Node writes
 * asynchronously, and a process that exits at once drops what the pipe has not taken yet. The
 * node's `relay exits` line after a SIGTERM, and every device of a long `devices list`.
 */
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import { silentLogger } from '../../../src-main/core/log/logger';
import { freePort } from '../../support/free-port';
import { relayProcess as startRelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-exit-output-webhook-secret-012345';
let redis: RunningRedis;
let store: RelayStore;
/** One connection of its own that reads Redis's counters. */
let inspector: Redis;
const children: ChildProcess[] = [];

const relayProcess = (args: string[], env: NodeJS.ProcessEnv) => {
  const started = startRelayProcess(args, { ...process.env, RELAY_WEBHOOK_SECRET: SECRET, ...env });
  children.push(started.child);
  return started;
};

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
  inspector = new Redis(redis.url);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  inspector?.disconnect();
  await store?.close();
  await redis?.stop();
});

/** Requests whose log lines (each names its path) make far more than a pipe holds. */
const LONG_PATH = `/${'x'.repeat(4000)}`;
const REQUESTS = 100;

it('SIGTERM while the reader of its log is behind: the `relay exits` line still comes, last', async () => {
  const port = await freePort();
  const node = relayProcess([], { RELAY_PORT: String(port), RELAY_LOG_LEVEL: 'info' });
  await node.listening;
  const origin = `http://127.0.0.1:${port}`;
  // The reader stops reading; the node logs about a megabyte (each request's lines at info).
  node.child.stderr!.pause();
  for (let index = 0; index < REQUESTS; index += 1) {
    const response = await fetch(`${origin}${LONG_PATH}`);
    await response.body?.cancel();
    expect(response.status).toBe(404);
  }
  node.child.kill('SIGTERM');
  // The reader catches up once the node has stopped serving (its drain over, its exit decided).
  await until('the node to stop serving', () =>
    fetch(`${origin}/healthz`).then(
      async (response) => void (await response.body?.cancel()),
      () => true,
    ),
  );
  node.child.stderr!.resume();
  const exited = await node.exit;
  expect(exited.code).toBe(0);
  const lines = exited.stderr.split('\n').filter(Boolean);
  // Every request's lines came, and the node's own account of its exit, last.
  expect(lines.filter((line) => line.includes(LONG_PATH)).length).toBeGreaterThanOrEqual(
    REQUESTS * 2,
  );
  expect(JSON.parse(lines.at(-1)!)).toMatchObject({
    message: 'relay exits',
    signal: 'SIGTERM',
    deadline: false,
  });
});

it('`devices list` while its reader is behind (a pager): every device, however many', async () => {
  const count = 3000;
  const ids = Array.from(
    { length: count },
    (_, index) => `device-${String(index).padStart(5, '0')}`,
  );
  for (let first = 0; first < count; first += 500) {
    await Promise.all(
      ids.slice(first, first + 500).map((id) =>
        store.addDevice({
          device_id: id,
          tenant_id: 'acme',
          user_extension: '401',
          credential_sha256: createHash('sha256').update(id).digest('hex'),
          created_at: new Date().toISOString(),
        }),
      ),
    );
  }
  const before = await clients();
  const listing = relayProcess(['devices', 'list'], { RELAY_REDIS_URL: redis.url });
  // The reader stops reading, as a pager does once its screen is full, until the command has
  // done its work: it connected to Redis and is gone from it again.
  listing.child.stdout!.pause();
  await until('the command to be done with Redis', async () => {
    const now = await clients();
    return now.received > before.received && now.connected <= before.connected ? true : undefined;
  });
  listing.child.stdout!.resume();
  const listed = await listing.exit;
  expect(listed.code).toBe(0);
  const lines = listed.stdout.split('\n').filter(Boolean);
  expect(lines.length).toBe(count);
  expect(new Set(lines.map((line) => line.split(' ')[0]))).toEqual(new Set(ids));
});

/** Redis's own count of its clients: connected now, and connections received so far. */
async function clients(): Promise<{ connected: number; received: number }> {
  const info = (await inspector.info()).split('\r\n');
  const field = (name: string) =>
    Number(info.find((line) => line.startsWith(`${name}:`))?.split(':')[1]);
  return {
    connected: field('connected_clients'),
    received: field('total_connections_received'),
  };
}

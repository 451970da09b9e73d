/**
 * The relay as an administrator runs it (`npm run relay`: relay/main.ts with tsx's loader), two
 * processes sharing a real redis-server: one is killed (SIGKILL) while a device streams from it,
 * and the device finishes on the other with nothing lost; `devices list` shows the device and
 * `devices revoke` removes it.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { relayProcess as startRelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-process-webhook-secret-0123456789';
let redis: RunningRedis;
let store: RelayStore;
const children: ChildProcess[] = [];

function relayEnv(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    RELAY_PORT: String(port),
    RELAY_REDIS_URL: redis.url,
    RELAY_WEBHOOK_SECRET: SECRET,
  };
}

function relayProcess(args: string[], env: NodeJS.ProcessEnv) {
  const started = startRelayProcess(args, env);
  children.push(started.child);
  return started;
}

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await store?.close();
  await redis?.stop();
});

it('a relay process killed mid-stream: the device goes on with the other, nothing lost', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const a = relayProcess([], relayEnv(portA));
  const b = relayProcess([], relayEnv(portB));
  await Promise.all([a.listening, b.listening]);
  const credential = randomBytes(32).toString('base64url');
  await store.addDevice({
    device_id: 'device-401',
    tenant_id: 'acme',
    user_extension: '401',
    credential_sha256: createHash('sha256').update(credential).digest('hex'),
    created_at: new Date().toISOString(),
  });
  const received: string[] = [];
  const link = new RelayLink({
    urls: [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    maxBackoffMs: 200,
  });
  const stream = link.connect(
    { device_id: 'device-401', credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  const deliver = (id: string) =>
    fetch(`http://127.0.0.1:${portB}/events/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, tenant_id: 'acme', user_extension: '401' }),
    });
  expect((await deliver('leg-0')).status).toBe(200);
  await until('leg-0 through A', () => (received.includes('leg-0') ? true : undefined));
  a.child.kill('SIGKILL');
  await a.exit;
  for (let index = 1; index <= 10; index += 1)
    expect((await deliver(`leg-${index}`)).status).toBe(200);
  await until('all 11 legs', () => (received.length === 11 ? true : undefined));
  expect(received).toEqual(Array.from({ length: 11 }, (_, index) => `leg-${index}`));
  expect(link.host).toBe(`127.0.0.1:${portB}`);
  stream.close();

  const listed = await relayProcess(['devices', 'list'], relayEnv(0)).exit;
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('device-401  acme/401');
  const revoked = await relayProcess(['devices', 'revoke', 'device-401'], relayEnv(0)).exit;
  expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked device-401.\n' });
  expect(await store.listDevices()).toEqual([]);
  const again = await relayProcess(['devices', 'revoke', 'device-401'], relayEnv(0)).exit;
  expect(again).toMatchObject({ code: 1, stderr: 'No device device-401.\n' });
  b.child.kill('SIGTERM');
  expect((await b.exit).code).toBe(0);
});

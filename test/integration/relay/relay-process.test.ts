/**
 * The relay as an administrator runs it (`npm run relay`: the built relay, bin/relay.mjs), two
 * processes sharing a real redis-server: one is killed (SIGKILL) while a device streams from it,
 * and the device finishes on the other with nothing lost, nor anything twice when the profile's
 * file of its position cannot be read at that moment; `devices list` shows the device and
 * `devices revoke` removes it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import {
  memoryStateFile,
  profileStateFile,
  type StateFile,
} from '../../../src-main/core/config/state-file';
import { silentLogger, type Logger } from '../../../src-main/core/log/logger';
import {
  RelayCursorFile,
  RelayLink,
  type RelayCursor,
} from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { relayProcess as startRelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { capturingLogger } from '../../support/sim-harness';
import { addTestDevice } from '../../support/relay-device';
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

/**
 * Two relay processes (A first in the device's list) and device-EXTENSION streaming through
 * Callbar's own RelayLink with `cursor`; `deliver` posts a call event for it to B.
 */
async function twoNodesAndADevice(
  extension: string,
  cursor: StateFile<RelayCursor>,
  log: Logger = silentLogger,
) {
  const [portA, portB] = [await freePort(), await freePort()];
  const a = relayProcess([], relayEnv(portA));
  const b = relayProcess([], relayEnv(portB));
  await Promise.all([a.listening, b.listening]);
  const { device_id: deviceId, credential } = await addTestDevice(store, `device-${extension}`, {
    user_extension: extension,
  });
  const received: string[] = [];
  const link = new RelayLink({
    urls: [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`],
    log,
    cursor,
    maxBackoffMs: 200,
  });
  const stream = link.connect(
    { device_id: deviceId, credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  /** Posts the call event to B; its status (a refusal says B's answer and the end of its log). */
  const deliver = async (id: string) => {
    const answer = await fetch(`http://127.0.0.1:${portB}/events/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, tenant_id: 'acme', user_extension: extension }),
    });
    if (answer.status !== 200)
      console.error(
        `B answered ${answer.status} ${await answer.text()}; B's log ends:\n${b.log().slice(-3000)}`,
      );
    return answer;
  };
  return { a, b, portB, link, stream, received, deliver };
}

it('a relay process killed mid-stream: the device goes on with the other, nothing lost', async () => {
  const { a, b, portB, link, stream, received, deliver } = await twoNodesAndADevice(
    '401',
    memoryStateFile<RelayCursor>(),
  );
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

it('a stream that moves on while the profile cannot read its position: nothing delivered twice', async () => {
  // The profile's own file, as a desktop keeps it (relay-cursor.json).
  const file = join(mkdtempSync(join(tmpdir(), 'callbar-relay-cursor-')), 'relay-cursor.json');
  const linkLog = capturingLogger();
  const { a, b, portB, link, stream, received, deliver } = await twoNodesAndADevice(
    '402',
    profileStateFile(file, RelayCursorFile, linkLog.log, 'position in the relay stream'),
    linkLog.log,
  );
  for (let index = 0; index < 3; index += 1)
    expect((await deliver(`leg-${index}`)).status).toBe(200);
  await until('three legs through A', () => (received.length === 3 ? true : undefined));
  // The file can be neither read nor written now (as with too many open files in the process,
  // while thousands of streams move to another node at once), nor kept aside (a folder of that
  // name, not empty, is in the way).
  // (The link may still be saving the third leg's offset, after handing the leg over: a file
  // written between the two steps is removed again.)
  mkdirSync(join(`${file}.unreadable`, 'in-the-way'), { recursive: true });
  await until('the file replaced by a folder', () => {
    rmSync(file, { force: true });
    try {
      mkdirSync(file);
      return true;
    } catch {
      return undefined;
    }
  });
  a.child.kill('SIGKILL');
  await a.exit;
  for (let index = 3; index < 6; index += 1)
    expect((await deliver(`leg-${index}`)).status).toBe(200);
  await until('the legs through B', () => (received.includes('leg-5') ? true : undefined));
  expect(received).toEqual(Array.from({ length: 6 }, (_, index) => `leg-${index}`));
  expect(link.host).toBe(`127.0.0.1:${portB}`);
  // Said, not silently replayed from the start.
  expect(linkLog.lines.join('\n')).toContain(
    'the position in the relay stream cannot be read and could not be kept aside',
  );
  stream.close();
  b.child.kill('SIGTERM');
  expect((await b.exit).code).toBe(0);
});

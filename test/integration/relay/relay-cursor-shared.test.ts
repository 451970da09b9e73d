/**
 * Two processes of one profile stream the same device's queue and share its `relay-cursor.json`.
 * One that is behind (still handling its backlog while the other is live) and then stops must not
 * move the profile's offset back: the profile's next process would handle again what was handled.
 * Two RelayLinks and a third after them, one real profile state file, a relay node (embedded
 * store) over real HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { profileStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayCursorFile, RelayLink } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 20_000 });

const SECRET = 'relay-cursor-shared-secret-0123456789abcd';
const store = memoryStore();
let node: RunningRelay;

beforeAll(async () => {
  node = await startRelay({
    port: await freePort(),
    store,
    log: silentLogger,
    webhookSecret: SECRET,
  });
});
afterAll(() => node?.close());

it('a process behind the others does not move the profile’s offset back', async () => {
  const device = await addTestDevice(store, 'device-701');
  for (const id of ['leg-1', 'leg-2', 'leg-3']) {
    const response = await fetch(`${node.origin}/events/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, tenant_id: 'acme', user_extension: '701' }),
    });
    expect(response.status).toBe(200);
  }
  const file = join(mkdtempSync(join(tmpdir(), 'callbar-cursor-')), 'relay-cursor.json');
  const cursor = () => profileStateFile(file, RelayCursorFile, silentLogger, 'relay position');
  const process_ = (onEvent: (id: string) => Promise<void>) =>
    new RelayLink({ urls: [node.origin], log: silentLogger, cursor: cursor() }).connect(
      device,
      (message) => (message.type === 'event' ? onEvent(message.event.id) : Promise.resolve()),
      () => undefined,
    );

  // The one behind: still handling its first event.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const behindGot: string[] = [];
  const behind = process_(async (id) => {
    behindGot.push(id);
    await held;
  });
  await until('the first event held', () => (behindGot.length === 1 ? true : undefined));

  // The live one handles all three, and saves the last offset.
  const liveGot: string[] = [];
  const live = process_((id) => {
    liveGot.push(id);
    return Promise.resolve();
  });
  await live.ready;
  await until('the live process saved its offset', async () => {
    const saved = await cursor().read();
    return liveGot.length === 3 && saved ? saved : undefined;
  });
  const latest = (await cursor().read())!.offset;

  // The one behind ends after its first event (a CLI command done with its work).
  behind.close();
  release();
  await behind.ended;
  live.close();
  await live.ended;
  expect((await cursor().read())?.offset).toBe(latest);

  // The profile's next process starts where the profile was: nothing again.
  const nextGot: string[] = [];
  const next = process_((id) => {
    nextGot.push(id);
    return Promise.resolve();
  });
  await next.ready;
  next.close();
  await next.ended;
  expect(nextGot).toEqual([]);
});

it('reads the profile’s file once per chunk of the stream, not before each message', async () => {
  const device = await addTestDevice(store, 'device-702');
  const backlog = 300;
  for (let index = 0; index < backlog; index += 1) {
    await store.append(
      device.device_id,
      JSON.stringify({ type: 'event', event: { id: `leg-${index}` } }),
    );
  }
  const file = join(mkdtempSync(join(tmpdir(), 'callbar-cursor-')), 'relay-cursor.json');
  const real = profileStateFile(file, RelayCursorFile, silentLogger, 'relay position');
  let reads = 0;
  const counting = { ...real, read: () => ((reads += 1), real.read()) };
  const got: string[] = [];
  const stream = new RelayLink({
    urls: [node.origin],
    log: silentLogger,
    cursor: counting,
  }).connect(
    device,
    (message) => {
      if (message.type === 'event') got.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  stream.close();
  await stream.ended;
  expect(got).toHaveLength(backlog);
  // Saved after each message all the same: the file holds the last one's offset.
  const [last] = (await store.readAfter(device.device_id, '0-0', backlog)).slice(-1);
  expect((await real.read())?.offset).toBe(last!.id);
  // The relay writes its backlog a hundred messages at a time: a few chunks, not 300 reads.
  expect(reads).toBeLessThan(backlog / 10);
});

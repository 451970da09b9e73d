/**
 * The platform repeats a call a relay node took but could not answer (the node was killed between
 * the two, `npm run bench:relay`'s SIGKILL phase): the device gets the message once. The rule is
 * the store's (`append`: the same bytes for the same device within REPEAT_WINDOW_MS), so it
 * holds whichever node takes the repeat. The embedded store and one real redis-server, each with
 * two stores on it as two nodes have; the cluster's case is in relay-cluster.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { redisStore } from '../../../relay/redis-store';
import { REPEAT_WINDOW_MS, type RelayStore } from '../../../relay/relay-store';
import { silentLogger } from '../../../src-main/core/log/logger';
import { startRedis, type RunningRedis } from '../../support/redis-server';

let redis: RunningRedis;
const opened: RelayStore[] = [];
let clock = Date.now();
const memory = memoryStore(() => clock);

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const store of opened) await store.close();
  await memory.close();
  await redis?.stop();
});

const message = (id: string, state: string) =>
  JSON.stringify({ type: 'event', event: { id, tenant_id: 'acme', state } });

/** Two nodes' stores on one backend. */
const backends: [string, () => [RelayStore, RelayStore]][] = [
  ['the embedded store', () => [memory, memory]],
  [
    'one redis-server',
    () => {
      const pair = [redisStore(redis.url, silentLogger), redisStore(redis.url, silentLogger)];
      opened.push(...pair);
      return pair as [RelayStore, RelayStore];
    },
  ],
];

describe.each(backends)('%s', (_name, open) => {
  it('appends a repeated message once, and every other message', async () => {
    const [first, second] = open();
    const ringing = message('leg-1', 'ringing');
    expect(await first.append('device-1', ringing)).not.toBe('');
    // The repeat, at the other node: not appended again.
    expect(await second.append('device-1', ringing)).toBe('');
    expect(await first.append('device-1', ringing)).toBe('');
    // The same leg's next state, and the same message for another device, are messages of their own.
    expect(await second.append('device-1', message('leg-1', 'answered'))).not.toBe('');
    expect(await second.append('device-2', ringing)).not.toBe('');
    const queued = (await first.readAfter('device-1', '0-0', 10)).map((each) => each.data);
    expect(queued).toEqual([ringing, message('leg-1', 'answered')]);
    expect(await first.readAfter('device-2', '0-0', 10)).toHaveLength(1);
  });

  it('appends a routed message (`known`) only to a device whose record exists, in the same step', async () => {
    const [first, second] = open();
    const record = {
      tenant_id: 'acme',
      user_extension: '207',
      credential_sha256: 'c'.repeat(64),
      created_at: new Date(clock).toISOString(),
    };
    await first.addDevice({ ...record, device_id: 'device-known' });
    expect(await second.deviceIdsOf('acme', '207')).toEqual(['device-known']);
    expect(await second.isKnown('c'.repeat(64))).toBe(true);
    const ringing = message('leg-9', 'ringing');
    expect(await second.append('device-known', ringing, { known: true })).not.toBe('');
    // A device removed (or a removal cut halfway: its id left in the user's set) gets nothing.
    expect(await second.append('device-gone', ringing, { known: true })).toBe('');
    expect(await first.readAfter('device-gone', '0-0', 10)).toEqual([]);
    await first.removeDevice('device-known');
    expect(await second.isKnown('c'.repeat(64))).toBe(false);
    expect(await second.append('device-known', message('leg-9', 'hungup'), { known: true })).toBe(
      '',
    );
  });
});

it('appends the same message again once the window has passed (the embedded store)', async () => {
  const hungUp = message('leg-2', 'hungup');
  expect(await memory.append('device-3', hungUp)).not.toBe('');
  clock += REPEAT_WINDOW_MS - 1;
  expect(await memory.append('device-3', hungUp)).toBe('');
  clock += 2;
  expect(await memory.append('device-3', hungUp)).not.toBe('');
  expect(await memory.readAfter('device-3', '0-0', 10)).toHaveLength(2);
});

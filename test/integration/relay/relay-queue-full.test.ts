/**
 * A desktop's queue at the relay keeps the newest QUEUE_MAX_LENGTH messages while the desktop is
 * off; past it the oldest go. Before, they went silently: the desktop came back, read the newest
 * thousand and showed a call whose hang-up had been dropped as connected for hours. Now the store
 * says how many it dropped (counted in the node's metrics, and logged without a message's
 * content), each offset carries the message's number in the queue, and the stream says `event:
 * gap` with how many were lost after the desktop's offset; the desktop ends the calls it showed
 * as current, saying why. Two relay nodes on one real redis-server (the platform posts to one, the
 * desktop's stream is on the other), the simulator's platform and a real Callbar core; the
 * embedded store keeps the same rule.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { redisStore } from '../../../relay/redis-store';
import { relayMetrics } from '../../../relay/relay-metrics';
import { lostBetween, QUEUE_MAX_LENGTH } from '../../../relay/relay-store';
import type { RunningSimulator } from '../../../simulator/index';
import type { CallsSnapshot, Result } from '../../../src-shared/contract';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { relayAddresses } from '../../support/relay-addresses';
import { addTestDevice } from '../../support/relay-device';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';
import {
  capturingLogger,
  connect,
  control as simRequest,
  startSim,
} from '../../support/sim-harness';
import { startRelayCore } from '../../support/test-core';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const SECRET = 'relay-queue-full-webhook-secret-0123456789';
let relay: RelayNodes;
const metrics = [relayMetrics(), relayMetrics()];
const relayLog = capturingLogger();
let sim: RunningSimulator;

beforeAll(async () => {
  relay = await startRelayNodes(2, (index) => ({
    log: relayLog.log,
    webhookSecret: SECRET,
    keepAliveMs: 1000,
    metrics: metrics[index]!,
    // The test plays a platform that posts fast; the bucket is not what is measured here.
    rate: { burst: 10_000, perSecond: 10_000 },
  }));
  sim = await startSim({ profile: 'rich' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(relay.nodes[0]!.origin, SECRET),
  );
});
afterAll(async () => {
  await relay?.close();
  await sim?.close();
});

const counted = async (metric: { get(): Promise<{ values: { value: number }[] }> }) =>
  (await metric.get()).values.reduce((sum, each) => sum + each.value, 0);

describe.each([
  ['the embedded store', () => memoryStore()],
  ['one redis-server', () => redisStore(relay.redis.url, silentLogger)],
])('%s', (_name, open) => {
  it('says how many it dropped, and the offsets show the gap after any offset', async () => {
    const store = open();
    try {
      const offsets: string[] = [];
      let dropped = 0;
      const total = QUEUE_MAX_LENGTH + 250;
      for (let index = 0; index < total; index += 1) {
        const data = JSON.stringify({ type: 'event', event: { id: `leg-${index}` } });
        offsets.push(await store.append('device-full', data, { dropped: (n) => (dropped += n) }));
      }
      let kept = 0;
      for (let after = '0-0'; ;) {
        const batch = await store.readAfter('device-full', after, 500);
        if (batch.length === 0) break;
        kept += batch.length;
        after = batch.at(-1)!.id;
      }
      expect(dropped).toBeGreaterThan(0);
      expect(kept + dropped).toBe(total);
      const [first] = await store.readAfter('device-full', '0-0', 1);
      expect(first!.id).toBe(offsets[dropped]);
      // From the start, from a message dropped, and from one still queued.
      expect(lostBetween('0-0', first!.id)).toBe(dropped);
      expect(lostBetween(offsets[9]!, first!.id)).toBe(dropped - 10);
      const [next] = await store.readAfter('device-full', offsets[dropped + 5]!, 1);
      expect(lostBetween(offsets[dropped + 5]!, next!.id)).toBe(0);
    } finally {
      await store.close();
    }
  });
});

async function value<T>(core: CallbarCore, channel: string, request: unknown = {}): Promise<T> {
  const result = (await core.router.invoke(channel, request)) as Result<T>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

it('tells a desktop that comes back after its queue overflowed, which ends the calls it showed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-queue-full-'));
  const vault = new MemoryVault();
  // The desktop's stream is on the other node than the platform's calls.
  const relayCore = () => startRelayCore(sim, relay.nodes[1]!.origin, { dataDir: dir, vault });
  const user = sim.users[0]!;
  const post = async (event: Record<string, unknown>) => {
    const response = await fetch(`${relay.nodes[0]!.origin}/events/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: sim.tenant_id, user_extension: user.extension, ...event }),
    });
    expect(response.status).toBe(200);
  };

  let core = await relayCore();
  const account = core.profile.account;
  expect((await connect({ account }, sim)).status.state).toBe('connected');
  await account.listen();
  await until('the stream serving', () => (account.hearsCallEvents() ? true : undefined));
  await post({ id: 'leg-answered', direction: 'inbound', state: 'answered', party: 'caller' });
  const shown = await until('the call shown as current', async () =>
    (await value<CallsSnapshot>(core, 'calls.list')).current.find((call) =>
      call.leg_ids.includes('leg-answered'),
    ),
  );
  await core.close();

  // The desktop is off; its hang-up and more than a queue's worth come meanwhile.
  await post({ id: 'leg-answered', state: 'hungup', party: 'caller' });
  for (let index = 0; index < QUEUE_MAX_LENGTH + 100; index += 1) {
    await post({ id: `leg-later-${index % 3}`, state: 'ringing', sequence: index });
  }
  const dropped = await counted(metrics[0]!.messagesDropped);
  expect(dropped).toBeGreaterThan(0);
  const full = relayLog.lines.find((line) => line.includes('queue was full'));
  expect(full).toMatch(/"dropped":\d+/);
  expect(full).not.toContain(SECRET);
  expect(full).not.toContain('leg-later');

  core = await relayCore();
  try {
    await core.profile.account.listen();
    const ended = await until('the call no longer current', async () => {
      const calls = await value<CallsSnapshot>(core, 'calls.list');
      return calls.current.some((call) => call.id === shown.id)
        ? undefined
        : calls.recent.find((call) => call.id === shown.id);
    });
    expect(ended.reason).toContain('lost at the relay');
    expect(await counted(metrics[1]!.streamGaps)).toBe(1);
  } finally {
    await core.close();
  }
});

it('a live stream flooded past its queue’s bound: each message arrives once, in order, or is counted lost', async () => {
  const { device_id, credential } = await addTestDevice(relay.stores[0]!, randomUUID(), {
    tenant_id: sim.tenant_id,
    user_extension: '299',
  });
  const received: number[] = [];
  let lost = 0;
  // The desktop stops reading after the first message until the flood is queued.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const link = new RelayLink({
    urls: [relay.nodes[1]!.origin],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
  });
  const stream = link.connect(
    { device_id, credential },
    async (message) => {
      if (message.type === 'lost') lost += message.lost;
      else if (message.type === 'event') {
        received.push(Number(message.event.id));
        if (received.length === 1) await held;
      }
    },
    () => undefined,
  );
  try {
    await stream.ready;
    const total = 3 * QUEUE_MAX_LENGTH;
    const append = (index: number) =>
      relay.stores[0]!.append(
        device_id,
        JSON.stringify({ type: 'event', event: { id: `${index}` } }),
      );
    await append(0);
    await until('the first message', () => (received.length === 1 ? true : undefined));
    // One turn: a single pipelined write, faster than any stream reads it.
    await Promise.all(Array.from({ length: total - 1 }, (_, index) => append(index + 1)));
    release();
    await until('the flood read', () => (received.at(-1) === total - 1 ? true : undefined));
    expect(received).toEqual([...received].sort((x, y) => x - y));
    expect(new Set(received).size).toBe(received.length);
    expect(received.length + lost).toBe(total);
  } finally {
    stream.close();
  }
});

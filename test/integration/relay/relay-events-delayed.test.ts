/**
 * Relay mode, the relay's node away: the desktop's status stays connected but says that call
 * events are delayed (since when, which relay), and it no longer counts on hearing them; once the
 * node is back the stream serves again and the status says so by itself, without a restart. The
 * same when the node runs on but its Redis is away (the node ends its streams and refuses them
 * until Redis answers again). One relay node on a real redis-server (stopped and started on the
 * same port), the simulator as the platform, a real Callbar core.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import type { RelayStore } from '../../../relay/relay-store';
import type { RunningSimulator } from '../../../simulator/index';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { silentLogger } from '../../../src-main/core/log/logger';
import { freePort } from '../../support/free-port';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { relayAddresses } from '../../support/relay-addresses';
import { connect, control as simRequest, startSim } from '../../support/sim-harness';
import { startRelayCore } from '../../support/test-core';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-delayed-webhook-secret-0123456789ab';
let redis: RunningRedis;
let store: RelayStore;
let node: RunningRelay | undefined;
let port: number;
let sim: RunningSimulator;

const startNode = async () =>
  (node = await startRelay({
    port,
    store,
    log: silentLogger,
    webhookSecret: SECRET,
    keepAliveMs: 200,
  }));

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
  port = await freePort();
  await startNode();
  sim = await startSim({ profile: 'minimal' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(node!.origin, SECRET, sim.tenant_id),
  );
});
afterAll(async () => {
  await node?.close();
  await store?.close();
  await sim?.close();
  await redis?.stop();
});

const relayCore = () => startRelayCore(sim, node!.origin);

/** The core's account, connected through the relay and hearing its device stream. */
async function listeningAccount(core: CallbarCore) {
  const account = core.profile.account;
  expect((await connect({ account }, sim)).status.state).toBe('connected');
  await account.listen();
  await until('the stream serving', () => (account.hearsCallEvents() ? true : undefined));
  return account;
}

it('says call events are delayed while the relay is away, and stops saying it once it is back', async () => {
  const core: CallbarCore = await relayCore();
  try {
    const account = await listeningAccount(core);
    expect(account.status().events_delayed).toBeUndefined();

    await node!.close();
    node = undefined;
    const away = await until('call events said to be delayed', () =>
      account.status().events_delayed ? account.status() : undefined,
    );
    const host = `127.0.0.1:${port}`;
    expect(away).toMatchObject({ state: 'connected', relay: host });
    expect(Number.isNaN(Date.parse(away.events_delayed?.since ?? ''))).toBe(false);
    expect(away.events_delayed?.message).toContain(`Callbar cannot reach the relay ${host}`);
    expect(away.events_delayed?.message).toContain('keeps reconnecting');
    // Not counted on: a hang-up does not wait for a first event that cannot come.
    expect(account.hearsCallEvents()).toBe(false);

    await startNode();
    await until('the stream back', () =>
      account.status().events_delayed === undefined && account.hearsCallEvents() ? true : undefined,
    );
    expect(account.status()).toMatchObject({ state: 'connected', relay: host });
  } finally {
    await core.close();
  }
});

it('says call events are delayed while the relay node’s Redis is away, and stops once it is back', async () => {
  const core: CallbarCore = await relayCore();
  try {
    const account = await listeningAccount(core);

    // The node runs on, ready to be asked; only its Redis is gone.
    await redis.stop();
    const away = await until('call events said to be delayed', () =>
      account.status().events_delayed ? account.status() : undefined,
    );
    expect(away).toMatchObject({ state: 'connected', relay: `127.0.0.1:${port}` });
    expect(account.hearsCallEvents()).toBe(false);

    await redis.restart();
    await until('the stream back', () =>
      account.status().events_delayed === undefined && account.hearsCallEvents() ? true : undefined,
    );
  } finally {
    await core.close();
  }
});

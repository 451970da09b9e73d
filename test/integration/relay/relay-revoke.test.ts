/**
 * An administrator revokes a device (`npm run relay -- devices revoke ID`, the real command) while
 * its stream is open: the relay ends the stream, the desktop's next attempt is refused (401) and
 * it stops there, saying the session needs connecting again, without reconnecting in a loop.
 * One relay node on a real redis-server, the simulator as the platform, a real Callbar core.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningRelay } from '../../../relay/relay-server';
import type { RelayStore } from '../../../relay/relay-store';
import type { RunningSimulator } from '../../../simulator/index';
import { relayRevokedMessage } from '../../../src-main/core/account/account-service';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { relayAddresses } from '../../support/relay-addresses';
import { addTestDevice } from '../../support/relay-device';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';
import { relayProcess } from '../../support/relay-process';
import {
  capturingLogger,
  connect,
  control as simRequest,
  startSim,
} from '../../support/sim-harness';
import { startRelayCore } from '../../support/test-core';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-revoke-webhook-secret-0123456789ab';
let relay: RelayNodes;
let store: RelayStore;
let node: RunningRelay;
let sim: RunningSimulator;
const relayLog = capturingLogger();

/** The relay's log lines refusing a device stream (each is one attempt the device made). */
const refusedStreams = () =>
  relayLog.lines.filter(
    (line) =>
      line.includes('relay refused a request') &&
      line.includes('/device/stream') &&
      line.includes('401'),
  ).length;

/** `devices revoke ID` as the administrator runs it. */
async function revoke(deviceId: string) {
  const env = { ...process.env, RELAY_REDIS_URL: relay.redis.url };
  const done = await relayProcess(['devices', 'revoke', deviceId], env).exit;
  expect(done).toMatchObject({ code: 0, stdout: `Revoked ${deviceId}.\n` });
}

beforeAll(async () => {
  relay = await startRelayNodes(1, {
    log: relayLog.log,
    webhookSecret: SECRET,
    pollMs: 2000,
    keepAliveMs: 200,
  });
  [store, node] = [relay.stores[0]!, relay.nodes[0]!];
  sim = await startSim({ profile: 'minimal' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(node.origin, SECRET, sim.tenant_id),
  );
});
afterAll(async () => {
  await relay?.close();
  await sim?.close();
});

it('the link: a revoked device’s open stream ends, and the link stops after one refusal', async () => {
  const { credential } = await addTestDevice(store, 'device-revoked', { user_extension: '501' });
  const pauses: number[] = [];
  const link = new RelayLink({
    urls: [node.origin],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    pause: (ms) => {
      pauses.push(ms);
      return Promise.resolve();
    },
  });
  let revoked = 0;
  const stream = link.connect(
    { device_id: 'device-revoked', credential },
    () => Promise.resolve(),
    () => (revoked += 1),
  );
  await stream.ready;
  const before = refusedStreams();
  await revoke('device-revoked');
  expect(await stream.ended).toBe('revoked');
  expect(revoked).toBe(1);
  // One reconnection after the relay ended the stream, refused: nothing after it.
  expect(pauses).toHaveLength(1);
  expect(refusedStreams() - before).toBe(1);
});

it('the desktop: says the session needs connecting again, and does not ask the relay again', async () => {
  const core: CallbarCore = await startRelayCore(sim, node.origin);
  try {
    const account = core.profile.account;
    const connected = await connect({ account }, sim);
    expect(connected.status.state).toBe('connected');
    const alice = connected.user;
    const [deviceId] = await store.deviceIdsOf(sim.tenant_id, alice.extension);
    expect(deviceId).toBeDefined();
    await account.listen();

    const before = refusedStreams();
    await revoke(deviceId!);
    const status = await until('the revoked state', () =>
      account.status().state === 'needs-activation' ? account.status() : undefined,
    );
    expect(status).toMatchObject({
      state: 'needs-activation',
      user_extension: alice.extension,
      title: 'This computer was disconnected from the relay.',
      message: relayRevokedMessage(),
    });
    expect(refusedStreams() - before).toBe(1);
    // Listening again (the app's next start of the receiver, a CLI command) repeats nothing.
    await account.listen();
    expect(refusedStreams() - before).toBe(1);
    expect(account.status().state).toBe('needs-activation');
  } finally {
    await core.close();
  }
});

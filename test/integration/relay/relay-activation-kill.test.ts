/**
 * A relay node killed (SIGKILL) while it holds the platform's activation call, waiting for the
 * desktop's confirmation. Before, the node had made the device record first and would have
 * removed it unless confirmed: killed, it left the record for good (in the user's devices, its
 * queue taking their call events) when the desktop could not store the tokens; and when the
 * desktop stored them (connected, at the other node), the platform's repeat of its call was
 * refused 403, and a platform that revokes the tokens then left the desktop connected with dead
 * ones. Now the device is made when its desktop confirms, and the identical repeat of a confirmed
 * activation is answered 200 as the first.
 *
 * Two built relay processes (`npm run relay`) on a real redis-server, the test posting as the
 * platform (the simulator's own tokens) to node A, a real Callbar core in relay mode at node B.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisStore } from '../../../relay/redis-store';
import type { RelayStore } from '../../../relay/relay-store';
import type { RunningSimulator } from '../../../simulator/index';
import { startCore, type CallbarCore } from '../../../src-main/core/callbar-core';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openProfile } from '../../../src-main/core/profile';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { freePort } from '../../support/free-port';
import { heldVault } from '../../support/held-vault';
import { relayProcess, type RelayProcess } from '../../support/relay-process';
import { startRedis, type RunningRedis } from '../../support/redis-server';
import { issuedSession, profileEnv, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-activation-kill-secret-0123456789ab';
let redis: RunningRedis;
let store: RelayStore;
let sim: RunningSimulator;
let core: CallbarCore;
let portB: number;
const nodeOrigin = () => `http://127.0.0.1:${portB}`;
const children: ChildProcess[] = [];
const inner = new MemoryVault();
/** The desktop's save of the tokens, held while the node is killed. */
const held = heldVault(inner);
const vault = held.vault;

async function node(port: number): Promise<RelayProcess> {
  const started = relayProcess([], {
    ...process.env,
    RELAY_PORT: String(port),
    RELAY_REDIS_URL: redis.url,
    RELAY_WEBHOOK_SECRET: SECRET,
  });
  children.push(started.child);
  await started.listening;
  return started;
}

beforeAll(async () => {
  redis = await startRedis();
  store = redisStore(redis.url, silentLogger);
  sim = await startSim({ profile: 'rich' });
  portB = await freePort();
  await node(portB);
  core = await startCore({
    runtime: 'preview',
    profile: openProfile({
      env: {
        ...profileEnv(
          sim,
          mkdtempSync(join(tmpdir(), 'callbar-activation-kill-')),
          await freePort(),
        ),
        CALLBAR_RELAY_URL: `http://127.0.0.1:${portB}`,
      },
      vault,
      log: silentLogger,
    }),
    openUrl: () => Promise.resolve(),
  });
});
afterAll(async () => {
  await core?.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sim?.close();
  await store?.close();
  await redis?.stop();
});

/**
 * An attempt whose activation the platform posts to a node A killed as the desktop stores the
 * tokens (`stores`: whether the keychain takes them). What is then at the relay, the attempt's
 * outcome, and the platform's call (to repeat).
 */
async function killedMidActivation(stores: boolean) {
  const started = await core.profile.account.startActivation();
  const outcome = started.completion.then(
    (status) => status.state,
    (error: unknown) => (error as { code?: string }).code,
  );
  const key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
  const session = await issuedSession(sim, sim.users[0]!);
  const call = JSON.stringify({
    tenant_id: session.tenant_id,
    user_extension: session.user_extension,
    confirmation_key: key,
    access_token: session.access_token,
    refresh_token: session.refresh_token,
  });
  held.hold();
  const portA = await freePort();
  const a = await node(portA);
  const first = fetch(`http://127.0.0.1:${portA}/activate/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: call,
  }).catch(() => 'reset');
  await held.started;
  a.child.kill('SIGKILL');
  await a.exit;
  expect(await first).toBe('reset');
  if (!stores) inner.unavailable = 'the keychain is locked';
  held.release();
  const ended = await outcome;
  inner.unavailable = false;
  return { ended, call };
}

it('the desktop could not store the tokens: the killed node leaves no device behind', async () => {
  const { ended } = await killedMidActivation(false);
  expect(ended).toBe('vault_unavailable');
  expect(await store.listDevices()).toEqual([]);
});

it('the desktop stored them: connected, one device, and the platform’s repeat is answered 200', async () => {
  const { ended, call } = await killedMidActivation(true);
  expect(ended).toBe('connected');
  const device = (await inner.load())?.relay_device?.device_id;
  // Made at the relay once the desktop confirms (after its status says connected).
  await until('the device confirmed at node B', async () =>
    (await store.listDevices()).length > 0 ? true : undefined,
  );
  expect((await store.listDevices()).map((each) => each.device_id)).toEqual([device]);
  // The platform repeats the call the killed node took, at the other node: answered as the
  // first, nothing made again.
  const repeat = await fetch(`${nodeOrigin()}/activate/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: call,
  });
  expect(repeat.status).toBe(200);
  expect((await store.listDevices()).map((each) => each.device_id)).toEqual([device]);
  // Another call for the same key (other tokens) is no repeat: refused.
  const other = await fetch(`${nodeOrigin()}/activate/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...JSON.parse(call), access_token: 'another-access-token' }),
  });
  expect(other.status).toBe(403);
});

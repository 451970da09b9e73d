/**
 * A desktop that connects again while it holds a relay device (Connect again, another user,
 * `callbar activate --force`, a connect after the session ended) removes its old device at the
 * relay once the new one is stored: the old one's queue is freed and the platform's call events
 * for the user are no longer kept for it. Before, the old device stayed until an administrator
 * revoked it, its queue filling with up to 1,000 messages. A relay out of reach at that moment
 * removes it once it answers again; a deactivation removes the device too, also later.
 *
 * A real redis-server, a real relay node, the simulator as the platform (its Activation URL the
 * node's), and a real Callbar core in relay mode that reaches the node through a connection the
 * test can cut (a network fault, nothing of the relay replaced).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { startCore, type CallbarCore } from '../../../src-main/core/callbar-core';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openProfile } from '../../../src-main/core/profile';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { cuttable, type Cuttable } from '../../support/cuttable-link';
import { freePort } from '../../support/free-port';
import { relayAddresses } from '../../support/relay-addresses';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';
import { until } from '../../support/until';
import {
  connect as connectAtPortal,
  control as simRequest,
  profileEnv,
  startSim,
} from '../../support/sim-harness';

const SECRET = 'relay-reactivate-webhook-secret-0123456789';

let relay: RelayNodes;
let redis: Redis;
let sim: RunningSimulator;
let link: Cuttable;
let vault: MemoryVault;
let core: CallbarCore;
let env: NodeJS.ProcessEnv;
/** The call events the desktop heard, by id. */
const heard: string[] = [];

const account = () => core.profile.account;
const queueKey = (device: string) => `callbar:relay:queue:{${device}}`;
const deviceIds = async () => (await relay.stores[0]!.listDevices()).map((each) => each.device_id);
const storedDevice = async () => (await vault.load())?.relay_device?.device_id;
/** The keychain's entry of devices to remove emptied (written after the relay removed them). */
const retiredEmptied = () =>
  until('the keychain entry emptied', async () =>
    (await vault.readRetiredDevices()) === undefined ? true : undefined,
  );

/**
 * What this process holds, said when a wait times out: which of `devices` (1, 2; 0 for another or
 * none), whether it hears call events, its status.
 */
const heldOf =
  (...devices: string[]) =>
  () => ({
    device: devices.indexOf(account().tokens.relayDevice?.device_id ?? '') + 1,
    hears: account().hearsCallEvents(),
    status: account().status(),
  });

/** Whether this process streams `device` (its session holds it, its stream served its backlog). */
const streaming = (device: string) =>
  account().tokens.relayDevice?.device_id === device && account().hearsCallEvents()
    ? true
    : undefined;

/** A core of the test's profile (another process of it when one runs). */
function startProfileCore(): Promise<CallbarCore> {
  return startCore({
    runtime: 'preview',
    profile: openProfile({ env, vault, log: silentLogger }),
    openUrl: () => Promise.resolve(),
  });
}

/** Subscribes in the portal as the first user; the device the session then holds. */
async function connect(by = core): Promise<string> {
  const { portal, status } = await connectAtPortal({ account: by.profile.account }, sim);
  expect(portal.status).toBe(303);
  expect(status).toMatchObject({ state: 'connected' });
  return (await storedDevice())!;
}

/** The platform posts a call event for the first user, as it does to every device of the user. */
async function postEvent(id: string): Promise<void> {
  const alice = sim.users[0]!;
  const answer = await fetch(`${relay.nodes[0]!.origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id,
      tenant_id: sim.tenant_id,
      user_extension: alice.extension,
      state: 'ringing',
    }),
  });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  relay = await startRelayNodes(1, { webhookSecret: SECRET, pollMs: 2000, keepAliveMs: 1000 });
  redis = new Redis(relay.redis.url);
  sim = await startSim({ profile: 'rich' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(relay.nodes[0]!.origin, SECRET, sim.tenant_id),
  );
  link = await cuttable(relay.nodes[0]!.origin);
  vault = new MemoryVault();
  env = {
    ...profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-reactivate-')), await freePort()),
    CALLBAR_RELAY_URL: link.origin,
  };
  core = await startProfileCore();
  account().onCallEvent((event) => heard.push(event.id));
});
afterAll(async () => {
  await core?.close();
  await link?.close();
  redis?.disconnect();
  await sim?.close();
  await relay?.close();
});

it('connecting again removes the old device at the relay: its queue freed, the new one works', async () => {
  const first = await connect();
  await postEvent('leg-before');
  expect(await redis.exists(queueKey(first))).toBe(1);

  const second = await connect();
  expect(second).not.toBe(first);
  await until('the old device removed at the relay', async () =>
    (await deviceIds()).includes(first) ? undefined : true,
  );
  expect(await deviceIds()).toEqual([second]);
  expect(await redis.exists(queueKey(first), `callbar:relay:device:{${first}}`)).toBe(0);
  // The platform's events for the user are kept for the new device only.
  await postEvent('leg-after');
  expect(await redis.exists(queueKey(first))).toBe(0);
  expect(await redis.xlen(queueKey(second))).toBe(1);
  await until('the event at the desktop, through the new device', () =>
    heard.includes('leg-after') ? true : undefined,
  );
  // Nothing is left to remove.
  await retiredEmptied();
});

it('the relay out of reach as the new device is stored: the old one is removed once it answers', async () => {
  const first = (await storedDevice())!;
  // Cut right after the desktop's confirmation went through: its new stream, and the removal of
  // the old device once that works, find the relay out of reach.
  link.after = (what) => {
    if (what.startsWith('POST /device/activation/confirm')) {
      link.after = undefined;
      link.cut();
    }
  };
  const second = await connect();
  expect(second).not.toBe(first);
  // The new device's stream is refused: it does not work yet, so nothing is removed.
  await until('the new stream refused at the cut connection', () =>
    link.refused.some((what) => what.startsWith('GET /device/stream')) ? true : undefined,
  );
  // The new session stands; the old device waits, in the keychain, for the relay.
  expect(account().status().state).toBe('connected');
  expect(await deviceIds()).toEqual(expect.arrayContaining([first, second]));
  expect(await vault.readRetiredDevices()).toContain(first);

  link.down = false;
  await until('the old device removed once the relay answers', async () =>
    (await deviceIds()).includes(first) ? undefined : true,
  );
  expect(await deviceIds()).toEqual([second]);
  expect(await redis.exists(queueKey(first))).toBe(0);
  await retiredEmptied();
});

it('forgetting the session removes its device, later when the relay is out of reach', async () => {
  const device = (await storedDevice())!;
  link.cut();
  await account().deactivateLocal();
  expect(await deviceIds()).toEqual([device]);
  expect(await vault.readRetiredDevices()).toContain(device);
  link.down = false;
  // The next command (or the app's next start) tries again.
  await account().listen();
  await until('the forgotten device removed', async () =>
    (await deviceIds()).length === 0 ? true : undefined,
  );
  expect(await redis.exists(queueKey(device))).toBe(0);
  await retiredEmptied();
});

it('another process of the profile connects anew: this one streams the new device, not "revoked"', async () => {
  const first = await connect();
  await account().listen();
  const other = await startProfileCore();
  try {
    const second = await connect(other);
    await until(
      'the old device removed at the relay',
      async () => ((await deviceIds()).includes(first) ? undefined : true),
      deviceIds,
    );
    // This process follows once its folder watch tells it of the other's session (50 ms on): an
    // event posted before then is the other's alone, and this one goes on from the profile's
    // offset after it (relay-cursor.json), as the next process of the profile does.
    await until(
      'this process streaming the new device',
      () => streaming(second),
      heldOf(first, second),
    );
    await postEvent('leg-of-the-other');
    await until(
      'the event at this process, through the new device',
      () => (heard.includes('leg-of-the-other') ? true : undefined),
      heldOf(first, second),
    );
    expect(account().status()).toMatchObject({ state: 'connected' });
    expect(await deviceIds()).toEqual([second]);
  } finally {
    await other.close();
  }
});

it('this process follows before the other told the relay of its device: refused a moment, then streamed', async () => {
  const first = (await storedDevice())!;
  await account().listen();
  const other = await startProfileCore();
  // The other's confirmation (the relay makes the device on it) is held until this process,
  // following the keychain the other wrote just before, was refused the device not made yet.
  const since = link.heard.length;
  const refused = () =>
    link.heard
      .slice(since)
      .some((each) => each.what.startsWith('GET /device/stream') && each.status === 401);
  link.before = async (what) => {
    if (!what.startsWith('POST /device/activation/confirm')) return;
    link.before = undefined;
    await until('this process refused the device not made yet', () => refused() || undefined);
  };
  try {
    const second = await connect(other);
    expect(refused()).toBe(true);
    // Before, that refusal was taken for a revocation: "disconnected from the relay" for good.
    await until(
      'this process streaming the new device',
      () => streaming(second),
      heldOf(first, second),
    );
    await postEvent('leg-after-the-refusal');
    await until(
      'the event at this process, through the new device',
      () => (heard.includes('leg-after-the-refusal') ? true : undefined),
      heldOf(first, second),
    );
    expect(account().status()).toMatchObject({ state: 'connected' });
  } finally {
    link.before = undefined;
    await other.close();
  }
});

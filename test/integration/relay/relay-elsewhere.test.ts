/**
 * A session's relay device goes with the relay that issued it: once `relay_url` names another
 * relay (settings or policy, applied at the next start), the device's credential is never sent
 * there; Callbar asks the person to connect again. Before, the stored credential went to whatever
 * relay the settings named (stream, dial note, `status --check`).
 *
 * Two relays, each a real node on its own real redis-server; the simulator as the platform (its
 * Activation URL the first relay's); a real Callbar core in relay mode, started again on the same
 * profile with the second relay's address, reached through a connection that notes each request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { connect, control as simRequest, profileEnv, startSim } from '../../support/sim-harness';

const SECRET = 'relay-elsewhere-webhook-secret-0123456789';

let first: RelayNodes;
let second: RelayNodes;
let toSecond: Cuttable;
let sim: RunningSimulator;
let env: NodeJS.ProcessEnv;
const vault = new MemoryVault();
const cores: CallbarCore[] = [];

/** A core of the test's profile, with the relay address `relayUrl`. */
async function startProfileCore(relayUrl: string): Promise<CallbarCore> {
  const core = await startCore({
    runtime: 'preview',
    profile: openProfile({
      env: { ...env, CALLBAR_RELAY_URL: relayUrl },
      vault,
      log: silentLogger,
    }),
    openUrl: () => Promise.resolve(),
  });
  cores.push(core);
  return core;
}

beforeAll(async () => {
  const options = { webhookSecret: SECRET, pollMs: 2000, keepAliveMs: 1000 };
  first = await startRelayNodes(1, options);
  second = await startRelayNodes(1, options);
  toSecond = await cuttable(second.nodes[0]!.origin);
  sim = await startSim({ profile: 'rich' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(first.nodes[0]!.origin, SECRET, sim.tenant_id),
  );
  env = profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-elsewhere-')), await freePort());
});
afterAll(async () => {
  for (const core of cores) await core.close();
  await toSecond?.close();
  await sim?.close();
  await first?.close();
  await second?.close();
});

it('relay_url changed: the device credential never reaches the new relay, the person connects again', async () => {
  const origin = first.nodes[0]!.origin;
  const before = await startProfileCore(origin);
  const connected = await connect({ account: before.profile.account }, sim);
  expect(connected.portal.status).toBe(303);
  expect(connected.status).toMatchObject({ state: 'connected' });
  const device = (await vault.load())!.relay_device!;
  expect(device.relay_urls).toEqual([origin]);
  await before.close();

  // The settings name another relay now: the app's next start.
  const after = await startProfileCore(toSecond.origin);
  const account = after.profile.account;
  await account.listen();
  await account.announceDial();
  const probe = await account.probeRelay();
  // Nothing bearing the first relay's credential reached the second (before: the stream, the
  // dial note and the probe, each refused 401, and "revoked" said).
  expect(toSecond.heard.filter((each) => each.authorization?.includes(device.credential))).toEqual(
    [],
  );
  expect(probe).toBeUndefined();
  expect(await second.stores[0]!.listDevices()).toEqual([]);
  const status = account.status();
  expect(status).toMatchObject({
    state: 'needs-activation',
    user_extension: sim.users[0]!.extension,
  });
  expect(status.message).toContain(`through the relay at ${origin}`);
  expect(status.message).toContain(`now name ${toSecond.origin}`);
  expect(status.message).toContain('Connect again');
  // The session itself stays (its tokens are the platform's): connecting again replaces it.
  expect((await vault.load())?.refresh_token).toBeDefined();

  // The administrator registered the second relay; the person connects again through it. The
  // old device is removed where it was issued, with its credential sent there only.
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(second.nodes[0]!.origin, SECRET, sim.tenant_id),
  );
  const again = await connect({ account }, sim);
  expect(again.portal.status).toBe(303);
  expect(again.status).toMatchObject({ state: 'connected' });
  expect((await vault.load())!.relay_device!.relay_urls).toEqual([toSecond.origin]);
  await until('the old device removed at the first relay', async () =>
    (await first.stores[0]!.listDevices()).length === 0 ? true : undefined,
  );
  expect(await second.stores[0]!.listDevices()).toHaveLength(1);
  expect(toSecond.heard.filter((each) => each.authorization?.includes(device.credential))).toEqual(
    [],
  );
});

/**
 * The CLI in relay mode, under the minimal profile (events carry only `{id}`): nothing listens
 * between commands, so the platform's events wait in the device's queue at the relay (here one
 * node with the embedded store), and `callbar dial X` followed by `callbar hangup` ends the call:
 * the hangup command reads the queued legs first. `callbar status` says "via relay <host>".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { activateThroughCli, runCallbarInProcess } from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { until } from '../../support/until';
import { control as simRequest, profileEnv, startSim } from '../../support/sim-harness';
import { relayAddresses } from '../../support/relay-addresses';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let sim: RunningSimulator;
let relay: RunningRelay;
let env: NodeJS.ProcessEnv;
let dataDir: string;
const store = memoryStore();

beforeAll(async () => {
  const secret = 'cli-relay-webhook-secret-0123456789abcdef';
  relay = await startRelay({ port: 0, store, log: silentLogger, webhookSecret: secret });
  sim = await startSim({ profile: 'minimal' });
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(relay.origin, secret, sim.tenant_id),
  );
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-relay-cli-'));
  env = { ...profileEnv(sim, dataDir, await freePort()), CALLBAR_RELAY_URL: relay.origin };
});
afterAll(async () => {
  await openVault({ dataDir }).clear();
  await relay?.close();
  await sim?.close();
});

it('activates through the relay; `dial` then `hangup` ends the call under minimal', async () => {
  const alice = sim.users[0]!;
  const activation = await activateThroughCli(env, alice);
  expect(activation.stderr).toBe('');
  expect(activation.code).toBe(0);
  const status = await runCallbarInProcess(['status'], env);
  expect(status.stdout).toContain(`via relay ${new URL(relay.origin).host}`);

  const dial = await runCallbarInProcess(['dial', '+49 30 1234567'], env);
  expect(dial.code).toBe(0);
  const control = new SimControl(sim.base_url);
  const call = await until('the simulator call', async () =>
    (await control.calls()).find((each) => each.to === '+49301234567'),
  );
  await control.webhooksSettled(20_000);
  // Nobody listened: the leg waits at the relay, and the next command reads it.
  const hangup = await runCallbarInProcess(['hangup'], env);
  expect(hangup.stderr).toBe('');
  expect(hangup.code).toBe(0);
  expect((await control.getCall(call.id)).state).toBe('ended');
});

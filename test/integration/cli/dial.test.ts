/**
 * `callbar dial` (without --follow) in loopback mode stays a few seconds to hear the platform's
 * first event about the call, saying so, so that `callbar hangup` afterwards can end the call
 * under the minimal profile too (its dial answer names no leg; only an event does). When no event
 * comes (no Webhook URL registered), it gives up after those seconds and nothing breaks. The CLI
 * inside the test's process, the real keychain of a throwaway profile, the simulator under
 * `minimal`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import {
  activateThroughCli,
  callbarInProcess,
  runCallbarInProcess,
} from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import {
  advanceClock,
  registerProfile,
  registerReceiver,
  profileEnv,
  startSim,
} from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let sim: RunningSimulator;
let control: SimControl;
let env: NodeJS.ProcessEnv;
let dataDir: string;

beforeAll(async () => {
  sim = await startSim({ profile: 'minimal' });
  control = new SimControl(sim.base_url);
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-dial-'));
  env = profileEnv(sim, dataDir, await freePort());
  await registerProfile(sim, env);
  const alice = sim.users[0]!;
  const activated = await activateThroughCli(env, alice, [], callbarInProcess);
  expect(activated.code).toBe(0);
});
afterAll(async () => {
  await openVault({ dataDir }).clear();
  await sim?.close();
});

it('dial stays for the first event, so hangup then ends the call (minimal profile)', async () => {
  await advanceClock(sim, 61);
  const dial = await runCallbarInProcess(['dial', '+49 30 1234567'], env);
  expect(dial.code).toBe(0);
  expect(dial.stderr).toContain(
    "Waiting up to 5 s for the platform's first event about the call, so that `callbar hangup` can end it…",
  );
  expect(dial.stderr).not.toContain('sent no event');
  const call = await until('the call', async () =>
    (await control.calls()).find((each) => each.to === '+49301234567'),
  );
  const hangup = await runCallbarInProcess(['hangup'], env);
  expect(hangup).toMatchObject({ code: 0, stdout: 'Hung up.' });
  expect((await control.getCall(call.id)).state).toBe('ended');
});

it('no event comes (no Webhook URL): dial gives up after the wait and says what that means', async () => {
  await advanceClock(sim, 61);
  // Activation and Deactivation URLs only: the platform sends this profile no call event.
  await registerReceiver(sim, `http://127.0.0.1:${env.CALLBAR_RECEIVER_PORT}`);
  try {
    const dial = await runCallbarInProcess(['dial', '+49 30 7654321', '--json'], env);
    expect(dial.code).toBe(0);
    expect(JSON.parse(dial.stdout)).toMatchObject({ status: 'dialing' });
    const human = await runCallbarInProcess(['dial', '+49 30 7654322'], env);
    expect(human.code).toBe(0);
    expect(human.stderr).toContain(
      'The platform sent no event about the call within 5 s: `callbar hangup` may not be able to end it',
    );
  } finally {
    await registerProfile(sim, env);
  }
});

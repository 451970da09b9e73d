/**
 * The record of the account connected before (`last-account.json`) shared by two processes of a
 * profile: the app (the profile's account service in this process) shows a switch; meanwhile the
 * `callbar` bin connects yet another account. The app's "acknowledge" of the switch it showed must
 * not write away the newer one, which `callbar status` must go on saying. Real keychain, real
 * simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { openProfile } from '../../../src-main/core/profile';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { activateThroughCli, runCallbar } from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { profileEnv, registerReceiver, startSim } from '../../support/sim-harness';

let sim: RunningSimulator;
let env: NodeJS.ProcessEnv;
let dataDir: string;

beforeAll(async () => {
  sim = await startSim();
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-switch-shared-'));
  const port = await freePort();
  env = profileEnv(sim, dataDir, port);
  await registerReceiver(sim, `http://127.0.0.1:${port}`);
});
afterAll(async () => {
  await openVault({ dataDir }).clear();
  rmSync(dataDir, { recursive: true, force: true });
  await sim.close();
});

it("the app's acknowledgement of a switch leaves a newer one the CLI made standing", async () => {
  const [alice, bob, carol] = [sim.users[0]!, sim.users[1]!, sim.users[2]!];
  expect((await activateThroughCli(env, alice)).code).toBe(0);
  expect((await activateThroughCli(env, bob, ['--force'])).code).toBe(0);

  const app = openProfile({ env, log: silentLogger, watchSettings: false });
  try {
    const shown = await app.account.start();
    expect(shown.account_switch).toMatchObject({ user_extension: alice.extension });

    // Meanwhile, in a terminal: Carol connects.
    const carolIn = await activateThroughCli(env, carol, ['--force']);
    expect(carolIn.code).toBe(0);
    expect(JSON.parse(carolIn.stdout)).toMatchObject({
      account_switch: { user_extension: bob.extension },
    });

    // Bob clicks the app's "That was me" on the switch it showed him (from Alice).
    await app.account.acknowledgeSwitch();
  } finally {
    await app.close();
  }

  const status = await runCallbar(['status', '--json'], env);
  expect(status.code).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({
    user_extension: carol.extension,
    account_switch: { user_extension: bob.extension },
  });
}, 60_000);

/**
 * `callbar activate --force` completed in the portal by another user (as someone who learned the
 * link would): `activate` and every later `status` say that Callbar is now connected to a
 * different account than before. The CLI inside the test's process, real keychain, real simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import {
  activateThroughCli,
  callbarInProcess,
  runCallbarInProcess,
} from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { profileEnv, registerReceiver, startSim } from '../../support/sim-harness';

describe('callbar CLI: a connection to a different account than before', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSim();
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-switch-'));
    const port = await freePort();
    env = profileEnv(sim, dataDir, port);
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  const activateAs = (userIndex: number, args: string[] = []) =>
    activateThroughCli(env, sim.users[userIndex]!, args, callbarInProcess);

  it('activate and status say so, in words and in --json', async () => {
    const [alice, bob] = [sim.users[0]!, sim.users[1]!];
    const first = await activateAs(0);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).not.toHaveProperty('account_switch');

    const swapped = await activateAs(1, ['--force']);
    expect(swapped.code).toBe(0);
    expect(JSON.parse(swapped.stdout)).toMatchObject({
      state: 'connected',
      user_extension: bob.extension,
      account_switch: { user_extension: alice.extension, tenant_id: sim.tenant_id },
    });

    const status = await runCallbarInProcess(['status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Connected as extension ${bob.extension} (${sim.tenant_id}).`);
    expect(status.stdout).toContain(
      `Callbar is now connected to extension ${bob.extension} (${sim.tenant_id}), not to extension ${alice.extension} as before.`,
    );
    expect(status.stderr).toContain("'callbar status --acknowledge-switch'");

    // It was Bob himself: acknowledged once, no command says it any more.
    const acknowledged = await runCallbarInProcess(
      ['status', '--acknowledge-switch', '--json'],
      env,
    );
    expect(acknowledged.code).toBe(0);
    expect(JSON.parse(acknowledged.stdout)).toMatchObject({ user_extension: bob.extension });
    expect(JSON.parse(acknowledged.stdout)).not.toHaveProperty('account_switch');
    const later = await runCallbarInProcess(['status'], env);
    expect(later.stdout).not.toContain('not to extension');
    expect(later.stderr).toBe('');
  });
});

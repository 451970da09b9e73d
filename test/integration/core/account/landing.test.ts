/**
 * The page the browser lands on after the portal, for each way an attempt ends, and what the
 * process waiting for it learns: against the simulator's real portal, with an in-memory vault.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountRig,
  capturingLogger,
  completePortalFlow,
  connect,
  startSim,
  type AccountRig,
} from '../../../support/sim-harness';

describe('landing page', () => {
  let sim: RunningSimulator;
  const rigs: AccountRig[] = [];
  beforeAll(async () => {
    sim = await startSim();
  });
  afterEach(async () => {
    for (const rig of rigs.splice(0)) await rig.account.close();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('connected: says so, and `landed` resolves once the browser was shown it', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(rig);
    const { started, portal } = await connect(rig, sim);
    let landed = false;
    void started.landed.then(() => (landed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(landed).toBe(false);
    const page = await fetch(portal.location!);
    expect(await page.text()).toContain('Connected — you can close this tab');
    await started.landed;
  });

  it('Unsubscribe on the page of the attempt that connected: the page says disconnected, not connected', async () => {
    const vault = new MemoryVault();
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    const { started, user } = await connect(rig, sim);
    const portal = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'unsubscribe',
    });
    expect(portal.status).toBe(303);
    expect(await vault.load()).toBeUndefined();
    const page = await (await fetch(portal.location!)).text();
    expect(page).toContain('Callbar is disconnected from this computer');
    expect(page).not.toContain('Connected');
  });

  it('a keychain that fails while storing: the waiting process hears it at once (vault_unavailable)', async () => {
    const vault = new MemoryVault();
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    const user = sim.users[0]!;
    const started = await rig.account.startActivation();
    const outcome = started.completion.then(
      () => 'connected',
      (error: { code: string }) => error.code,
    );
    vault.unavailable = 'the keyring is locked';
    const portal = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(portal.status).not.toBe(303);
    expect(await outcome).toBe('vault_unavailable');
  });
});

/**
 * A link waiting for the person's yes, and the region changed meanwhile. A person whose region
 * says Germany clicks tel:0662123456 on an Austrian page; the confirmation shows "06621 23456",
 * a number in Hünfeld, Germany. They set their country to Austria in Settings and come back to
 * the confirmation: before, "Call" dialled the German number read before the change (the old
 * country's). Now the waiting link is read again in the region as it is: the confirmation shows
 * Salzburg's "0662 123456" under a new id, a yes given to the old one dials nothing, and the yes
 * to the new one dials +43 662 123456, through the simulator.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import type { CallsSnapshot, DialOutcome } from '../../../../src-shared/contract';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { advanceClock, describeJourney, startSim } from '../../../support/sim-harness';

describeJourney('a waiting link when the region changes', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });

  it('is read again in the new region, and only the yes to what it now dials dials', async () => {
    await advanceClock(sim, 61);
    await rig.value('settings.save', { region: 'DE', confirm_web_links: true });
    const asked = await rig.value<DialOutcome>('calls.openUrl', { url: 'tel:0662123456' });
    expect(asked.status).toBe('needs-confirmation');
    const first = asked.status === 'needs-confirmation' ? asked.pending : undefined;
    expect(first?.target).toMatchObject({ destination: '+49662123456', display: '06621 23456' });

    await rig.value('settings.save', { region: 'AT' });
    const waiting = (await rig.value<CallsSnapshot>('calls.list')).pending;
    expect(waiting?.target).toMatchObject({
      destination: '+43662123456',
      display: '0662 123456',
      country: 'AT',
    });
    expect(waiting?.id).not.toBe(first?.id);

    // The yes given to the confirmation as it was: refused, nothing dialled.
    const stale = await rig.invoke('calls.confirm', { id: first!.id, accept: true });
    expect(stale).toMatchObject({ ok: false, error: { code: 'no_pending_dial' } });
    expect((await rig.value<CallsSnapshot>('calls.list')).pending?.id).toBe(waiting?.id);
    expect(await control.calls()).toEqual([]);

    await rig.value('calls.confirm', { id: waiting!.id, accept: true });
    const placed = await control.calls();
    expect(placed.map((call) => call.to)).toEqual(['+43662123456']);
  });
});

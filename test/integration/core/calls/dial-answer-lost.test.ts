/**
 * A dial the platform placed whose answer was an error (a gateway's 502 or 504, a 500 after the
 * work was done: the simulator's `when: 'after'` faults) against the real core: the user's phone
 * rings, so Callbar cannot say the dial failed. It is followed as one whose outcome is unknown,
 * as a dial that timed out is: one record of the call, the user's, which the platform's events
 * attach to. Before, it was a failed dial in the recent calls, and the call the platform placed
 * a second record beside it, under `minimal` and `variant` an "Unknown caller" calling the user.
 * A 503 (the platform did not take the request) is still a failed dial.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import type { CallsSnapshot } from '../../../../src-shared/contract';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { advanceClock, describeJourney, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

describeJourney('a dial whose answer was lost to an error', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;

  const snapshot = () => rig.value<CallsSnapshot>('calls.list');

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });
  beforeEach(async () => {
    await advanceClock(sim, 61); // a fresh call-control rate-limit window
    await control.clearFaults();
    // No call of a test before still ringing.
    for (const call of await control.calls()) {
      if (call.state !== 'ended') await control.endLeg(call.legs[0]!.id);
    }
    await control.webhooksSettled(20_000);
    await rig.value('calls.clearRecent');
  });

  it.each([
    [502, '+12025550181'],
    [504, '+12025550182'],
    [500, '+12025550183'],
  ])(
    'placed, then answered %i: one record of the call, the user’s, with its legs',
    async (status, number) => {
      await control.addFault({
        method: 'POST',
        path: '/v3/call_control/',
        status,
        when: 'after',
        count: 1,
      });
      const dialled = await rig.invoke('calls.dial', { target: number });
      expect(dialled).toMatchObject({
        ok: false,
        error: {
          code: 'dial_uncertain',
          message: `The platform answered the dial with an error (HTTP ${status}), so Callbar cannot tell whether the call was placed. Check your phone before dialing again.`,
        },
      });
      const simCall = (await control.calls()).filter((call) => call.to === number).at(-1)!;
      expect(simCall.state).toBe('ringing');
      await control.webhooksSettled(20_000);
      const call = await until('the platform’s events attach to the dial', async () => {
        const { current } = await snapshot();
        return current.find((each) => each.leg_ids.length > 0);
      });
      const { current, recent } = await snapshot();
      expect([...current, ...recent]).toHaveLength(1);
      expect(call).toMatchObject({
        direction: 'outgoing',
        source: 'ui',
        party: { number },
        leg_ids: [simCall.legs[0]!.id],
      });
      await rig.value('calls.hangup', { call_id: call.id });
      expect((await control.getCall(simCall.id)).state).toBe('ended');
    },
  );

  it('refused 503 (not taken): a failed dial, nothing followed', async () => {
    await control.addFault({ method: 'POST', path: '/v3/call_control/', status: 503, count: 1 });
    const dialled = await rig.invoke('calls.dial', { target: '+12025550184' });
    expect(dialled).toMatchObject({ ok: false, error: { code: 'server_error' } });
    const { current, recent } = await snapshot();
    expect(current).toEqual([]);
    expect(recent).toMatchObject([{ state: 'failed', party: { number: '+12025550184' } }]);
  });
});

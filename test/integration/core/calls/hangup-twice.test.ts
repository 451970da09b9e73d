/**
 * Hang up pressed twice (a double click, or Esc and the button at once) against the real
 * simulator: the second press is the same hangup as the first, not a second one. It sent the
 * user's leg again and then the other party's (both refused 403: three commands against the
 * call-control rate limit), answered the second press "That call has already ended, or it is not
 * yours to end.", and dropped the refused legs from the call the first press had just ended.
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

describeJourney('Hang up pressed twice', (profile) => {
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
    // A fresh call-control rate-limit window (minimal: 10 per 60 s) without waiting for it.
    await advanceClock(sim, 61);
    await control.clearRequests();
  });

  it('sends one hangup; both presses answer with the ended call, its legs kept', async () => {
    const { call } = await rig.value<{ call: { id: string } }>('calls.dial', {
      target: '+1 202 555 0142',
    });
    const simCall = await until('the simulator call', async () =>
      (await control.calls()).filter((each) => each.to === '+12025550142').at(-1),
    );
    // The user answers: the destination rings, a second leg.
    await control.answerLeg(simCall.legs[0]!.id);
    await control.webhooksSettled(20_000);
    const legs = await until('both legs heard', async () => {
      const current = (await snapshot()).current.find((each) => each.id === call.id);
      return current && current.leg_ids.length >= 2 ? current.leg_ids : undefined;
    });

    const presses = await Promise.all([
      rig.invoke('calls.hangup', { call_id: call.id }),
      rig.invoke('calls.hangup', { call_id: call.id }),
    ]);

    for (const pressed of presses) {
      expect(pressed).toMatchObject({
        ok: true,
        value: { current: [], recent: [{ id: call.id, state: 'ended', reason: 'You hung up.' }] },
      });
    }
    const hangups = (await control.requests()).filter(
      (request) =>
        request.path === '/v3/call_control/' && JSON.stringify(request.body).includes('hangup'),
    );
    expect(hangups.map((request) => request.status)).toEqual([profile === 'variant' ? 204 : 202]);
    expect((await control.getCall(simCall.id)).state).toBe('ended');
    await control.webhooksSettled(20_000);
    const [ended] = (await snapshot()).recent;
    expect(ended).toMatchObject({ id: call.id, state: 'ended', reason: 'You hung up.' });
    expect([...ended!.leg_ids].sort()).toEqual([...legs].sort());
  });
});

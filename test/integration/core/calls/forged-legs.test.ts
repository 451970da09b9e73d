/**
 * Forged legs against a real call: the real core connected to the simulator, a real dial ringing
 * the user's phone, and a forger POSTing unknown leg ids with everything the platform's
 * deliveries carry. Under `minimal` ({id}-only events) only the attribution rule stands between
 * them and the call: they take at most the handful of legs it allows, Hang up tries the user's
 * own leg first and ends the real call at the simulator, a leg refused with 403 is dropped, and
 * a 429 stops Hang up with when to try again.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import { PROFILE_CHOICES, type RunningSimulator } from '../../../../simulator/index';
import { DEFAULT_CALL_LIMITS } from '../../../../src-main/core/calls/call-tracker';
import type { CallsSnapshot } from '../../../../src-shared/contract';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { eventForger, type EventForger } from '../../../support/event-forger';
import { advanceClock, describeJourney, fullEvents, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

describeJourney('forged legs and Hang up', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;
  let forger: EventForger;

  const snapshot = () => rig.value<CallsSnapshot>('calls.list');
  /** The hangup commands the simulator received since its request log was last cleared. */
  const hangupsSent = async () =>
    (await control.requests()).filter(
      (request) =>
        request.path === '/v3/call_control/' && JSON.stringify(request.body).includes('hangup'),
    );
  /** Dials `number` and waits for the user's own leg (the simulator's first) to reach the call. */
  async function dialAndHearOwnLeg(number: string, destination: string) {
    const { call } = await rig.value<{ call: { id: string } }>('calls.dial', { target: number });
    const simCall = await until('the simulator call', async () =>
      (await control.calls()).filter((each) => each.to === destination).at(-1),
    );
    const ownLeg = simCall.legs[0]!.id;
    await until('the own leg', async () =>
      (await snapshot()).current.find((each) => each.id === call.id)?.leg_ids.includes(ownLeg)
        ? true
        : undefined,
    );
    return { callId: call.id, simCallId: simCall.id, ownLeg };
  }

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
    forger = await eventForger(sim);
  });
  afterAll(async () => {
    forger?.close();
    await rig?.core.close();
    await sim?.close();
  });
  beforeEach(async () => {
    // A fresh call-control rate-limit window (minimal: 10 per 60 s) without waiting for it.
    await advanceClock(sim, 61);
  });

  it('drops a forged leg that arrived ahead of the user’s own when the platform refuses it', async () => {
    await control.clearRequests();
    // The platform takes two seconds over the dial: the forger's leg reaches Callbar first.
    await control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      delay_ms: 2000,
      count: 1,
    });
    const dialing = rig.invoke('calls.dial', { target: '+1 202 555 0199' });
    expect(await forger.post({ id: 'leg_forged_first' })).toBe(200);
    const dialed = await dialing;
    if (!dialed.ok) throw new Error(dialed.error.message);
    const callId = (dialed.value as { call: { id: string } }).call.id;
    const simCall = await until('the simulator call', async () =>
      (await control.calls()).filter((each) => each.to === '+12025550199').at(-1),
    );
    await control.webhooksSettled(20_000);
    const heard = (await snapshot()).current.find((each) => each.id === callId)!;
    expect(heard.leg_ids).toContain('leg_forged_first');

    const after = await rig.value<CallsSnapshot>('calls.hangup', { call_id: callId });
    expect((await control.getCall(simCall.id)).state).toBe('ended');
    const ended = after.recent.find((each) => each.id === callId)!;
    expect(ended).toMatchObject({ state: 'ended', reason: 'You hung up.' });
    const hangups = await hangupsSent();
    if (PROFILE_CHOICES[profile].callEventPayload === 'id-only') {
      // {id} alone: the first leg to arrive was tried first, refused, and dropped from the call.
      expect(hangups.map((request) => (request.status ?? 0) >= 400)).toEqual([true, false]);
      expect(ended.leg_ids).not.toContain('leg_forged_first');
    } else {
      // The dial's answer named the user's leg (rich), or the sequence of its events placed it
      // before a leg the platform never numbered (variant): it was tried first, and only it.
      expect(hangups).toHaveLength(1);
    }
  });

  it('tries the user’s own leg of a call to them first, past a forged one', async () => {
    await control.clearRequests();
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: '201',
      from: '+12025550199',
    });
    await control.webhooksSettled(20_000);
    // Within seconds of the call's news: the forged leg joins it as its third (rich events name
    // the call, so there the forger names it too).
    const forgedLeg = {
      id: 'leg_forged_incoming',
      ...(fullEvents(profile) ? { call_id: incoming.id } : {}),
    };
    expect(await forger.post(forgedLeg)).toBe(200);
    const call = (await snapshot()).current.find((each) =>
      each.leg_ids.includes(incoming.legs[0]!.id),
    )!;
    expect(call.leg_ids).toContain('leg_forged_incoming');

    await rig.value<CallsSnapshot>('calls.hangup', { call_id: call.id });
    expect((await control.getCall(incoming.id)).state).toBe('ended');
    const hangups = await hangupsSent();
    expect(hangups).toHaveLength(1);
  });

  it('gives forged legs at most the handful the rule allows, and Hang up ends the real call', async () => {
    await control.clearRequests();
    const { callId, simCallId, ownLeg } = await dialAndHearOwnLeg('+49 30 1234567', '+49301234567');
    await control.webhooksSettled(20_000);
    await control.hostileEvents({
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      kind: 'forged-legs',
      count: 200,
    });
    await control.hostileEventsDone();

    const call = (await snapshot()).current.find((each) => each.id === callId)!;
    expect(call.leg_ids[0]).toBe(ownLeg);
    const attached = call.leg_ids.filter((id) => id.startsWith('leg_forged_'));
    // Under rich events, which name the call, a leg whose event names none joins no call.
    expect(attached.length).toBeLessThanOrEqual(
      fullEvents(profile) ? 0 : DEFAULT_CALL_LIMITS.guessedLegs - 1,
    );

    // Without a call id (the CLI's `hangup`, the tray): the call the user placed, not a newer
    // one a forged leg started.
    const after = await rig.value<CallsSnapshot>('calls.hangup');
    expect(after.recent.find((each) => each.id === callId)).toMatchObject({
      state: 'ended',
      reason: 'You hung up.',
    });
    expect((await control.getCall(simCallId)).state).toBe('ended');
    // Only the user's own leg was tried: no 403s, no 429.
    const hangups = await hangupsSent();
    expect(hangups).toHaveLength(1);
    expect(hangups[0]!.status).toBeLessThan(300);
  });

  it('stops Hang up on a 429 and says when to try again; the call stays', async () => {
    const { callId, simCallId } = await dialAndHearOwnLeg('+1 202 555 0142', '+12025550142');
    await control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      status: 429,
      headers: { 'Retry-After': '2' },
      count: 1,
    });
    const refused = await rig.invoke('calls.hangup', { call_id: callId });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/not hung up.*Try Hang up again in 2 s/) as string,
      },
    });
    expect((await snapshot()).current.some((each) => each.id === callId)).toBe(true);
    expect((await control.getCall(simCallId)).state).not.toBe('ended');
    await control.endLeg((await control.getCall(simCallId)).legs[0]!.id);
  });
});

/**
 * Calls against another implementation of the contract (issue 39, the simulator's `variant`
 * profile): a click-to-dial answered 2xx with a body that is not JSON is a dial placed (the phone
 * rings), and Hang up tries the legs in the order the platform made them (each event's
 * `sequence`), not in the order its events arrived: the variant posts a change's events last
 * first, each twice, so the user's own leg of a call to them arrives first.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import type { CallsSnapshot } from '../../../../src-shared/contract';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { advanceClock, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

let sim: RunningSimulator;
let control: SimControl;
let rig: ConnectedCore;

const snapshot = () => rig.value<CallsSnapshot>('calls.list');

beforeAll(async () => {
  sim = await startSim({ profile: 'variant' });
  control = new SimControl(sim.base_url);
  rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
});
afterAll(async () => {
  await rig?.core.close();
  await sim?.close();
});
beforeEach(async () => {
  await advanceClock(sim, 61);
  await control.clearRequests();
});

it('takes a dial answered 200 with a body that is not JSON as placed', async () => {
  await control.updateConfig({ callControlResponse: 'ok-text' });
  try {
    const dialed = await rig.invoke('calls.dial', { target: '+49 30 1234567' });
    expect(dialed).toMatchObject({ ok: true, value: { call: { state: 'dialing' } } });
    const simCall = (await control.calls()).filter((each) => each.to === '+49301234567').at(-1);
    expect(simCall?.state).toBe('ringing');
    await rig.value('calls.hangup');
  } finally {
    await control.updateConfig({ callControlResponse: 'empty' });
  }
});

it('hangs up the user’s own leg first when the events came last first and twice', async () => {
  const incoming = await control.incomingCall({
    tenant_id: sim.tenant_id,
    user_extension: sim.users[0]!.extension,
    from: '+12025550199',
  });
  await control.webhooksSettled(20_000);
  const [caller, callee] = incoming.legs;
  const call = await until('the call with both legs', async () =>
    (await snapshot()).current.find((each) => each.leg_ids.length === 2),
  );
  // They arrived last first: the user's (callee) leg before the caller's.
  expect(call.leg_ids).toEqual([callee!.id, caller!.id]);

  await rig.value<CallsSnapshot>('calls.hangup', { call_id: call.id });
  const hangups = (await control.requests()).filter(
    (request) =>
      request.path === '/v3/call_control/' && JSON.stringify(request.body).includes('hangup'),
  );
  // One hangup, of the user's own leg: no 403 for the caller's.
  expect(hangups).toHaveLength(1);
  expect(hangups[0]).toMatchObject({ status: 204, body: { payload: { call_leg_id: callee!.id } } });
  expect((await control.getCall(incoming.id)).state).toBe('ended');
});

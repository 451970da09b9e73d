/**
 * Forged legs during a real call, under `minimal` ({id}-only events): while the user's dial rings
 * their phone, the simulator's hostile behaviour posts 8,000 unknown leg ids to the Webhook URL,
 * with its headers, as the platform posts (a platform that relays anything, or a forger who
 * learnt them).
 * Before the attribution rule all 8,000 joined the call and Hang up tried them first (403s, then
 * 429) while the real call stayed up. Now at most the rule's handful join, Hang up sends one
 * request (the user's own leg) and the call ends at the simulator.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_EVENTS_GUARD_MS, SimControl } from '../../simulator/control-client';
import type { RunningSimulator } from '../../simulator/index';
import { DEFAULT_CALL_LIMITS } from '../../src-main/core/calls/call-tracker';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { CallsSnapshot } from '../../src-shared/contract';
import { startSim } from '../support/sim-harness';
import { until } from '../support/until';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';

// The flood's wait (HOSTILE_EVENTS_GUARD_MS) and a minute for the rest of the test.
vi.setConfig({ testTimeout: HOSTILE_EVENTS_GUARD_MS + 60_000 });

const FORGED = 8000;

describe('forged legs during a call', () => {
  let sim: RunningSimulator;
  let rig: ConnectedCore;

  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });

  it(`${FORGED} unknown legs cannot take over the user's call`, async () => {
    const control = new SimControl(sim.base_url);
    const snapshot = async () => {
      const result = await rig.invoke('calls.list');
      if (!result.ok) throw new Error(result.error.message);
      return result.value as CallsSnapshot;
    };
    const dialed = await rig.invoke('calls.dial', { target: '+49 30 1234567' });
    if (!dialed.ok) throw new Error(dialed.error.message);
    const { call } = dialed.value as { call: { id: string } };
    const simCall = await until('the simulator call', async () => (await control.calls())[0]);
    const ownLeg = simCall.legs[0]!.id;
    await until('the own leg', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(ownLeg) ? true : undefined,
    );

    await control.hostileEvents({
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      kind: 'forged-legs',
      count: FORGED,
    });
    const accepted = (await control.hostileEventsDone()).statuses['200'] ?? 0;
    const during = await snapshot();
    const mine = during.current.find((each) => each.id === call.id);
    const attached = mine?.leg_ids.filter((id) => id.startsWith('leg_forged_')).length ?? 0;
    const phantom = [...during.current, ...during.recent].filter((each) => each.id !== call.id);
    const phantomLegs = phantom.reduce((sum, each) => sum + each.leg_ids.length, 0);

    await control.clearRequests();
    const hungUp = await rig.invoke('calls.hangup', { call_id: call.id });
    const hangups = (await control.requests()).filter(
      (request) =>
        request.path === '/v3/call_control/' && JSON.stringify(request.body).includes('hangup'),
    );
    const ended = (await control.getCall(simCall.id)).state === 'ended';

    recordFigure(
      `forged legs: ${FORGED} unknown leg ids during a dial (minimal, ${accepted} taken by the receiver)`,
      `${attached} joined the call (rule: ≤ ${DEFAULT_CALL_LIMITS.guessedLegs} guessed legs within ${DEFAULT_CALL_LIMITS.attachWindowMs / 1000} s of its news); ${phantom.length} other calls with ${phantomLegs} legs; Hang up: ${hangups.length} request(s) [${hangups.map((request) => request.status).join(', ')}], the call ${ended ? 'ended' : 'still up'}`,
    );
    expect(mine?.leg_ids[0]).toBe(ownLeg);
    expect(attached).toBeLessThan(DEFAULT_CALL_LIMITS.guessedLegs);
    expect(phantom.length).toBeLessThan(DEFAULT_CALL_LIMITS.current);
    expect(hungUp.ok).toBe(true);
    expect(hangups).toHaveLength(1);
    expect(ended).toBe(true);
  });
});

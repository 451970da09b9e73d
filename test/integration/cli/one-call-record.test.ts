/**
 * One call, one record (issue 41, point 7): with the window open (a core whose receiver hears the
 * platform's events), `callbar dial` then `callbar hangup` on the same profile leave ONE record of
 * the call, with its legs and its end, in both processes: the window attaches the events' legs to
 * the CLI's dial instead of starting "a call to you" of its own, `hangup --json` no longer lists
 * the call as ringing, and the recent calls, their count and the export follow. Under every
 * simulator profile: the leg in the dial's answer (rich), or only in the events (minimal, variant).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { Call, CallsSnapshot, DialOutcome } from '../../../src-shared/contract';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbar } from '../../support/cli-process';
import { connectedCore, type ConnectedCore } from '../../support/hardening/connected-core';
import { advanceClock, describeJourney, profileEnv, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

describeJourney('one record per call, window and CLI on one profile', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let window: ConnectedCore;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-one-record-'));
    // The window: a core on the profile's keychain entry, its receiver registered for events.
    window = await connectedCore(sim, {
      dataDir,
      vault: openVault({ dataDir }),
      log: () => silentLogger,
    });
    const port = Number(new URL((await window.core.profile.account.listen()).origin).port);
    env = profileEnv(sim, dataDir, port);
  });
  afterAll(async () => {
    await window?.core.close();
    if (window) await openVault({ dataDir: window.dataDir }).clear();
    await sim?.close();
  });
  beforeEach(async () => {
    await advanceClock(sim, 61); // a fresh call-control rate-limit window
  });

  const windowCalls = async () => {
    const listed = await window.invoke('calls.list');
    if (!listed.ok) throw new Error(listed.error.message);
    return listed.value as CallsSnapshot;
  };
  const withLeg = (calls: Call[], leg: string) =>
    calls.filter((call) => call.leg_ids.includes(leg));

  it('callbar dial, then callbar hangup: one record, in the window and in the CLI', async () => {
    const dialed = await runCallbar(['dial', '+49 30 1234567', '--json'], env);
    expect(dialed.code).toBe(0);
    const outcome = JSON.parse(dialed.stdout) as Extract<DialOutcome, { status: 'dialing' }>;
    expect(outcome.status).toBe('dialing');
    const simCall = await until('the platform places the call', async () =>
      (await control.calls()).find((call) => call.to === '+49301234567' && call.state !== 'ended'),
    );
    const ownLeg = simCall.legs[0]!.id;

    // The window heard the platform's events: they are the CLI's dial's legs, not a new call.
    const seen = await until('the window attaches the leg to the dial', async () => {
      const snapshot = await windowCalls();
      return withLeg(snapshot.current, ownLeg).length > 0 ? snapshot : undefined;
    });
    expect(seen.current).toHaveLength(1);
    expect(seen.current[0]).toMatchObject({ id: outcome.call.id, source: 'cli' });

    const hangup = await runCallbar(['hangup', '--json'], env);
    expect(hangup.code).toBe(0);
    const after = JSON.parse(hangup.stdout) as CallsSnapshot;
    expect(after.current).toEqual([]);
    expect(withLeg(after.recent, ownLeg)).toHaveLength(1);
    expect((await control.getCall(simCall.id)).state).toBe('ended');

    // Once the platform's last events are in: still one record, ended, in both processes.
    const settled = await until('the window sees the end', async () => {
      const snapshot = await windowCalls();
      return snapshot.current.length === 0 && withLeg(snapshot.recent, ownLeg).length > 0
        ? snapshot
        : undefined;
    });
    expect(withLeg(settled.recent, ownLeg)).toHaveLength(1);
    expect(settled.recent.filter((call) => call.party.number === '+49301234567')).toHaveLength(1);
    const listed = JSON.parse((await runCallbar(['calls', '--json'], env)).stdout) as CallsSnapshot;
    expect(withLeg([...listed.current, ...listed.recent], ownLeg)).toHaveLength(1);
    expect(listed.recent[0]).toMatchObject({ id: outcome.call.id, state: 'ended' });
    const exported = await runCallbar(['calls', 'export'], env);
    expect(
      exported.stdout.split('\r\n').filter((line) => line.includes('+49301234567')),
    ).toHaveLength(1);
  });
});

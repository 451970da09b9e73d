/**
 * One call, one record (issue 41, point 7): with the window open (a core whose receiver hears the
 * platform's events), `callbar dial` then `callbar hangup` on the same profile leave ONE record of
 * the call, with its legs and its end, in both processes: the window attaches the events' legs to
 * the CLI's dial instead of starting "a call to you" of its own, `hangup --json` no longer lists
 * the call as ringing, and the recent calls, their count and the export follow. Under every
 * simulator profile: the leg in the dial's answer (rich), or only in the events (minimal, variant).
 * Also when the dial's answer is slow to reach the CLI (a busy computer, a slow platform): the
 * platform's first events reach the window seconds before the dial's record is in the call log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { Call, CallsSnapshot, DialOutcome } from '../../../src-shared/contract';
import { OTHER_DIAL_WAIT_MS } from '../../../src-main/core/calls/other-dial-wait';
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

  /** `callbar dial NUMBER`, then `callbar hangup`: one record of the call, everywhere. */
  const dialThenHangUp = async (number: string, e164: string) => {
    const dialed = await runCallbar(['dial', number, '--json'], env);
    expect(dialed.code).toBe(0);
    const outcome = JSON.parse(dialed.stdout) as Extract<DialOutcome, { status: 'dialing' }>;
    expect(outcome.status).toBe('dialing');
    const simCall = await until('the platform places the call', async () =>
      (await control.calls()).find((call) => call.to === e164 && call.state !== 'ended'),
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
    expect(settled.recent.filter((call) => call.party.number === e164)).toHaveLength(1);
    const listed = JSON.parse((await runCallbar(['calls', '--json'], env)).stdout) as CallsSnapshot;
    expect(withLeg([...listed.current, ...listed.recent], ownLeg)).toHaveLength(1);
    expect(listed.recent[0]).toMatchObject({ id: outcome.call.id, state: 'ended' });
    const exported = await runCallbar(['calls', 'export'], env);
    // The harness joins stdout's lines with \n (readline takes the CSV's \r\n as one break).
    expect(
      exported.stdout.split('\n').filter((line) => line.includes(e164)),
      `the export's lines of the call (exit ${exported.code}, stderr ${JSON.stringify(exported.stderr)}, stdout ${JSON.stringify(exported.stdout)})`,
    ).toHaveLength(1);
  };

  it('callbar dial, then callbar hangup: one record, in the window and in the CLI', async () => {
    await dialThenHangUp('+49 30 1234567', '+49301234567');
  });

  it('one record too when the dial is answered after its first events reached the window', async () => {
    // The platform places the call (its events reach the window at once) and answers the dial
    // later than the window used to wait for the dial's record (a busy computer, a slow platform).
    await control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      match: 'exact',
      delay_ms: OTHER_DIAL_WAIT_MS + 1500,
      when: 'after',
      count: 1,
    });
    await dialThenHangUp('+49 30 7654321', '+49307654321');
  });
});

/**
 * An event flood at the receiver while the user is on a call: 3,600 events of 15 KB (just under
 * the size the receiver takes) for 120 calls nobody placed, 30 each (all the log kept of a call),
 * posted by the simulator's hostile behaviour to the Webhook URL with its headers, 16 at a time.
 * Before the bounds this made a 53 MB calls.json and about 1 GB of RSS. Now the call log stays
 * within its byte cap, memory within a few MiB, the excess is dropped and said once (plus one
 * summary), and the user's call can still be hung up.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_EVENTS_GUARD_MS, SimControl } from '../../simulator/control-client';
import type { RunningSimulator } from '../../simulator/index';
import { MAX_BODY_BYTES } from '../../src-main/core/account/receiver';
import { MAX_CALL_LOG_BYTES } from '../../src-main/core/calls/call-log';
import { SUMMARY_INTERVAL_MS } from '../../src-main/core/log/summarized-warnings';
import type { CallsSnapshot } from '../../src-shared/contract';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { capturingLogger, startSim } from '../support/sim-harness';
import { until } from '../support/until';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';
import { heapMiB, rssMiB } from '../support/hardening/heap';

// The flood's wait (HOSTILE_EVENTS_GUARD_MS) and a minute for the rest of the test.
vi.setConfig({ testTimeout: HOSTILE_EVENTS_GUARD_MS + 60_000 });

/** As many calls as the log keeps (100 recent, 20 current), each with the events a call keeps. */
const CALLS = 120;
const EVENTS = CALLS * 30;

describe('an event flood', () => {
  let sim: RunningSimulator;
  let rig: ConnectedCore;
  let closed = false;
  const { log, lines } = capturingLogger();

  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => log });
  });
  afterAll(async () => {
    if (!closed) await rig?.core.close();
    await sim?.close();
  });

  it(`${EVENTS} events of 15 KB leave bounded disk and memory, logged once`, async () => {
    const control = new SimControl(sim.base_url);
    const dialed = await rig.invoke('calls.dial', { target: '+49 30 1234567' });
    if (!dialed.ok) throw new Error(dialed.error.message);
    const { call } = dialed.value as { call: { id: string } };
    const simCall = await until('the simulator call', async () => (await control.calls())[0]);
    const ownLeg = simCall.legs[0]!.id;
    const snapshot = async () => {
      const result = await rig.invoke('calls.list');
      if (!result.ok) throw new Error(result.error.message);
      return result.value as CallsSnapshot;
    };
    await until('the own leg', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(ownLeg) ? true : undefined,
    );

    const heapBefore = heapMiB();
    const rssBefore = rssMiB();
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB())), 50);
    const started = performance.now();
    await control.hostileEvents({
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      kind: 'flood',
      count: EVENTS,
      calls: CALLS,
      pad_bytes: MAX_BODY_BYTES - 1024,
    });
    const accepted = (await control.hostileEventsDone()).statuses['200'] ?? 0;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const heapGrowth = heapMiB() - heapBefore;
    const rssGrowth = Math.max(peakRss, rssMiB()) - rssBefore;

    const after = await snapshot();
    const mine = after.current.find((each) => each.id === call.id);
    const calls = after.current.length + after.recent.length;
    const hungUp = await rig.invoke('calls.hangup', { call_id: call.id });
    const ended = (await control.getCall(simCall.id)).state === 'ended';

    closed = true;
    await rig.core.close(); // flushes the call log and the summary of what was dropped
    const spannedMs = performance.now() - started;
    const bytes = statSync(join(rig.dataDir, 'calls.json')).size;
    const dropped = lines.filter((line) => line.includes('dropped'));
    const summarized = dropped
      .map((line) => JSON.parse(line) as { count?: number })
      .reduce((sum, line) => sum + (line.count ?? 1), 0);

    recordFigure(
      `event flood: ${EVENTS} events of 15 KB (${accepted} taken by the receiver, ${Math.round(EVENTS / seconds)}/s)`,
      `calls.json ${(bytes / 1024).toFixed(0)} KiB (cap ${MAX_CALL_LOG_BYTES / 1024} KiB), ${calls} calls, heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MiB, peak RSS +${rssGrowth.toFixed(0)} MiB, ${summarized} dropped in ${dropped.length} log lines, the call ${ended ? 'hung up' : 'still up'}`,
    );
    expect(mine?.leg_ids[0]).toBe(ownLeg);
    expect(hungUp.ok).toBe(true);
    expect(ended).toBe(true);
    expect(bytes).toBeLessThanOrEqual(MAX_CALL_LOG_BYTES);
    expect(heapGrowth).toBeLessThan(64);
    // Said at the first drop and then as one summary per interval, never per event: two lines for
    // each interval the flood spanned (one on a quiet machine, three or four on a loaded one).
    const intervals = Math.ceil(spannedMs / SUMMARY_INTERVAL_MS) + 1;
    expect(dropped.length).toBeLessThanOrEqual(2 * intervals);
    expect(dropped.length).toBeLessThan(EVENTS / 100);
    // Most of what the receiver took was dropped by the tracker's bounds (said in those lines).
    expect(summarized).toBeGreaterThanOrEqual(accepted / 2);
  });
});

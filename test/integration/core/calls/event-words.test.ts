/**
 * Call events whose words are names every JavaScript object has ("constructor", "toString",
 * "__proto__"), posted to the real receiver with everything the platform's deliveries carry: they
 * say nothing Callbar understands, like any other unknown word. Before, such a state was read as
 * a leg state (the object's own function), and the call log could no longer be saved: every call
 * after it, the user's dials too, was kept in this process's memory only (lost at the next start,
 * unseen by the CLI).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import { CallLogFile } from '../../../../src-main/core/calls/call-log';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import type { CallsSnapshot } from '../../../../src-shared/contract';
import { eventForger, type EventForger } from '../../../support/event-forger';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

let sim: RunningSimulator;
let control: SimControl;
let rig: ConnectedCore;
let forger: EventForger;

beforeAll(async () => {
  sim = await startSim({ profile: 'rich' });
  control = new SimControl(sim.base_url);
  rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
  forger = await eventForger(sim);
});
afterAll(async () => {
  forger?.close();
  await rig?.core.close();
  await sim?.close();
});

it('an event whose state or event is an object’s own name is an unknown word; the call log is still saved', async () => {
  const words = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
  for (const [index, word] of words.entries()) {
    const leg = `leg_word_${index}`;
    const from = `+4930123456${index}`;
    expect(await forger.post({ id: leg, direction: 'inbound', from, state: word })).toBe(200);
    expect(await forger.post({ id: leg, direction: 'inbound', from, event: word })).toBe(200);
  }
  const result = await rig.invoke('calls.dial', { target: '+1 202 555 0171' });
  expect(result).toMatchObject({ ok: true });
  const dialled = (result as { value: { call: { id: string } } }).value.call.id;
  await control.webhooksSettled(20_000);

  // Saved, as the profile's other processes (and the next start) read it.
  const saved = await until('the dial in the call log', () => {
    const log = new CallLogFile(rig.dataDir, silentLogger).read();
    return log.calls.some((record) => record.call.id === dialled) ? log : undefined;
  });
  const forged = saved.calls.filter((record) =>
    record.legs.some((leg) => leg.id.startsWith('leg_word_')),
  );
  expect(forged.length).toBeGreaterThan(0);
  for (const record of forged) {
    expect(record.call.state).toBe('in-progress');
    for (const leg of record.legs) expect(leg.state).toBeUndefined();
  }
  const shown = (await rig.invoke('calls.list')) as { ok: true; value: CallsSnapshot };
  expect(shown.value.current.map((call) => call.id)).toContain(dialled);
  await rig.invoke('calls.hangup', { call_id: dialled });
});

/**
 * Forged and hostile call events against a connected core, sent by the simulator's `hostile`
 * behaviour (simulator/hostile-deliveries.ts) as a local process or a broken platform would: without
 * the Webhook URL's secret, with a wrong one, and with the right one but nested 8,100 deep
 * (before the bound, such an event made every later `calls.list` and hangup answer `internal`
 * and stopped `calls.json` being saved), over 16 KiB, or with over-long fields. Measured: how
 * many were accepted, the status of each kind, and that the user's own call still lists, hangs
 * up and is saved afterwards. Under `minimal` (events carry only `id`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../simulator/control-client';
import { DEEP_EVENT_NESTING, type HostileEventKind } from '../../simulator/hostile-deliveries';
import type { RunningSimulator } from '../../simulator/index';
import type { CallsSnapshot } from '../../src-shared/contract';
import { createFileLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { startSim } from '../support/sim-harness';
import { until } from '../support/until';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';

const FORGED = 200;

describe('forged and hostile call events', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;
  let closed = false;

  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, {
      vault: new MemoryVault(),
      log: (dataDir) => createFileLogger(join(dataDir, 'callbar.log'), 'debug'),
    });
  });
  afterAll(async () => {
    if (!closed) await rig?.core.close();
    await sim?.close();
  });

  const user = () => ({ tenant_id: sim.tenant_id, user_extension: sim.users[0]!.extension });
  const snapshot = async () => {
    const answer = await rig.invoke('calls.list');
    if (!answer.ok) throw new Error(`calls.list answered ${answer.error.code}`);
    return answer.value as CallsSnapshot;
  };
  const legIds = async () => (await snapshot()).current.flatMap((call) => call.leg_ids);

  it('refuses them all, and the user’s call still lists, hangs up and is saved', async () => {
    expect((await rig.invoke('calls.dial', { target: '+49 30 1234567' })).ok).toBe(true);
    await until('the call at the simulator', async () =>
      (await control.calls()).length > 0 ? true : undefined,
    );
    await control.webhooksSettled(20_000);
    const ownLegs = await legIds();
    expect(ownLegs.length).toBeGreaterThan(0);

    const statuses: Partial<Record<HostileEventKind, number[]>> = {};
    for (const [kind, count] of [
      ['unauthenticated', FORGED],
      ['wrong-secret', FORGED],
      ['deep', 3],
      ['oversized', 3],
      ['long-fields', 3],
    ] as const) {
      const sent = await control.hostileDeliveries({ kind, count, ...user() });
      statuses[kind] = [...new Set(sent.map((delivery) => delivery.status ?? 0))];
      expect(sent.length).toBe(count);
    }
    expect(statuses).toEqual({
      unauthenticated: [403],
      'wrong-secret': [403],
      deep: [400],
      oversized: [413],
      'long-fields': [400],
    });
    // Nothing forged reached the tracker; every later request is answered.
    expect(await legIds()).toEqual(ownLegs);
    const hungUp = await rig.invoke('calls.hangup');
    expect(hungUp.ok, JSON.stringify(hungUp)).toBe(true);
    await control.webhooksSettled(20_000);
    expect((await snapshot()).current).toEqual([]);
    await rig.core.close();
    closed = true;
    const saved = readFileSync(join(rig.dataDir, 'calls.json'), 'utf8');
    expect(saved).toContain(ownLegs[0]);
    expect(saved).not.toContain('leg_hostile');

    // One refusal line, then summaries: never a line per forged request, never the secret.
    const log = readFileSync(join(rig.dataDir, 'callbar.log'), 'utf8');
    const refusalLines = log.split('\n').filter((line) => line.includes('receiver refused'));
    expect(refusalLines.length).toBeLessThan(10);
    const registration = await rig.core.profile.account.receiverRegistration();
    expect(log).not.toContain(registration.webhook_url.split('/').at(-1));

    recordFigure(
      'forged call events (no secret / wrong secret) accepted',
      `0 of ${FORGED * 2} (403 each); ${refusalLines.length} log lines`,
    );
    recordFigure(
      `hostile event nested ${DEEP_EVENT_NESTING.toLocaleString('en')} deep (16 KB)`,
      `refused 400 before parsing (limit 32 levels); calls.list and hangup answered after it`,
    );
    recordFigure(
      'event over 16 KiB / id over 256 chars or over 64 keys',
      `413 / 400; 0 reached the tracker`,
    );
  });
});

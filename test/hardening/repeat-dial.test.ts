/**
 * One click, one call, across the processes of a profile: several real `callbar dial 2200`
 * started at once (a double-click on a `tel:` link handled by a second instance, the app and a
 * terminal) place one call at the simulator, and every other one is refused in words. A round
 * after the repeat-dial guard's 2 s places the next call (the guard is no lasting block).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import { REPEAT_GUARD_MS } from '../../src-main/core/calls/dial-guard';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { runCallbar } from '../support/cli-process';
import { issuedSession, startSim } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const PROCESSES = 6;
const ROUNDS = 2;

describe('the repeat-dial guard across processes', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sim = await startSim();
    control = new SimControl(sim.base_url);
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-repeat-dial-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url };
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim?.close();
  });

  it(`${PROCESSES} \`callbar dial 2200\` at once place one call; the next round another`, async () => {
    const dialsSent = async () =>
      (await control.requests()).filter(
        (request) => request.method === 'POST' && request.path === '/v3/call_control/',
      ).length;
    const placed: number[] = [];
    const refusals = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, REPEAT_GUARD_MS));
      await control.advanceClock(61); // a fresh call-control rate-limit window
      const before = await dialsSent();
      const results = await Promise.all(
        Array.from({ length: PROCESSES }, () => runCallbar(['dial', '2200'], env)),
      );
      const ok = results.filter((result) => result.code === 0);
      for (const result of results.filter((each) => each.code !== 0)) {
        refusals.add(result.stderr.trim());
      }
      placed.push(ok.length);
      expect(ok).toHaveLength(1);
      expect(await dialsSent()).toBe(before + 1);
    }
    expect([...refusals]).toEqual([
      'callbar: Already calling Extension 2200: one click is one call. To call again, wait a moment.',
    ]);
    recordFigure(
      `${PROCESSES} \`callbar dial 2200\` of one profile started at once, ${ROUNDS} rounds ${REPEAT_GUARD_MS} ms apart`,
      `calls placed per round: ${placed.join(', ')}; the ${PROCESSES * ROUNDS - placed.reduce((a, b) => a + b, 0)} others refused ("already calling")`,
    );
  });
});

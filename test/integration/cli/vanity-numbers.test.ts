/**
 * Vanity numbers on (`vanity_numbers`): keypad letters are read only where they spell a vanity
 * number's word. Text around a number ("Tel. 030 1234567" pasted from a signature) or a
 * dialler's pause ("+49 30 1234567 p 12") read as keypad letters dialled a stranger: +49 8350
 * 301234567, +49 30 1234567712. `callbar dial` refuses them and the platform is asked nothing;
 * "+1 800 GOT JUNK" still dials. The CLI in the test's process, a throwaway profile whose
 * settings the window saved, the simulator over HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbarInProcess } from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import {
  advanceClock,
  issuedSession,
  profileEnv,
  registerProfile,
  requestLog,
  startSim,
} from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let sim: RunningSimulator;
let env: NodeJS.ProcessEnv;
let dataDir: string;

beforeAll(async () => {
  sim = await startSim({ contacts: 0 });
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-vanity-'));
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({ region: 'DE', vanity_numbers: true }),
  );
  await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
  env = profileEnv(sim, dataDir, await freePort());
  await registerProfile(sim, env);
});
afterAll(async () => {
  await openVault({ dataDir }).clear();
  rmSync(dataDir, { recursive: true, force: true });
  await sim?.close();
});

const dials = async () =>
  (await requestLog(sim)).filter(
    (entry) => entry.method === 'POST' && entry.path === '/v3/call_control/',
  );

it('refuses letters that spell no vanity word, and asks the platform nothing', async () => {
  for (const written of ['Tel. 030 1234567', '+49 30 1234567 p 12', '+49 30 123456 w 1']) {
    const refused = await runCallbarInProcess(['dial', written], env);
    expect(refused.code, written).not.toBe(0);
    expect(refused.stderr).toContain(
      `That is not a phone number: ${written} (it contains letters).`,
    );
  }
  expect(await dials()).toEqual([]);
});

it('still dials a vanity number', async () => {
  await advanceClock(sim, 61);
  const dialed = await runCallbarInProcess(['dial', '+1 800 GOT JUNK', '--json'], env);
  expect(dialed.code).toBe(0);
  const control = new SimControl(sim.base_url);
  const call = await until('the platform places the call', async () =>
    (await control.calls()).find((each) => each.to === '+18004685865'),
  );
  expect(call.to).toBe('+18004685865');
});

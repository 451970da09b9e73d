/**
 * Vanity numbers on (`vanity_numbers`): keypad letters are read only where they spell a vanity
 * number's word. Text around a number ("Tel. 030 1234567" pasted from a signature) or a
 * dialler's pause ("+49 30 1234567 p 12") read as keypad letters dialled a stranger: +49 8350
 * 301234567, +49 30 1234567712. `callbar dial` refuses a label and the platform is asked nothing;
 * a pause dials the number written before it and says which keys to press once the call is
 * answered, as a meeting invitation's link does; "+1 800 GOT JUNK" still dials. The CLI in the
 * test's process, a throwaway profile whose settings the window saved, the simulator over HTTP.
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
  for (const written of ['Tel. 030 1234567', '+4930123456 T']) {
    const refused = await runCallbarInProcess(['dial', written], env);
    expect(refused.code, written).not.toBe(0);
    expect(refused.stderr).toContain(
      `That is not a phone number: ${written} (it contains letters).`,
    );
  }
  expect(await dials()).toEqual([]);
});

it('dials the number before a pause, never the keys after it, and says which keys to press', async () => {
  // A meeting invitation's link (a raw # after the PIN), and a dialler's pause read with vanity
  // numbers on. Before, the link was refused ("the link has a query or fragment") and the pause
  // too ("it contains letters").
  for (const [written, number, keys] of [
    ['tel:+4969365067155,,81234567890#', '+4969365067155', '81234567890#'],
    ['+49 30 1234567 p 12', '+49301234567', '12'],
  ] as const) {
    await advanceClock(sim, 61);
    const dialed = await runCallbarInProcess(['dial', written, '--json'], env);
    expect(dialed.code, dialed.stderr).toBe(0);
    const target = (
      JSON.parse(dialed.stdout) as { target: { e164: string; post_dial: string; note: string } }
    ).target;
    expect(target).toMatchObject({ e164: number, post_dial: keys });
    expect(target.note).toContain(`press ${keys} on your phone’s keypad`);
    const sent = (await dials()).at(-1)!;
    expect((sent.body as { payload: { destination: string } }).payload.destination).toBe(number);
  }
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

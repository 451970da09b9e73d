/**
 * The speed-dial hijack of the emergency number, and risky links, through the real CLI against
 * the simulator (profile `minimal`): a coworker gives a shared contact speed dial 911 (the
 * contract allows 200–999); `callbar dial 911` must still dial 911, saying so; `tel:911` must ask
 * even with links set to dial without asking; a service-code link is refused; the dialling policy
 * refuses what it does not allow. `--json` carries the classification.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { SimControl } from '../../../../simulator/control-client';
import type { DialTarget } from '../../../../src-shared/contract';
import { REPEAT_GUARD_MS } from '../../../../src-main/core/calls/dial-guard';
import { openVault } from '../../../../src-main/core/vault/keytar-vault';
import {
  activateThroughCli,
  callbarInProcess,
  runCallbarInProcess,
} from '../../../support/cli-process';
import { freePort } from '../../../support/free-port';
import { until } from '../../../support/until';
import { advanceClock, profileEnv, registerReceiver, startSim } from '../../../support/sim-harness';
import { platformAs } from '../../../support/platform-as';

// Each step starts a CLI process (a second or more on a loaded machine).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

describe('emergency numbers and risky links (CLI, simulator minimal)', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  /** What the platform was asked to dial, in order. */
  const dialled = async () =>
    (await control.requests())
      .map((request) => request.body as { command?: string; payload?: { destination?: string } })
      .filter((body) => body?.command === 'click-to-dial')
      .map((body) => body.payload?.destination);
  /** Ends every call the simulator still has going, so the next dial starts clean. */
  const endCalls = async () => {
    for (const call of await control.calls()) {
      if (call.state !== 'ended') await control.endLeg(call.legs[0]!.id).catch(() => undefined);
    }
  };

  /** A coworker (another user of the tenant) adds a shared contact, as another client would. */
  async function coworkerAddsContact(speedDial: number) {
    const post = await platformAs(sim, sim.users[1]!.extension);
    const book = await post('/v3/phonebook/phonebook/', {
      description: 'Team',
      priority: 1,
      is_shared: true,
    });
    await post('/v3/phonebook/contact/', {
      phonebook: book.id,
      display_name: 'Mallory Speed',
      company: 'Coworkers Inc',
      number: '+1 202 555 0199',
      secondary_number: null,
      speed_dial: speedDial,
    });
  }

  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
    control = new SimControl(sim.base_url);
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-emergency-'));
    const port = await freePort();
    env = profileEnv(sim, dataDir, port);
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
    expect((await activateThroughCli(env, sim.users[0]!, [], callbarInProcess)).code).toBe(0);
    await coworkerAddsContact(911);
    expect((await runCallbarInProcess(['sync'], env)).code).toBe(0);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    await sim?.close();
  });
  beforeEach(async () => {
    await endCalls();
    await advanceClock(sim, 61); // a fresh call-control rate-limit window
  });

  it('the contact with speed dial 911 is in this computer’s directory', async () => {
    const found = await runCallbarInProcess(['search', 'Mallory', '--json'], env);
    expect(found.stdout).toContain('"speed_dial":911');
  });

  it('`callbar dial 911` dials 911, not the contact, and says why', async () => {
    const result = await runCallbarInProcess(['dial', '911', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout) as { status: string; target: DialTarget };
    expect(outcome.status).toBe('dialing');
    expect(outcome.target).toMatchObject({
      destination: '911',
      class: 'emergency',
      country: 'US',
      description: 'This is an emergency number in the United States: it calls emergency services.',
      note: 'Speed dial 911 (Mallory Speed) is also the emergency number: dialling 911 calls emergency services, not Mallory Speed.',
    });
    expect(outcome.target.contact).toBeUndefined();
    expect((await dialled()).at(-1)).toBe('911');
    expect(await dialled()).not.toContain('+12025550199');

    await endCalls();
    await advanceClock(sim, 61);
    // The same number again is a new click only after the profile's repeat-dial guard.
    await new Promise((resolve) => setTimeout(resolve, REPEAT_GUARD_MS));
    const text = await runCallbarInProcess(['dial', '911'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'This is an emergency number in the United States: it calls emergency services. Dials 911.',
    );
    expect(text.stdout).toContain('Note: Speed dial 911 (Mallory Speed) is also the emergency');
  });

  it('`tel:911` asks even with links set to dial without asking, and says it is emergency', async () => {
    const before = await dialled();
    const result = await runCallbarInProcess(['open-url', 'tel:911'], {
      ...env,
      CALLBAR_CONFIRM_WEB_LINKS: 'false',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'This is an emergency number in the United States: it calls emergency services. A link never dials such a number without asking you. There is nobody to ask here.',
    );
    expect(result.stderr).not.toContain('confirm_web_links');
    expect(await dialled()).toEqual(before);
  });

  it('a service-code link is refused; typed on the command line it dials, classified', async () => {
    const before = await dialled();
    const link = await runCallbarInProcess(['open-url', 'tel:*21*0301234567%23', '--json'], {
      ...env,
      CALLBAR_CONFIRM_WEB_LINKS: 'false',
    });
    expect(link.code).toBe(1);
    expect(JSON.parse(link.stdout)).toMatchObject({
      error: {
        code: 'link_refused',
        message: expect.stringMatching(/never dials a service code/) as string,
      },
    });
    expect(await dialled()).toEqual(before);

    const typed = await runCallbarInProcess(['dial', '*21*0301234567#', '--json'], env);
    expect(typed.code, typed.stderr).toBe(0);
    expect(JSON.parse(typed.stdout)).toMatchObject({
      target: { class: 'service-code', destination: '*21*0301234567#' },
    });
  });

  it('--json carries class, country and E.164; the policy refuses what it does not allow', async () => {
    const german = { ...env, CALLBAR_REGION: 'DE' };
    const premium = await runCallbarInProcess(['dial', '0900 1234567', '--json'], german);
    expect(premium.code, premium.stderr).toBe(0);
    expect(JSON.parse(premium.stdout)).toMatchObject({
      status: 'dialing',
      target: {
        class: 'premium-rate',
        country: 'DE',
        e164: '+499001234567',
        description: 'This is a premium-rate number in Germany: calls to it cost more.',
      },
    });
    const text = await runCallbarInProcess(['dial', '+44 20 7123 4567'], german);
    expect(text.stdout).toContain(
      'This is a number in the United Kingdom, not in your country. Dials +442071234567.',
    );

    await endCalls();
    await advanceClock(sim, 61);
    const before = await dialled();
    const refused = await runCallbarInProcess(['dial', '0900 1234567'], {
      ...german,
      CALLBAR_DIAL_ALLOWED_CLASSES: 'extension,national,international,toll-free',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Callbar is set not to dial premium-rate numbers');
    const abroad = await runCallbarInProcess(['dial', '+44 20 7123 4567'], {
      ...german,
      CALLBAR_DIAL_ALLOWED_COUNTRIES: 'FR,AT',
    });
    expect(abroad.code).toBe(1);
    expect(abroad.stderr).toContain('Callbar is set not to dial numbers in the United Kingdom');
    // Emergency numbers are always allowed.
    const emergency = await runCallbarInProcess(['dial', '112', '--json'], {
      ...german,
      CALLBAR_DIAL_ALLOWED_CLASSES: 'extension',
    });
    expect(emergency.code, emergency.stderr).toBe(0);
    expect(await dialled()).toEqual([...before, '112']);
    await until('the call to 112', async () =>
      (await control.calls()).find((call) => call.to === '112'),
    );
  });
});

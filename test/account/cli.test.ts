/**
 * `callbar activate --no-browser --json` and `callbar status --json` as a new user runs them,
 * against the simulator, with the real keychain (private Secret Service in CI), in a throwaway
 * data folder. Afterwards no file in the data folder contains a token.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { allOutput, callbar } from '../support/cli-process';
import { freePort } from '../support/free-port';
import { completePortalFlow, profileEnv, registerReceiver, startSim } from '../support/sim-harness';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('callbar CLI: activate, status, deactivate-local', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSim();
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-'));
    const port = await freePort();
    env = profileEnv(sim, dataDir, port);
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  it('status before activation: not connected, exit 3', async () => {
    const result = await allOutput(callbar(['status', '--json'], env));
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({ state: 'not-connected' });
  });

  it('activate --no-browser --json prints the link at once, then the final state', async () => {
    const run = callbar(['activate', '--no-browser', '--json'], env);
    const first = await run.lines.next();
    const { portal_link } = JSON.parse(first.value as string) as { portal_link: string };
    expect(portal_link.startsWith(`${sim.portal_url}/integrations/callbar/activate?`)).toBe(true);

    const user = sim.users[0]!;
    const portal = await completePortalFlow(portal_link, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(portal.status).toBe(303);
    const rest = await allOutput(run);
    expect(rest.code).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({
      state: 'connected',
      tenant_id: sim.tenant_id,
      user_extension: user.extension,
    });
  });

  it('status --json after a restart: restored from the keychain, never a token', async () => {
    const stored = (await openVault({ dataDir }).load())!;
    expect(stored.user_extension).toBe(sim.users[0]!.extension);
    const result = await allOutput(callbar(['status', '--json'], env));
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout) as Record<string, string>;
    expect(status).toMatchObject({ state: 'connected', tenant_id: sim.tenant_id });
    expect(Date.parse(status.access_token_expires_at!)).toBeGreaterThan(Date.now());
    for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
    const human = await allOutput(callbar(['status'], env));
    expect(human.stdout).toContain(`Connected as extension ${sim.users[0]!.extension}`);

    // Nothing in the data folder (settings, logs) holds a token or the client secret.
    for (const file of filesUnder(dataDir)) {
      const text = readFileSync(file, 'utf8');
      for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
        expect(text, file).not.toContain(secret);
      }
    }
  });

  it('deactivate-local forgets the session', async () => {
    const result = await allOutput(callbar(['deactivate-local'], env));
    expect(result.code).toBe(0);
    expect(await openVault({ dataDir }).load()).toBeUndefined();
    const status = await allOutput(callbar(['status', '--json'], env));
    expect(JSON.parse(status.stdout)).toEqual({ state: 'not-connected' });
  });

  it('activate times out with a clear message and exit 1', async () => {
    const result = await allOutput(callbar(['activate', '--no-browser', '--timeout', '0.2'], env));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No confirmation arrived from the portal in time');
  });

  it('a keychain that cannot be reached: clear error, exit 4, nothing written but the log', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'callbar-nokeyring-'));
    try {
      const result = await allOutput(
        callbar(['status'], {
          ...env,
          CALLBAR_DATA_DIR: emptyDir,
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(emptyDir, 'no-such-bus')}`,
        }),
      );
      expect(result.code).toBe(4);
      expect(result.stdout).toContain('keychain');
      expect(result.stdout).toContain('never stores tokens in a file');
      const files = filesUnder(emptyDir).map((file) => file.slice(emptyDir.length));
      expect(files).toEqual(['/logs/callbar.log']);
      expect(readFileSync(join(emptyDir, 'logs/callbar.log'), 'utf8')).toContain('keychain');
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  it('rejects bad usage with exit 2', async () => {
    expect((await allOutput(callbar(['dance'], env))).code).toBe(2);
    expect((await allOutput(callbar(['activate', '--timeout', 'soon'], env))).code).toBe(2);
  });
});

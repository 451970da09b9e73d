/**
 * `callbar activate --no-browser --json` and `callbar status --json` as a new user runs them,
 * against the simulator, with the real keychain (private Secret Service in CI), in a throwaway
 * data folder. Afterwards no file in the data folder contains a token.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { endedAttemptWarning } from '../../../src-main/core/account/account-service';
import { openLinkDoor } from '../../../src-main/core/desktop/link-door';
import type { DoorAnswer } from '../../../src-main/core/desktop/link-door-format';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import {
  allOutput,
  callbar,
  callbarInProcess,
  runCallbarInProcess,
  type CliRun,
} from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import {
  completePortalFlow,
  control,
  profileEnv,
  registerReceiver,
  requestLog,
  startSim,
} from '../../support/sim-harness';
import { filesUnder, profileText } from '../../support/files-under';

describe('callbar CLI: activate, status, deactivate-local', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    sim = await startSim();
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-'));
    port = await freePort();
    env = profileEnv(sim, dataDir, port);
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  /** The portal link an `activate --json` run printed first, answered as the first user. */
  async function answerPortal(run: CliRun, action: 'subscribe' | 'unsubscribe') {
    const first = await run.lines.next();
    const portalLink = (JSON.parse(first.value as string) as { portal_link: string }).portal_link;
    const user = sim.users[0]!;
    const portal = await completePortalFlow(portalLink, {
      username: user.username,
      password: user.password,
      action,
    });
    return { portalLink, portal };
  }
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  it('status before activation: not connected, exit 3', async () => {
    const result = await allOutput(callbar(['status', '--json'], env));
    expect(result.code).toBe(3);
    const reported = JSON.parse(result.stdout) as { receiver: { webhook_url: string } };
    // What to register with the platform: the Webhook URL ends in the profile's secret.
    expect(reported).toEqual({
      state: 'not-connected',
      receiver: {
        activation_url: `http://127.0.0.1:${port}/activate`,
        deactivation_url: `http://127.0.0.1:${port}/deactivate`,
        webhook_url: expect.stringMatching(
          new RegExp(`^http://127\\.0\\.0\\.1:${port}/events/[A-Za-z0-9_-]{32}$`),
        ) as unknown,
        headers: {},
        authentication: 'secret-url',
        accepts_unauthenticated: false,
      },
    });
    // Kept in the keychain: the same every time, and in no file of the profile.
    const again = JSON.parse(
      (await runCallbarInProcess(['status', '--json'], env)).stdout,
    ) as typeof reported;
    expect(again.receiver.webhook_url).toBe(reported.receiver.webhook_url);
    const secret = reported.receiver.webhook_url.split('/').at(-1)!;
    expect(profileText(dataDir)).not.toContain(secret);
  });

  it('status flags accept_unauthenticated_events, in text and --json', async () => {
    const open = { ...env, CALLBAR_ACCEPT_UNAUTHENTICATED_EVENTS: 'yes' };
    const human = await runCallbarInProcess(['status'], open);
    expect(human.stdout).toContain(
      'Warning: Callbar accepts call events without authentication (the setting accept_unauthenticated_events is on)',
    );
    expect(
      JSON.parse((await runCallbarInProcess(['status', '--json'], open)).stdout),
    ).toMatchObject({
      events_warning: expect.stringContaining('any program on this computer') as unknown,
      receiver: { accepts_unauthenticated: true },
    });
    expect((await runCallbarInProcess(['status'], env)).stdout).not.toContain('Warning');
  });

  it('activate --no-browser --json prints the link at once, then the final state; the landing page is served before it exits', async () => {
    const run = callbarInProcess(['activate', '--no-browser', '--json'], env);
    const { portalLink, portal } = await answerPortal(run, 'subscribe');
    expect(portalLink.startsWith(`${sim.portal_url}/integrations/callbar/activate?`)).toBe(true);
    expect(portal.status).toBe(303);
    // The browser follows the redirect to the receiver: the process is still there to answer.
    const landing = await fetch(portal.location!);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('Connected — you can close this tab');
    const rest = await allOutput(run);
    expect(rest.code).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({
      state: 'connected',
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
    });
  });

  it('status --json after a restart: restored from the keychain, never a token', async () => {
    const stored = (await openVault({ dataDir }).load())!;
    expect(stored.user_extension).toBe(sim.users[0]!.extension);
    const result = await allOutput(callbarInProcess(['status', '--json'], env));
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout) as Record<string, string>;
    expect(status).toMatchObject({ state: 'connected', tenant_id: sim.tenant_id });
    expect(Date.parse(status.access_token_expires_at!)).toBeGreaterThan(Date.now());
    for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
    const human = await allOutput(callbarInProcess(['status'], env));
    expect(human.stdout).toContain(`Connected as extension ${sim.users[0]!.extension}`);

    // Nothing in the data folder (settings, logs) holds a token or the client secret.
    for (const file of filesUnder(dataDir)) {
      const text = readFileSync(file, 'utf8');
      for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
        expect(text, file).not.toContain(secret);
      }
    }
  });

  it('status --check asks the platform: it answers and accepts the token', async () => {
    const human = await allOutput(callbarInProcess(['status'], env));
    expect(human.stdout).toContain("'callbar status --check' asks the platform");
    const checked = await allOutput(callbarInProcess(['status', '--check', '--json'], env));
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      state: 'connected',
      platform: { reachable: true, token_accepted: true },
    });
  });

  it('status --check against a platform that answers an expired token with 403: refreshed, accepted', async () => {
    // A DRF platform without an authentication challenge: 403 not_authenticated, not 401.
    await control(sim, 'PATCH', 'config', { authFailure: '403-not_authenticated' });
    await control(sim, 'POST', 'clock/advance', { seconds: 25 * 3600 }); // past the token's life
    await control(sim, 'DELETE', 'requests');
    try {
      const checked = await allOutput(callbarInProcess(['status', '--check', '--json'], env));
      expect(checked.code).toBe(0);
      expect(JSON.parse(checked.stdout)).toMatchObject({
        state: 'connected',
        platform: { reachable: true, token_accepted: true },
      });
      const log = (await requestLog(sim))
        .filter((entry) => entry.path.startsWith('/v3/'))
        .map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
      expect(log).toEqual([
        'GET /v3/phonebook/phonebook/ 403',
        'POST /v3/oauth/token/ 200',
        'GET /v3/phonebook/phonebook/ 200',
      ]);
    } finally {
      await control(sim, 'PATCH', 'config', { authFailure: 'challenge' });
    }
  });

  it('status --check tells a refused sign-in (403 token_not_valid) from a refused request (403 permission_denied)', async () => {
    const refusal = (code: string, detail: string) => ({
      method: 'GET',
      path: '/v3/phonebook/phonebook/',
      status: 403,
      body: { type: 'client_error', errors: [{ code, detail, attr: null }] },
    });
    await control(sim, 'POST', 'faults', refusal('token_not_valid', 'Token is expired.'));
    try {
      const refused = await allOutput(callbarInProcess(['status', '--check', '--json'], env));
      expect(refused.code).not.toBe(0);
      expect(JSON.parse(refused.stdout)).toMatchObject({
        platform: { reachable: true, token_accepted: false, error: { code: 'token_not_valid' } },
      });
      const human = await allOutput(callbarInProcess(['status', '--check'], env));
      expect(human.stdout).toContain('The platform did not accept Callbar’s sign-in');
      expect(human.stdout).not.toContain('accepts Callbar’s token');
    } finally {
      await control(sim, 'DELETE', 'faults');
    }
    await control(sim, 'POST', 'faults', {
      ...refusal('permission_denied', 'You do not have permission to perform this action.'),
      count: 1,
    });
    const accepted = await allOutput(callbarInProcess(['status', '--check'], env));
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(
      'The platform accepts Callbar’s token, but refuses to list phonebooks for it: You do not have permission to perform this action.',
    );
  });

  it('status --check with the platform down: connected here, unreachable there, exit 5', async () => {
    // The platform that issued the session cuts every connection. (Another CALLBAR_BASE_URL
    // would be another platform: the session is not used there at all.)
    await control(sim, 'POST', 'faults', { path: '/', match: 'prefix', reset: true });
    try {
      const result = await allOutput(callbarInProcess(['status', '--check'], env));
      expect(result.code).toBe(5);
      expect(result.stdout).toContain('Connected as extension');
      expect(result.stdout).toContain('could not reach the platform');
    } finally {
      await control(sim, 'DELETE', 'faults');
    }
  });

  it('activate when already connected says so and asks for --force', async () => {
    const result = await allOutput(callbarInProcess(['activate', '--no-browser'], env));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Connected as extension');
    expect(result.stderr).toContain("run 'callbar activate --force'");
    expect(result.stdout).not.toContain('/activate?');
  });

  it('activate --force, then Unsubscribe in the portal: the landing page says disconnected', async () => {
    const run = callbarInProcess(['activate', '--no-browser', '--force', '--json'], env);
    const { portal } = await answerPortal(run, 'unsubscribe');
    expect(portal.status).toBe(303);
    const landing = await fetch(portal.location!);
    expect(await landing.text()).toContain('Callbar is disconnected from this computer');
    const rest = await allOutput(run);
    expect(rest.code).toBe(1);
    expect(JSON.parse(rest.stdout)).toMatchObject({ error: { code: 'deactivated' } });
    expect(await openVault({ dataDir }).load()).toBeUndefined();

    // Connected again, for what follows.
    const again = callbarInProcess(['activate', '--no-browser', '--json'], env);
    await fetch((await answerPortal(again, 'subscribe')).portal.location!);
    expect((await allOutput(again)).code).toBe(0);
  });

  it('deactivate-local forgets the session; a second time there is nothing to forget', async () => {
    const result = await allOutput(callbarInProcess(['deactivate-local'], env));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Callbar forgot the session');
    // The portal's Unsubscribe cannot reach a CLI that is not waiting for it: said plainly.
    expect(result.stdout).toContain(
      'The platform integration stays active until you press Unsubscribe in the portal, and the portal reaches only a running Callbar',
    );
    expect(result.stdout).toContain(
      "run 'callbar activate' and press Unsubscribe (not Subscribe) in the portal it opens.",
    );
    expect(await openVault({ dataDir }).load()).toBeUndefined();
    const status = await allOutput(callbarInProcess(['status', '--json'], env));
    expect(JSON.parse(status.stdout)).toEqual({
      state: 'not-connected',
      receiver: expect.objectContaining({ authentication: 'secret-url' }) as unknown,
    });
    const twice = await allOutput(callbarInProcess(['deactivate-local'], env));
    expect(twice.code).toBe(0);
    expect(twice.stdout).toBe('Nothing to forget: Callbar has no session on this computer.');
  });

  it('not connected: a platform command names callbar activate, exit 3', async () => {
    const result = await allOutput(callbarInProcess(['dial', '+12025550188'], env));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Run 'callbar activate'");
  });

  it('activate with the platform down: exit 5 before any link', async () => {
    const closed = await freePort();
    const result = await allOutput(
      callbarInProcess(['activate', '--no-browser'], {
        ...env,
        CALLBAR_PORTAL_URL: `http://127.0.0.1:${closed}/portal`,
      }),
    );
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Callbar could not reach the platform (connection refused).');
    // The address is a detail, on a line of its own (issue 27).
    expect(result.stderr).toContain(`Details: No answer from http://127.0.0.1:${closed}`);
    expect(result.stderr).toContain('Check your network connection');
  });

  it('activate with a portal address that answers 404: says so, exit 5 before any link', async () => {
    // The simulator's portal lives under /portal: a wrong path there answers 404.
    const wrong = { ...env, CALLBAR_PORTAL_URL: `${sim.portal_url}al` };
    const result = await allOutput(callbarInProcess(['activate', '--no-browser'], wrong));
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'The portal address answers 404 (not found): check CALLBAR_PORTAL_URL (or portal_url in the settings), then try again.',
    );
    expect(result.stderr).toContain(`Details: ${sim.portal_url}al answered 404 (not found).`);
    expect(result.stderr).not.toContain('Check your network connection');
    const german = await runCallbarInProcess(['activate', '--no-browser'], {
      ...wrong,
      LANG: 'de_DE.UTF-8',
    });
    expect(german.code).toBe(5);
    expect(german.stdout).toBe('');
    expect(german.stderr).toContain(
      'Die Portaladresse antwortet mit 404 (nicht gefunden): Prüfen Sie CALLBAR_PORTAL_URL',
    );
    // status --check says the same of the platform, with exit 5.
    const check = await runCallbarInProcess(['status', '--check', '--json'], wrong);
    expect(check.code).toBe(5);
    const report = JSON.parse(check.stdout) as { platform: { reachable: boolean } };
    expect(report.platform).toMatchObject({
      reachable: false,
      error: { code: 'portal_not_found' },
    });
  });

  it('activate while Callbar runs on the profile: connect in its window, before anything else', async () => {
    // The running app (or the demo's window) holds the receiver the portal answers; the CLI
    // cannot take it, whatever it lacks besides (here the integrator's secret).
    const door = await openLinkDoor({
      dataDir,
      log: silentLogger,
      deliver: () => Promise.resolve<DoorAnswer>({ ok: true, status: 'dialing', display: '1' }),
    });
    const lacking = { ...env, CALLBAR_CLIENT_SECRET: undefined };
    const requests = (await requestLog(sim)).length;
    try {
      const result = await runCallbarInProcess(['activate', '--no-browser'], lacking);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        "Callbar is running with this profile (the app, or the demo's window) and receives the portal's answer itself: connect there with Connect…",
      );
      expect((await requestLog(sim)).length).toBe(requests);
    } finally {
      await door.close();
    }
    // Closed, it is no longer running: the CLI goes on to what it lacks.
    const after = await runCallbarInProcess(['activate', '--no-browser'], lacking);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('CALLBAR_CLIENT_SECRET');
  });

  it('activate times out with a clear message and exit 1', async () => {
    const result = await allOutput(
      callbarInProcess(['activate', '--no-browser', '--timeout', '0.2'], env),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No confirmation arrived from the portal in time');
    // The link it printed still works at the platform: the user is told not to use it.
    expect(result.stderr).toContain(endedAttemptWarning());
  });

  it('activate cancelled with Ctrl+C says the printed link must not be used any more', async () => {
    const run = callbar(['activate', '--no-browser', '--json'], env);
    const first = await run.lines.next();
    expect(JSON.parse(first.value as string)).toHaveProperty('portal_link');
    run.kill('SIGINT');
    const rest = await allOutput(run);
    // Ctrl+C's exit code, as for any command Ctrl+C stops.
    expect(rest.code).toBe(130);
    const { error } = JSON.parse(rest.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('activation_cancelled');
    expect(error.message).toBe(`Cancelled from the command line. ${endedAttemptWarning()}`);
  });

  it('activate without a usable keychain: exit 4 before any link, saying how to fix it', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'callbar-nokeyring-'));
    try {
      const result = await allOutput(
        callbar(['activate', '--no-browser'], {
          ...env,
          CALLBAR_DATA_DIR: emptyDir,
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(emptyDir, 'no-such-bus')}`,
        }),
      );
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('keychain');
      expect(result.stderr).toContain('then try again');
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
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
    expect((await allOutput(callbarInProcess(['activate', '--timeout', 'soon'], env))).code).toBe(
      2,
    );
  });
});

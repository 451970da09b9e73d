/**
 * Signed deliveries (issue 26, item 6): a platform that signs each call's body with an HMAC in a
 * header of its own (the simulator's registration option `signing`). Callbar verifies it when
 * CALLBAR_RECEIVER_HMAC and CALLBAR_RECEIVER_HMAC_SECRET are set; a refused activation call is
 * reported as refused, with the reason, by `callbar activate` and in the account status the
 * window's connect view shows, at once, instead of "No confirmation arrived" at the timeout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import {
  endedAttemptWarning,
  refusalHint,
} from '../../../../src-main/core/account/account-service';
import { openProfile } from '../../../../src-main/core/profile';
import { openVault } from '../../../../src-main/core/vault/keytar-vault';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { allOutput, callbarInProcess, type CliRun } from '../../../support/cli-process';
import { profileText } from '../../../support/files-under';
import { freePort } from '../../../support/free-port';
import {
  completePortalFlow,
  control,
  describeJourney,
  profileEnv,
  registerReceiver,
  startSim,
} from '../../../support/sim-harness';

const SECRET = 'platform-signing-secret-4f1c9e';
const SIGNING = { header: 'X-Signature', algorithm: 'sha256', secret: SECRET, prefix: 'sha256=' };
const REFUSED = "The platform's activation reached Callbar but was refused:";

describeJourney('signed deliveries', (profile) => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    sim = await startSim({ profile });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-signed-'));
    port = await freePort();
    env = {
      ...profileEnv(sim, dataDir, port),
      CALLBAR_RECEIVER_HMAC: 'header=X-Signature;algorithm=sha256;encoding=hex;prefix=sha256=',
      CALLBAR_RECEIVER_HMAC_SECRET: SECRET,
    };
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  /** Registers the receiver with `signing`, runs `activate`, and subscribes in the portal. */
  async function activateSigned(signing: object | null, extra: string[] = []): Promise<CliRun> {
    await control(sim, 'PUT', 'integrations/callbar', {
      activation_url: `http://127.0.0.1:${port}/activate`,
      deactivation_url: `http://127.0.0.1:${port}/deactivate`,
      signing,
    });
    const run = callbarInProcess(['activate', '--no-browser', '--json', ...extra], env);
    const first = await run.lines.next();
    const link = (JSON.parse(first.value as string) as { portal_link: string }).portal_link;
    const user = sim.users[0]!;
    const portal = await completePortalFlow(link, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    // The browser follows the portal's redirect to the landing page.
    if (portal.location) await fetch(portal.location).catch(() => undefined);
    return run;
  }

  it('a body signed with the configured secret is accepted: connected', async () => {
    const result = await allOutput(await activateSigned(SIGNING));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'connected' });
    await allOutput(callbarInProcess(['deactivate-local'], env));
  });

  it('a wrong signature: activate says the activation arrived and was refused, and why', async () => {
    const result = await allOutput(
      await activateSigned({ ...SIGNING, secret: 'another-secret-the-platform-has' }, [
        '--timeout',
        '4',
      ]),
    );
    // Said as it happened, while the attempt kept waiting for a fixed delivery.
    expect(result.stderr).toContain(`${REFUSED} The signature in X-Signature does not match`);
    expect(result.stderr).toContain(refusalHint());
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('activation_refused');
    expect(error.message).toBe(
      `${REFUSED} The signature in X-Signature does not match the body (check CALLBAR_RECEIVER_HMAC and its secret against the platform's). ${endedAttemptWarning()}`,
    );
    expect(error.message).not.toContain('No confirmation arrived');
    expect(await openVault({ dataDir }).load()).toBeUndefined();
    // The secret is in no file of the profile (the log included) and in no output.
    expect(profileText(dataDir)).not.toContain(SECRET);
    expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
  });

  it('an unsigned call is refused too, and the status the window shows says why', async () => {
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
    const account = openProfile({ env }).account;
    try {
      const started = await account.startActivation({ timeoutMs: 60_000 });
      const completion = started.completion.catch((error: unknown) => error);
      const user = sim.users[0]!;
      await completePortalFlow(started.portalLink, {
        username: user.username,
        password: user.password,
        action: 'subscribe',
      });
      // The window's connect view shows the status's message while it waits.
      expect(account.status()).toMatchObject({
        state: 'activating',
        message: `${REFUSED} The signature header X-Signature is missing. ${refusalHint()}`,
      });
      account.cancelActivation();
      await completion;
    } finally {
      await account.close();
    }
  });
});

it('sha1 in base64 with a prefix: the activation connects; the webhook URL is plain /events', async () => {
  const sim = await startSim();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'callbar-signed-'));
  const account = openProfile({
    env: {
      ...profileEnv(sim, dir, port),
      CALLBAR_RECEIVER_HMAC: 'header=X-Hub-Signature;algorithm=sha1;encoding=base64;prefix=sha1=',
      CALLBAR_RECEIVER_HMAC_SECRET: SECRET,
    },
    vault: new MemoryVault(),
  }).account;
  try {
    const registration = await account.receiverRegistration();
    expect(registration).toMatchObject({
      authentication: 'headers',
      webhook_url: `http://127.0.0.1:${port}/events`,
    });
    await control(sim, 'PUT', 'integrations/callbar', {
      activation_url: registration.activation_url,
      deactivation_url: registration.deactivation_url,
      signing: {
        header: 'X-Hub-Signature',
        algorithm: 'sha1',
        secret: SECRET,
        encoding: 'base64',
        prefix: 'sha1=',
      },
    });
    const started = await account.startActivation({ timeoutMs: 60_000 });
    const user = sim.users[0]!;
    await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    await expect(started.completion).resolves.toMatchObject({ state: 'connected' });
  } finally {
    await account.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a half-configured signature is refused with a sentence saying what to set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-signed-'));
  try {
    const result = await allOutput(
      callbarInProcess(['status'], {
        CALLBAR_DATA_DIR: dir,
        CALLBAR_RECEIVER_HMAC: 'header=X-Signature;algorithm=md5',
        CALLBAR_RECEIVER_HMAC_SECRET: SECRET,
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('CALLBAR_RECEIVER_HMAC has an unknown algorithm');
    expect(result.stderr).not.toContain(SECRET);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

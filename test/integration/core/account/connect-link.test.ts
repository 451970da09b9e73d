/**
 * The confirmation key never appears on a command line: the browser is started with a one-time
 * loopback address (`/connect/<nonce>`) that redirects to the portal link, and a second use of it
 * ends the attempt. Also: a platform implemented on Node (its fetch sends `sec-fetch-mode: cors`)
 * can activate Callbar.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { CallbarError } from '../../../../src-main/core/errors';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { openVault } from '../../../../src-main/core/vault/keytar-vault';
import { allOutput, callbar } from '../../../support/cli-process';
import { freePort } from '../../../support/free-port';
import {
  accountRig,
  capturingLogger,
  completePortalFlow,
  control,
  describeEachProfile,
  profileEnv,
  registerReceiver,
  startSim,
  type AccountRig,
} from '../../../support/sim-harness';

describeEachProfile('the one-time connect link', (profile) => {
  let sim: RunningSimulator;
  const rigs: AccountRig[] = [];
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterEach(async () => {
    for (const rig of rigs.splice(0)) await rig.account.close();
  });
  afterAll(() => sim.close());

  const rig = async () => {
    const made = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(made);
    return made;
  };

  it('leads to the portal once; opened twice, it ends the attempt and the key is dead', async () => {
    const { account } = await rig();
    const started = await account.startActivation();
    const outcome = started.completion.catch((error: unknown) => error);

    const first = await fetch(started.browserUrl, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(started.portalLink);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');

    const second = await fetch(started.browserUrl, { redirect: 'manual' });
    expect(second.status).toBe(400);
    expect(second.headers.get('location')).toBeNull();
    expect(await second.text()).toContain('opened twice');

    const error = await outcome;
    expect(error).toBeInstanceOf(CallbarError);
    expect(error).toMatchObject({ code: 'activation_link_reused' });
    expect((error as Error).message).toContain('Start connecting again');
    expect(account.status().state).toBe('not-connected');

    // Whoever took the portal link first cannot use it now: the receiver refuses the key.
    const user = sim.users[0]!;
    await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(account.status().state).toBe('not-connected');
    expect(account.tokens.session).toBeUndefined();
  });

  it('an unknown nonce leads nowhere and ends nothing', async () => {
    const { account, origin } = await rig();
    const started = await account.startActivation();
    started.completion.catch(() => undefined);
    const guess = await fetch(`${origin}/connect/not-the-nonce`, { redirect: 'manual' });
    expect(guess.status).toBe(400);
    expect(guess.headers.get('location')).toBeNull();
    expect(account.status().state).toBe('activating');
    const real = await fetch(started.browserUrl, { redirect: 'manual' });
    expect(real.status).toBe(303);
  });

  it('a request another web page caused (img, iframe, fetch) cannot spend the link', async () => {
    const { account } = await rig();
    const started = await account.startActivation();
    const outcome = started.completion.catch((error: unknown) => error);
    for (const site of ['cross-site', 'same-site', 'same-origin']) {
      const refused = await fetch(started.browserUrl, {
        redirect: 'manual',
        headers: { 'sec-fetch-site': site, 'sec-fetch-dest': 'image' },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('location')).toBeNull();
      expect(await refused.text()).toContain('not from a web page');
    }
    // The browser Callbar started (Sec-Fetch-Site: none) still gets its one use.
    const first = await fetch(started.browserUrl, {
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' },
    });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(started.portalLink);
    account.cancelActivation('test over');
    await outcome;
  });

  it('a platform written on Node (fetch sends sec-fetch-mode: cors) activates Callbar', async () => {
    const { account, origin } = await rig();
    const started = await account.startActivation();
    const key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
    const tokens = await control<{ access_token: string; refresh_token: string }>(
      sim,
      'POST',
      'tokens',
      { tenant_id: sim.tenant_id, user_extension: sim.users[1]!.extension },
    );
    // Node's own fetch, exactly as a platform on Node would call the Activation URL.
    const answer = await fetch(`${origin}/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tenant_id: sim.tenant_id,
        user_extension: sim.users[1]!.extension,
        confirmation_key: key,
        ...tokens,
      }),
    });
    expect(answer.status).toBe(200);
    expect(await started.completion).toMatchObject({
      state: 'connected',
      user_extension: sim.users[1]!.extension,
    });
  });
});

describeEachProfile('callbar activate with a browser', (profile) => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sim = await startSim({ profile });
    dir = mkdtempSync(join(tmpdir(), 'callbar-browser-'));
    const port = await freePort();
    env = profileEnv(sim, join(dir, 'profile'), port);
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await openVault({ dataDir: join(dir, 'profile') }).clear();
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it('starts the browser (a BROWSER stand-in) with an address that holds no confirmation key', async () => {
    const argvFile = join(dir, 'argv.txt');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${argvFile}'\n`);
    chmodSync(browser, 0o755);
    const run = callbar(['activate', '--json'], {
      ...env,
      BROWSER: browser,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
      XDG_CURRENT_DESKTOP: '',
    });
    const first = JSON.parse((await run.lines.next()).value as string) as { browser_url: string };
    let argv = '';
    for (let waited = 0; argv === '' && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      argv = (() => {
        try {
          return readFileSync(argvFile, 'utf8');
        } catch {
          return '';
        }
      })();
    }
    expect(argv.trim()).toBe(first.browser_url);
    expect(argv).not.toContain('confirmation_key');

    // The stand-in browser follows the address: once to the portal, where the user subscribes.
    const hop = await fetch(argv.trim(), { redirect: 'manual' });
    expect(hop.status).toBe(303);
    const portalLink = hop.headers.get('location')!;
    const key = new URL(portalLink).searchParams.get('confirmation_key')!;
    expect(key.length).toBeGreaterThanOrEqual(43);
    expect(argv).not.toContain(key);
    const user = sim.users[0]!;
    await completePortalFlow(portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    const rest = await allOutput(run);
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ state: 'connected' });
    expect(rest.stdout + rest.stderr).not.toContain(key);
  }, 120_000);
});

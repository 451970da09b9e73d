/**
 * What the fixed-port loopback design cannot prevent, measured against the simulator: a local user
 * who learns an attempt's confirmation key (the portal link) can complete the portal flow as
 * themselves, and Callbar accepts it, because the platform vouches for whoever signed in. What
 * Callbar does: the status (so the window's header and the CLI) names the connected extension and
 * tenant, and when the profile was connected to another account before, every view and every
 * `callbar status` says so until the user acknowledges it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../simulator/control-client';
import type { RunningSimulator } from '../../simulator/index';
import type { AccountStatus, CallbarEvent } from '../../src-shared/contract';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { freePort } from '../support/free-port';
import { completePortalFlow, profileEnv, registerReceiver, startSim } from '../support/sim-harness';
import { until } from '../support/until';
import { recordFigure } from '../support/hardening/figures';

describe('a confirmation key completed in the portal by another user', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let port: number;
  const cores: CallbarCore[] = [];

  beforeAll(async () => {
    sim = await startSim({ profile: 'rich' });
    control = new SimControl(sim.base_url);
    port = await freePort();
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });
  afterAll(() => sim?.close());

  /** The app's core on a fresh profile; what it opened in the browser and published. */
  async function openApp() {
    const opened: string[] = [];
    const events: CallbarEvent[] = [];
    const core = await startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-swapped-')), port),
        vault: new MemoryVault(),
        log: silentLogger,
      }),
      openUrl: (url) => {
        opened.push(url);
        return Promise.resolve();
      },
    });
    cores.push(core);
    core.events.subscribe((event) => events.push(event));
    await core.profile.account.listen();
    /** The window's Connect; the portal link behind the browser's one-time address. */
    const connect = async (): Promise<string> => {
      const before = opened.length;
      const answer = await core.router.invoke('account.connect', {});
      expect(answer.ok).toBe(true);
      const browserUrl = await until('the browser', () => Promise.resolve(opened[before]));
      const hop = await fetch(browserUrl, { redirect: 'manual' });
      return hop.headers.get('location')!;
    };
    /** Sign in to the portal as `userIndex` with `link` and press Subscribe. */
    const subscribe = async (link: string, userIndex: number) => {
      const user = sim.users[userIndex]!;
      return completePortalFlow(link, {
        username: user.username,
        password: user.password,
        action: 'subscribe',
      }).catch((error: unknown) => error);
    };
    const connectedAs = (extension: string) =>
      until(`connected as ${extension}`, () => {
        const status = core.profile.account.status();
        return Promise.resolve(
          status.state === 'connected' && status.user_extension === extension ? status : undefined,
        );
      });
    return { core, events, connect, subscribe, connectedAs };
  }

  it('is accepted; Callbar names the account, and says it is not the one before', async () => {
    const [alice, bob] = [sim.users[0]!, sim.users[1]!];
    const app = await openApp();
    await app.subscribe(await app.connect(), 0);
    await app.connectedAs(alice.extension);

    // Alice connects again (after Disconnect, or a session that ended); Bob has learned the link
    // (a screen, a shared terminal's scrollback of `activate --no-browser`) and is quicker.
    await app.core.router.invoke('account.forget', {});
    const link = await app.connect();
    await app.subscribe(link, 1);
    const swapped = await app.connectedAs(bob.extension);
    expect(swapped.tenant_id).toBe(sim.tenant_id);
    expect(swapped.account_switch).toMatchObject({ user_extension: alice.extension });
    // The window hears it with the status (account.changed), for its notice over every view.
    const told = app.events.some(
      (event) =>
        event.type === 'account.changed' &&
        event.status.account_switch?.user_extension === alice.extension,
    );
    expect(told).toBe(true);

    // Alice, following the same link afterwards, cannot take it back: the key was used.
    const retry = (await app.subscribe(link, 0)) as { status: number };
    expect(retry.status).toBe(502); // the portal's "Activation failed": the receiver said no
    const after: AccountStatus = app.core.profile.account.status();
    expect(after.user_extension).toBe(bob.extension);

    // What Bob gains: Alice's click-to-dial rings Bob's phone first, then the number she chose.
    const dialed = await app.core.router.invoke('calls.dial', { target: '+49 30 555 0101' });
    expect(dialed.ok).toBe(true);
    const call = await until('the call', async () =>
      (await control.calls()).find((each) => each.to === '+49305550101'),
    );
    const ringsFirst = call.legs[0]!.user_extension;
    expect(ringsFirst).toBe(bob.extension);

    recordFigure(
      'swapped account, profile connected before',
      `accepted as extension ${bob.extension}; status, header and every view say "${swapped.account_switch!.message.split('. ')[0]}." until acknowledged; the owner's later use of the link: refused by the receiver (single-use key), the portal shows Activation failed; her next dial rang extension ${ringsFirst} first`,
    );
  });

  it('on a profile never connected before, only the extension in the header shows it', async () => {
    const bob = sim.users[1]!;
    const app = await openApp();
    await app.subscribe(await app.connect(), 1);
    const status = await app.connectedAs(bob.extension);
    expect(status.account_switch).toBeUndefined();
    recordFigure(
      'swapped account, first connection of a profile',
      `accepted as extension ${bob.extension}; nothing to compare with: the header (every view) and 'callbar status' name extension ${bob.extension} (${status.tenant_id})`,
    );
  });
});

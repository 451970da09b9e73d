/**
 * What the fixed-port loopback design cannot prevent, measured against the simulator: a portal
 * link whose attempt has ended (timed out, cancelled) still works at the platform. While Callbar
 * listens, its receiver refuses the stale key and stores nothing; once nothing listens (the CLI
 * exited), whoever binds the port next receives the tokens. Callbar's part: refuse to start when
 * the port is held by someone else, and say that an ended link must not be used.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { endedAttemptWarning } from '../../src-main/core/account/account-service';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { CallbarError } from '../../src-main/core/errors';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { freePort } from '../support/free-port';
import { completePortalFlow, profileEnv, registerReceiver, startSim } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

describe('a stale portal link and a squatter on the receiver port', () => {
  let sim: RunningSimulator;
  let port: number;
  const vault = new MemoryVault();
  let squatter: Server | undefined;

  const openCore = async (): Promise<CallbarCore> =>
    startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-squatter-')), port),
        vault,
        log: silentLogger,
      }),
      openUrl: () => Promise.resolve(),
    });
  const subscribe = (portalLink: string) =>
    completePortalFlow(portalLink, {
      username: sim.users[0]!.username,
      password: sim.users[0]!.password,
      action: 'subscribe',
    }).catch((error: unknown) => error);

  beforeAll(async () => {
    sim = await startSim({ profile: 'rich' });
    port = await freePort();
    await registerReceiver(sim, `http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    squatter?.close();
    await sim?.close();
  });

  it('refuses an ended attempt while Callbar listens; a squatter after it exits gets the tokens', async () => {
    const core = await openCore();
    const started = await core.profile.account.startActivation();
    started.completion.catch(() => undefined);
    core.profile.account.cancelActivation('The test let the attempt end.');
    // The window (and the CLI's error) tell the user not to use that link any more.
    const warned = core.profile.account.status().message?.includes(endedAttemptWarning()) ?? false;
    expect(warned).toBe(true);
    await subscribe(started.portalLink);
    expect(await vault.load()).toBeUndefined();
    expect(core.profile.account.status().state).toBe('not-connected');

    // The same kind of link, but Callbar has exited (as the CLI does after a timed-out activate).
    const second = await core.profile.account.startActivation();
    second.completion.catch(() => undefined);
    core.profile.account.cancelActivation('The test let the attempt end.');
    await core.close();
    const received: string[] = [];
    squatter = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.end('OK');
      });
    });
    await new Promise<void>((listening) => squatter!.listen(port, '127.0.0.1', listening));
    await subscribe(second.portalLink);
    const squatterGotTokens = received.some((body) => body.includes('access_token'));

    // With the squatter still there, Callbar refuses to start its receiver rather than share.
    const again = await openCore();
    const refusal = await again.profile.account.listen().catch((error: unknown) => error);
    await again.close();
    expect(refusal).toBeInstanceOf(CallbarError);
    expect((refusal as CallbarError).code).toBe('receiver_port_in_use');
    expect(await vault.load()).toBeUndefined();

    recordFigure(
      'stale link, Callbar listening',
      'refused: nothing stored, state not-connected; the status warns not to use the link',
    );
    recordFigure(
      'stale link, Callbar exited, squatter on the port',
      squatterGotTokens
        ? 'the squatter received the tokens (platform-side limit, see README)'
        : 'the squatter received no tokens',
    );
    recordFigure('Callbar starting while the port is squatted', 'refuses: receiver_port_in_use');
  });
});

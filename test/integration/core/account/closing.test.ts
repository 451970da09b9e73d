/**
 * Closing never loses the session: core.close() (Electron's quit, the preview's stop, the CLI's
 * end or Ctrl+C) waits for a refresh's vault write in flight, gives up after its bound (saying so
 * in the log), and starts no refresh once closing began. A real simulator; the vault is a
 * MemoryVault whose writes wait for the test (the vault is not what is tested).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { TokenManager } from '../../../../src-main/core/account/token-manager';
import { startCore } from '../../../../src-main/core/callbar-core';
import { CallbarError } from '../../../../src-main/core/errors';
import { openProfile } from '../../../../src-main/core/profile';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { freePort } from '../../../support/free-port';
import { heldVault } from '../../../support/held-vault';
import { until } from '../../../support/until';
import {
  advanceClock,
  capturingLogger,
  control,
  countRequests,
  describeEachProfile,
  issuedSession,
  profileEnv,
  startSim,
} from '../../../support/sim-harness';

const TOKEN_PATH = '/v3/oauth/token/';

describeEachProfile('closing waits for the session write', (profile) => {
  let sim: RunningSimulator;
  let dataDir: string;
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-closing-'));
    await control(sim, 'DELETE', 'requests');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A session whose access token expired: the next platform request refreshes it. */
  const expiredSession = () => issuedSession(sim, sim.users[0]!, Date.now() - 60_000);

  it('core.close() returns only after the refreshed pair is in the vault', async () => {
    const inner = new MemoryVault({
      account: await issuedSession(sim, sim.users[0]!, Date.now() + 3600_000),
    });
    const held = heldVault(inner);
    const { log, lines } = capturingLogger();
    const core = await startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, dataDir, await freePort()),
        vault: held.vault,
        log,
      }),
      openUrl: () => Promise.resolve(),
    });
    // The first sync is over: nothing else of the core waits for the platform when it closes.
    await until('the first sync', () =>
      Promise.resolve(core.directory.status().state === 'ready' ? true : undefined),
    );
    const before = (await inner.load())!;
    // The platform's clock passes the token's expiry: the next request gets 401, then refreshes.
    await advanceClock(sim, 25 * 3600);
    held.hold();
    const listing = core.router.invoke('phonebooks.list', {});
    await held.started;
    // The platform has rotated the pair; the vault does not have it yet.
    expect(core.profile.account.tokens.saving).toBe(true);

    const closing = core.close().then(() => held.order.push('closed'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    held.release();
    await closing;
    expect(held.order).toEqual(['saved', 'closed']);
    const after = (await inner.load())!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(core.profile.account.tokens.saving).toBe(false);
    expect(lines.some((line) => line.includes('waited for the session to be stored'))).toBe(true);
    expect((await listing).ok).toBe(true);
  });

  it('closing gives up after its bound when the keychain never answers, and says so', async () => {
    const inner = new MemoryVault({ account: await expiredSession() });
    const held = heldVault(inner);
    const { log, lines } = capturingLogger();
    const tokens = new TokenManager({ vault: held.vault, log });
    await tokens.load();
    held.hold();
    const refresh = tokens.getAccessToken().catch((error: unknown) => error);
    await held.started;
    await tokens.close(200);
    expect(tokens.saving).toBe(true);
    expect(lines.some((line) => line.includes('gave up waiting for the session'))).toBe(true);
    held.release();
    expect(await refresh).toEqual(expect.any(String));
  });

  it('no refresh starts once closing began', async () => {
    const tokens = new TokenManager({
      vault: new MemoryVault({ account: await expiredSession() }),
      log: capturingLogger().log,
    });
    await tokens.load();
    await tokens.close();
    const error = await tokens.getAccessToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CallbarError);
    expect((error as CallbarError).code).toBe('closing');
    expect((error as CallbarError).message).toContain('closing');
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(0);
  });
});

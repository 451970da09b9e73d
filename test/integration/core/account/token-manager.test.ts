/**
 * The token lifecycle against the simulator's real token endpoint: single-flight refresh under a
 * storm, invalid_grant on reuse, one refresh + one retry on 401, and a network fault during
 * refresh. Refreshes are counted in the simulator's request log, not inferred.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { TokenManager } from '../../../../src-main/core/account/token-manager';
import { AccountService } from '../../../../src-main/core/account/account-service';
import { CallbarError } from '../../../../src-main/core/errors';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountSettings,
  capturingLogger,
  control,
  countRequests,
  describeEachProfile,
  issuedSession,
  refreshElsewhere,
  startSim,
} from '../../../support/sim-harness';

const TOKEN_PATH = '/v3/oauth/token/';
const PHONEBOOKS = '/v3/phonebook/phonebook/';

describeEachProfile('TokenManager against the simulator', (profile) => {
  let sim: RunningSimulator;
  let vault: MemoryVault;
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    vault = new MemoryVault();
    await control(sim, 'DELETE', 'faults');
    await control(sim, 'DELETE', 'requests');
  });

  /** A session issued by the platform, stored as if its access token expired at `expiresAt`. */
  const session = (expiresAt: number) => issuedSession(sim, sim.users[1]!, expiresAt);

  function manager(
    options: ConstructorParameters<typeof TokenManager>[0] extends infer O
      ? Partial<O>
      : never = {},
  ) {
    return new TokenManager({ vault, log: capturingLogger().log, ...options });
  }

  const listPhonebooks = (token: string) =>
    fetch(`${sim.base_url}${PHONEBOOKS}`, { headers: { authorization: `Bearer ${token}` } });

  it('50 concurrent callers with an expired token cause exactly one refresh and 50 successes', async () => {
    const tokens = manager();
    await tokens.adopt(await session(Date.now() - 1000));
    const old = (await vault.load())!;

    const responses = await Promise.all(
      Array.from({ length: 50 }, () => tokens.authorized(listPhonebooks, (r) => r.status === 401)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(1);
    const stored = (await vault.load())!;
    expect(stored.refresh_token).not.toBe(old.refresh_token);
    expect(stored.access_token).not.toBe(old.access_token);
    expect(stored.expires_at).toBeGreaterThan(Date.now() + 23 * 3600_000);
    tokens.dispose();
  });

  it('refreshes proactively within five minutes of expiry, and not before', async () => {
    const tokens = manager();
    await tokens.adopt(await session(Date.now() + 6 * 60_000));
    const first = await tokens.getAccessToken();
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(0);
    await tokens.adopt({ ...(await vault.load())!, expires_at: Date.now() + 4 * 60_000 });
    const second = await tokens.getAccessToken();
    expect(second).not.toBe(first);
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(1);
    tokens.dispose();
  });

  it('a reused refresh token moves to needs-activation, wipes the vault and does not retry', async () => {
    const account = new AccountService({
      settings: accountSettings(sim),
      clientSecret: sim.client_secret,
      vault,
      log: capturingLogger().log,
      tokenOptions: { backoff: { initialMs: 10, maxMs: 20 } },
    });
    const stale = await session(Date.now() - 1000);
    await vault.save(stale);
    await account.start();
    // Someone else (another copy of the tokens) uses the refresh token first.
    const elsewhere = await refreshElsewhere(sim, stale.refresh_token);
    expect(elsewhere.status).toBe(200);

    const states: string[] = [];
    account.onStatus((status) => states.push(status.state));
    const error = (await account.tokens.getAccessToken().catch((e: unknown) => e)) as CallbarError;
    expect(error).toBeInstanceOf(CallbarError);
    expect(error.code).toBe('needs_activation');
    expect(account.status()).toMatchObject({
      state: 'needs-activation',
      user_extension: stale.user_extension,
    });
    expect(states).toEqual(['needs-activation']);
    expect(await vault.load()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(2); // theirs and ours, no retry loop
    await expect(account.tokens.getAccessToken()).rejects.toMatchObject({
      code: 'needs_activation',
    });
    await account.close();
  });

  it('a 401 from the API causes one refresh and one retry', async () => {
    const tokens = manager();
    // The platform's clock runs ahead: the token it issued is expired there, not here.
    await tokens.adopt(await session(Date.now() + 12 * 3600_000));
    await control(sim, 'POST', 'clock/advance', { seconds: 25 * 3600 });
    try {
      const response = await tokens.authorized(listPhonebooks, (r) => r.status === 401);
      expect(response.status).toBe(200);
      const log = (
        await control<{ method: string; path: string; status: number }[]>(sim, 'GET', 'requests')
      )
        .filter((r) => r.path === PHONEBOOKS || r.path === TOKEN_PATH)
        .map((r) => `${r.method} ${r.path} ${r.status}`);
      expect(log).toEqual([
        `GET ${PHONEBOOKS} 401`,
        `POST ${TOKEN_PATH} 200`,
        `GET ${PHONEBOOKS} 200`,
      ]);
    } finally {
      await control(sim, 'POST', 'clock/advance', { seconds: -25 * 3600 });
      tokens.dispose();
    }
  });

  it('a network fault during refresh keeps the old pair, reports offline, then recovers', async () => {
    const states: string[] = [];
    const tokens = manager({ backoff: { initialMs: 20, maxMs: 40 } });
    tokens.onHealth((health) => states.push(health.kind));
    const original = await session(Date.now() + 60_000); // inside the margin, still valid
    await tokens.adopt(original);
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: TOKEN_PATH,
      reset: true,
      count: 2,
    });

    // The old token is still good, so callers keep working while the refresh fails.
    expect(await tokens.getAccessToken()).toBe(original.access_token);
    expect(tokens.health.kind).toBe('offline');
    expect((await vault.load())!.refresh_token).toBe(original.refresh_token);

    await vi.waitFor(
      () => {
        expect(tokens.health.kind).toBe('ok');
      },
      { timeout: 5000, interval: 20 },
    );
    const renewed = (await vault.load())!;
    expect(renewed.refresh_token).not.toBe(original.refresh_token);
    expect(await tokens.getAccessToken()).toBe(renewed.access_token);
    expect(states).toEqual(['offline', 'ok']);
    tokens.dispose();
  });

  it('an expired token during a network fault fails with offline, not a crash', async () => {
    const tokens = manager({ backoff: { initialMs: 10_000, maxMs: 10_000 } });
    await tokens.adopt(await session(Date.now() - 1000));
    await control(sim, 'POST', 'faults', { method: 'POST', path: TOKEN_PATH, reset: true });
    await expect(tokens.getAccessToken()).rejects.toMatchObject({ code: 'offline' });
    expect(tokens.health.kind).toBe('offline');
    tokens.dispose();
  });

  it('a keychain that fails after a refresh keeps the new pair in memory and saves it later', async () => {
    const tokens = manager();
    await tokens.adopt(await session(Date.now() - 1000));
    vault.unavailable = 'the keyring is locked';
    await expect(tokens.getAccessToken()).rejects.toMatchObject({ code: 'vault_unavailable' });
    expect(tokens.health.kind).toBe('vault-unavailable');
    vault.unavailable = false;
    const token = await tokens.getAccessToken();
    expect((await vault.load())!.access_token).toBe(token);
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(1);
    expect((await listPhonebooks(token)).status).toBe(200);
    tokens.dispose();
  });
});

/**
 * Clock jumps: the machine's clock (the token manager's wall clock) set forward or back against
 * the platform's (the simulator's), while the monotonic clock only counts real time. Whatever the
 * jump, one refresh at most when one is due, the request answered, no refresh loop, no session
 * lost.
 */
import { afterEach, beforeAll, afterAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { createPlatformApi, type PlatformApi } from '../../src-main/core/api/platform-api';
import { TokenManager } from '../../src-main/core/account/token-manager';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import {
  advanceClock,
  control,
  describeEachProfile,
  issuedSession,
  requestLog,
  startSim,
} from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const TOKEN_PATH = '/v3/oauth/token/';
const LIST_PATH = '/v3/phonebook/phonebook/';
const HOUR = 3600_000;

describeEachProfile('clock jumps', (profile) => {
  let sim: RunningSimulator;
  let vault: MemoryVault;
  let tokens: TokenManager;
  let api: PlatformApi;
  /** How far the machine's clock is off, and how much real time the test has let pass. */
  const clocks = { wallOffsetMs: 0, passedMs: 0 };

  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterAll(() => sim?.close());
  afterEach(() => tokens?.dispose());

  /** A connected process: a fresh session from the platform, in a fresh token manager. */
  const connect = async () => {
    clocks.wallOffsetMs = 0;
    clocks.passedMs = 0;
    await control(sim, 'DELETE', 'faults');
    vault = new MemoryVault({
      account: await issuedSession(sim, sim.users[0]!, Date.now() + 24 * HOUR),
    });
    tokens = new TokenManager({
      vault,
      log: silentLogger,
      now: () => Date.now() + clocks.wallOffsetMs + clocks.passedMs,
      monotonicNow: () => performance.now() + clocks.passedMs,
      // A failed refresh is retried by the next request here, not by a background timer.
      backoff: { initialMs: 10 * 60_000, maxMs: 10 * 60_000 },
      platformUrl: sim.base_url,
    });
    await tokens.load();
    api = createPlatformApi({
      baseUrl: sim.base_url,
      tokens,
      log: silentLogger,
      client: { retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 } },
    });
    await control(sim, 'DELETE', 'requests');
  };

  /** Real time passes: on the platform, the machine's clock and the monotonic clock alike. */
  const pass = async (ms: number) => {
    clocks.passedMs += ms;
    await advanceClock(sim, ms / 1000);
  };

  const counts = async () => {
    const log = await requestLog(sim);
    return {
      refreshes: log.filter((entry) => entry.path === TOKEN_PATH).length,
      rejected: log.filter((entry) => entry.path === LIST_PATH && entry.status === 401).length,
    };
  };

  const list = () => api.phonebooks.listPhonebooks();

  it('the platform says expired while the token looks valid here: one refresh, the request once more', async () => {
    await connect();
    const before = (await vault.load())!;
    await advanceClock(sim, 25 * 3600); // only the platform's clock
    await list();
    expect(await counts()).toEqual({ refreshes: 1, rejected: 1 });
    for (let i = 0; i < 5; i++) await list();
    expect(await counts()).toEqual({ refreshes: 1, rejected: 1 });
    expect((await vault.load())!.refresh_token).not.toBe(before.refresh_token);
    expect(tokens.health).toEqual({ kind: 'ok' });
  });

  it('the machine clock set two days forward: one early refresh, and while the platform cannot be reached the token still works', async () => {
    await connect();
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: TOKEN_PATH,
      status: 503,
      count: 1,
    });
    clocks.wallOffsetMs = 48 * HOUR;
    // The refresh fails, but the platform still takes the token it issued an instant ago.
    await list();
    expect(await counts()).toEqual({ refreshes: 1, rejected: 0 });
    expect(tokens.health.kind).toBe('offline');
    // Reachable again: the early refresh happens once, and no other follows.
    await list();
    for (let i = 0; i < 5; i++) await list();
    expect(await counts()).toEqual({ refreshes: 2, rejected: 0 });
    expect(tokens.health).toEqual({ kind: 'ok' });
    recordFigure(
      `clock two days forward (${profile})`,
      '1 refresh (after one the platform could not answer, meanwhile the token kept working), 0 rejected requests, session kept',
    );
  });

  it('the machine clock set a month back (the token "issued in the future"): no refresh loop, refreshed on time by the monotonic clock', async () => {
    await connect();
    const before = (await vault.load())!;
    clocks.wallOffsetMs = -30 * 24 * HOUR;
    for (let i = 0; i < 5; i++) await list();
    expect(await counts()).toEqual({ refreshes: 0, rejected: 0 });
    // A day passes: the wall clock thinks the token has a month left, the platform ends it now.
    await pass(24 * HOUR + 60_000);
    await list();
    for (let i = 0; i < 5; i++) await list();
    expect(await counts()).toEqual({ refreshes: 1, rejected: 0 });
    expect((await vault.load())!.refresh_token).not.toBe(before.refresh_token);
    expect(tokens.health).toEqual({ kind: 'ok' });
    recordFigure(
      `clock a month back (${profile})`,
      '0 refreshes while valid, 1 refresh on time after 24 h (monotonic clock), 0 rejected requests, session kept',
    );
  });
});

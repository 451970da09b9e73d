/**
 * Token managers that share one vault, as the processes of one profile do, against the
 * simulator's real token endpoint: the profile lock makes one refresh of them all; a refusal
 * (invalid_grant) re-reads the vault and adopts a pair someone else stored instead of wiping it;
 * a session that really ended is remembered by the marker for the next process.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { AccountService } from '../../../../src-main/core/account/account-service';
import { profileEndedMarker } from '../../../../src-main/core/account/session-ended-marker';
import { profileSessionLock } from '../../../../src-main/core/account/session-lock';
import { TokenManager } from '../../../../src-main/core/account/token-manager';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountSettings,
  capturingLogger,
  control,
  countRequests,
  describeEachProfile,
  issuedSession,
  refreshElsewhere,
  requestLog,
  startSim,
} from '../../../support/sim-harness';

const TOKEN_PATH = '/v3/oauth/token/';

describeEachProfile('token managers sharing one profile', (profile) => {
  let sim: RunningSimulator;
  let vault: MemoryVault;
  let dataDir: string;
  const managers: TokenManager[] = [];
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    vault = new MemoryVault();
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-coord-'));
    await control(sim, 'DELETE', 'faults');
    await control(sim, 'DELETE', 'requests');
  });
  afterEach(() => {
    for (const manager of managers.splice(0)) manager.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const { log } = capturingLogger();
  /** A manager as one process of the profile has it; `locked: false` plays a process without the lock. */
  const manager = (locked = true) => {
    const made = new TokenManager({
      vault,
      log,
      endedMarker: profileEndedMarker(dataDir, log),
      ...(locked ? { lock: profileSessionLock(dataDir, { log }) } : {}),
    });
    managers.push(made);
    return made;
  };
  const expiredSession = () => issuedSession(sim, sim.users[1]!, Date.now() - 1000);

  it('three managers, 30 concurrent callers after expiry: one refresh, one pair for all', async () => {
    await vault.save(await expiredSession());
    const group = [manager(), manager(), manager()];
    for (const tokens of group) await tokens.load();
    const tokens = await Promise.all(
      Array.from({ length: 30 }, (_, index) => group[index % 3]!.getAccessToken()),
    );
    expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(1);
    const stored = (await vault.load())!;
    expect(new Set(tokens)).toEqual(new Set([stored.access_token]));
  });

  it('invalid_grant with another pair in the vault by then: adopted, nothing wiped', async () => {
    const stale = await expiredSession();
    await vault.save(stale);
    // Two processes without a common lock (the case the lock exists for, handled anyway).
    const [first, second] = [manager(false), manager(false)];
    await first.load();
    await second.load();
    // The second's refresh reaches the platform, then waits there before it is processed…
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: TOKEN_PATH,
      delay_ms: 3000,
      count: 1,
    });
    const late = second.getAccessToken();
    await vi.waitFor(
      async () => {
        expect(await control<unknown[]>(sim, 'GET', 'faults')).toEqual([]);
      },
      { timeout: 30_000, interval: 25 },
    );
    // …while the first refreshes with the same refresh token and stores the new pair.
    const winner = await first.getAccessToken();

    const adopted = await late;
    const stored = (await vault.load())!;
    expect(stored.refresh_token).not.toBe(stale.refresh_token);
    expect(adopted).toBe(stored.access_token);
    expect(winner).toBe(stored.access_token);
    expect(second.health.kind).toBe('ok');
    expect(existsSync(join(dataDir, 'session-ended.json'))).toBe(false);
    const refreshes = (await requestLog(sim)).filter((entry) => entry.path === TOKEN_PATH);
    expect(refreshes.map((entry) => entry.status).sort()).toEqual([200, 400]);
  });

  it('a session that ended is remembered by the next process until it connects again', async () => {
    const stale = await expiredSession();
    await vault.save(stale);
    // The refresh token is spent elsewhere (another copy of the tokens, never stored here).
    await control(sim, 'DELETE', 'requests');
    const spent = await refreshElsewhere(sim, stale.refresh_token);
    expect(spent.status).toBe(200);

    const service = () =>
      new AccountService({
        settings: accountSettings(sim),
        clientSecret: sim.client_secret,
        vault,
        log,
        coordination: {
          lock: profileSessionLock(dataDir, { log }),
          endedMarker: profileEndedMarker(dataDir, log),
        },
      });
    const first = service();
    await first.start();
    await expect(first.tokens.getAccessToken()).rejects.toMatchObject({
      code: 'needs_activation',
    });
    await first.close();
    expect(await vault.load()).toBeUndefined();

    const next = service();
    expect(await next.start()).toMatchObject({
      state: 'needs-activation',
      tenant_id: stale.tenant_id,
      user_extension: stale.user_extension,
      message: expect.stringContaining('session has ended') as unknown,
    });
    await expect(next.tokens.getAccessToken()).rejects.toMatchObject({
      code: 'needs_activation',
    });
    // A new activation (here: adopting a new pair) clears it for everyone.
    await next.tokens.adopt(await issuedSession(sim, sim.users[1]!));
    expect(next.status().state).toBe('connected');
    expect(existsSync(join(dataDir, 'session-ended.json'))).toBe(false);
    await next.close();
    const third = service();
    expect((await third.start()).state).toBe('connected');
    await third.close();
  });

  it('forgetting the session: a read of the keychain before it is cleared does not bring it back', async () => {
    await vault.save(await issuedSession(sim, sim.users[1]!));
    const tokens = manager();
    await tokens.load();
    // The keychain takes its time to clear (a loaded machine, a relay device kept aside first),
    // and meanwhile this process's folder watch tells it of its own lock (followVault).
    const clear = vault.clear.bind(vault);
    let clearing!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => (clearing = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    vault.clear = async () => {
      clearing();
      await released;
      await clear();
    };
    const forgetting = tokens.forget();
    await entered;
    // Told now, it reads the vault once the forget is done (not the session being forgotten).
    const following = tokens.followVault();
    release();
    await forgetting;
    expect(await following).toBe(false);
    // Before, the read adopted the session being forgotten: "connected" with it, and in relay
    // mode its device streamed again and never removed at the relay.
    expect(tokens.session).toBeUndefined();
    expect(await vault.load()).toBeUndefined();
    expect(await tokens.followVault()).toBe(false);
    expect(tokens.session).toBeUndefined();
  });

  it('told of another pair while it stores its own, it reads the keychain once its own is stored', async () => {
    await vault.save(await issuedSession(sim, sim.users[1]!));
    const tokens = manager();
    await tokens.load();
    const own = await issuedSession(sim, sim.users[1]!);
    const other = await issuedSession(sim, sim.users[1]!);
    const save = vault.save.bind(vault);
    let saving!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => (saving = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    vault.save = async (account) => {
      saving();
      await released;
      await save(account);
      // Another process of the profile took the lock next and stored the pair it was issued.
      await save(other);
    };
    const adopting = tokens.adopt(own);
    await entered;
    // The folder watch tells this process of the other's lock while its own write is under way.
    const following = tokens.followVault();
    release();
    await adopting;
    // Before, the change was skipped (this process was busy) and the other's pair never used.
    expect(await following).toBe(true);
    expect(await tokens.getAccessToken()).toBe(other.access_token);
  });
});

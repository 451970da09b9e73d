/**
 * A connection to a different account than the one this profile used before is said in the
 * status (so in the window and the CLI) until acknowledged; the record behind it is non-secret,
 * owner-only and read by every process of the profile. Real simulator, real portal flow.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { profileAccountHistory } from '../../../../src-main/core/account/account-history';
import { AccountService } from '../../../../src-main/core/account/account-service';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountSettings,
  completePortalFlow,
  issuedSession,
  registerReceiver,
  startSim,
} from '../../../support/sim-harness';

describe('a connection to a different account than before', () => {
  let sim: RunningSimulator;
  let dataDir: string;
  let vault: MemoryVault;
  const open: AccountService[] = [];

  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.close());
  afterEach(async () => {
    for (const account of open.splice(0)) await account.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One process of the profile in `dataDir` (same vault, same record file). */
  async function process(): Promise<AccountService> {
    const account = new AccountService({
      settings: accountSettings(sim),
      clientSecret: sim.client_secret,
      vault,
      log: silentLogger,
      history: profileAccountHistory(dataDir, silentLogger),
    });
    open.push(account);
    await account.start();
    const receiver = await account.listen();
    await registerReceiver(sim, receiver.origin);
    return account;
  }

  /** An attempt of `account`, completed in the portal by `userIndex` (whoever holds the link). */
  async function connectAs(account: AccountService, userIndex: number) {
    const started = await account.startActivation();
    const user = sim.users[userIndex]!;
    await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    return started.completion;
  }

  const fresh = () => {
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-switch-'));
    vault = new MemoryVault();
  };

  it('says it after another user completes the flow, in every process, until acknowledged', async () => {
    fresh();
    const [alice, bob] = [sim.users[0]!, sim.users[1]!];
    const first = await process();
    const connected = await connectAs(first, 0);
    expect(connected).toMatchObject({ state: 'connected', user_extension: alice.extension });
    expect(connected.account_switch).toBeUndefined();

    // Someone who learned the next attempt's key signs in to the portal as Bob.
    const swapped = await connectAs(first, 1);
    expect(swapped).toMatchObject({
      state: 'connected',
      user_extension: bob.extension,
      account_switch: { tenant_id: sim.tenant_id, user_extension: alice.extension },
    });
    expect(swapped.account_switch!.message).toBe(
      `Callbar is now connected to extension ${bob.extension} (${sim.tenant_id}), not to extension ${alice.extension} as before. If you did not connect it to this account yourself, disconnect Callbar and connect it again.`,
    );

    // The record is non-secret and owner-only.
    const file = join(dataDir, 'last-account.json');
    const stored = (await vault.load())!;
    const text = readFileSync(file, 'utf8');
    for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
      expect(text).not.toContain(secret);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Another process of the profile (the CLI's status) says the same.
    await first.close();
    const second = await process();
    expect(second.status().account_switch?.user_extension).toBe(alice.extension);

    // Acknowledged (the window's notice): no process says it any more.
    const acknowledged = await second.acknowledgeSwitch();
    expect(acknowledged).toMatchObject({ state: 'connected', user_extension: bob.extension });
    expect(acknowledged.account_switch).toBeUndefined();
    await second.close();
    expect((await process()).status().account_switch).toBeUndefined();
  });

  it('reconnecting the same account, or the first connection of a profile, says nothing', async () => {
    fresh();
    const account = await process();
    expect((await connectAs(account, 0)).account_switch).toBeUndefined();
    expect((await connectAs(account, 0)).account_switch).toBeUndefined();
    await account.deactivateLocal();
    expect((await connectAs(account, 0)).account_switch).toBeUndefined();
  });

  it('after the session was forgotten, a different account is still told apart', async () => {
    fresh();
    const account = await process();
    await connectAs(account, 0);
    await account.deactivateLocal();
    const other = await connectAs(account, 2);
    expect(other.account_switch).toMatchObject({ user_extension: sim.users[0]!.extension });
  });

  it('a session from before the record existed is what the next connection is compared with', async () => {
    fresh();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    const account = await process();
    expect(account.status()).toMatchObject({ state: 'connected' });
    expect(account.status().account_switch).toBeUndefined();
    const swapped = await connectAs(account, 1);
    expect(swapped.account_switch?.user_extension).toBe(sim.users[0]!.extension);
  });

  it('an unreadable record counts as none and is replaced at the next connection', async () => {
    fresh();
    const account = await process();
    await connectAs(account, 0);
    await account.close();
    writeFileSync(join(dataDir, 'last-account.json'), '{"tenant_id": 5');
    const again = await process();
    expect(again.status()).toMatchObject({ state: 'connected' });
    expect(again.status().account_switch).toBeUndefined();
    const swapped = await connectAs(again, 1);
    // The session in the vault stood in for the unreadable record.
    expect(swapped.account_switch?.user_extension).toBe(sim.users[0]!.extension);
  });
});

/**
 * The directory and the calls a profile shows belong to the account connected now: after
 * reconnecting to another platform, or switching to another account while running, nothing of
 * the first one is offered (its contacts for dialling, its calls in the window and the tray), and
 * the new account's directory is synced at once. Real cores, real simulators, real portal flows.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { CallbarEvent, CallsSnapshot } from '../../../../src-shared/contract';
import { createPlatformApi } from '../../../../src-main/core/api/platform-api';
import { startCore, type CallbarCore } from '../../../../src-main/core/callbar-core';
import { cacheFile } from '../../../../src-main/core/directory/directory-cache';
import { readSnapshot } from '../../../../src-main/core/directory/directory-snapshot';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { openProfile } from '../../../../src-main/core/profile';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { freePort } from '../../../support/free-port';
import {
  completePortalFlow,
  profileEnv,
  registerReceiver,
  startSim,
} from '../../../support/sim-harness';
import { until } from '../../../support/until';

describe('data of another account or platform after reconnecting', () => {
  let platformA: RunningSimulator;
  let platformB: RunningSimulator;
  const open: CallbarCore[] = [];

  beforeAll(async () => {
    [platformA, platformB] = await Promise.all([
      startSim({ contacts: 30 }),
      startSim({ contacts: 40 }),
    ]);
  });
  afterAll(async () => {
    await platformA?.close();
    await platformB?.close();
  });
  afterEach(async () => {
    for (const core of open.splice(0)) await core.close();
  });

  /** A core of the profile in `dataDir` on `sim`, with no session in its keychain. */
  async function coreOn(sim: RunningSimulator, dataDir: string): Promise<CallbarCore> {
    const core = await startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, dataDir, await freePort()),
        vault: new MemoryVault(),
        log: silentLogger,
      }),
      openUrl: () => Promise.resolve(),
    });
    open.push(core);
    return core;
  }

  /** The portal flow of `sim` completed by its user `userIndex`. */
  async function connectAs(core: CallbarCore, sim: RunningSimulator, userIndex: number) {
    await core.profile.account.listen();
    await registerReceiver(sim, await core.profile.account.receiverRegistration());
    const started = await core.profile.account.startActivation();
    const user = sim.users[userIndex]!;
    await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    return started.completion;
  }

  const names = (core: CallbarCore, query: string) =>
    core.directory.search(query).hits.map((hit) => hit.contact.display_name);
  const calls = async (core: CallbarCore) => {
    const result = await core.router.invoke('calls.list', {});
    if (!result.ok) throw new Error(result.error.message);
    const snapshot = result.value as CallsSnapshot;
    return [...snapshot.current, ...snapshot.recent].map((call) => call.id);
  };
  const synced = (core: CallbarCore) =>
    until('a synced directory', () =>
      core.directory.status().state === 'ready' ? core.directory.status() : undefined,
    );
  const cacheOwner = (dataDir: string) => readSnapshot(readFileSync(cacheFile(dataDir))).head.owner;

  /** A contact only `core`'s platform has, in its directory; and a call it placed. */
  async function ownData(core: CallbarCore, sim: RunningSimulator, speedDial: number) {
    const { phonebooks } = createPlatformApi({
      baseUrl: sim.base_url,
      tokens: core.profile.account.tokens,
      log: silentLogger,
    });
    const book = await phonebooks.createPhonebook({
      description: `Only here ${speedDial}`,
      priority: 5,
      is_shared: true,
    });
    await phonebooks.createContact({
      phonebook: book.id,
      display_name: 'Zebulon Onlyhere',
      number: '+49 30 5550199',
      secondary_number: null,
      speed_dial: speedDial,
      company: '',
    });
    await core.directory.sync();
    expect(names(core, 'zebulon')).toContain('Zebulon Onlyhere');
    const dialled = await core.router.invoke('calls.dial', {
      target: '+49 30 5550188',
      source: 'ui',
    });
    expect(dialled.ok).toBe(true);
    const [callId] = await calls(core);
    expect(callId).toBeDefined();
    return callId!;
  }

  it('a profile reconnected to another platform offers none of the first one’s contacts or calls', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-other-platform-'));
    const first = await coreOn(platformA, dataDir);
    await connectAs(first, platformA, 0);
    await synced(first);
    const callId = await ownData(first, platformA, 9871);
    await first.close();
    open.splice(0);

    // The same profile started on platform B with no session (as after Disconnect): whose the
    // cached directory and calls are cannot be checked, so none of them is offered.
    const second = await coreOn(platformB, dataDir);
    expect(names(second, 'zebulon')).toEqual([]);
    expect(second.directory.status()).toMatchObject({ state: 'empty', contacts: 0 });
    expect(await calls(second)).toEqual([]);

    const events: CallbarEvent[] = [];
    second.events.subscribe((event) => events.push(event));
    const connected = await connectAs(second, platformB, 0);
    expect(connected.state).toBe('connected');
    expect(names(second, 'zebulon')).toEqual([]);
    const status = await synced(second);
    expect(status.contacts).toBeGreaterThan(0);
    expect(names(second, 'zebulon')).toEqual([]);
    expect(await calls(second)).not.toContain(callId);
    // The window showed the sync's progress ("Loading your contacts…").
    expect(
      events.some(
        (event) =>
          event.type === 'directory.changed' &&
          event.status.state === 'syncing' &&
          event.status.progress !== undefined,
      ),
    ).toBe(true);
    expect(cacheOwner(dataDir)).toEqual({
      tenant_id: platformB.tenant_id,
      user_extension: platformB.users[0]!.extension,
      base_url: platformB.base_url,
    });
  }, 60_000);

  it('a switch to another account while running drops the directory and calls at once and syncs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-other-account-'));
    const core = await coreOn(platformA, dataDir);
    await connectAs(core, platformA, 0);
    const before = await synced(core);
    const callId = await ownData(core, platformA, 9872);

    const states: string[] = [];
    core.events.subscribe((event) => {
      if (event.type === 'directory.changed') states.push(event.status.state);
    });
    const switched = await connectAs(core, platformA, 1);
    expect(switched.user_extension).toBe(platformA.users[1]!.extension);
    // Synced again at once (the interval of 15 minutes has not passed), for the new account.
    const after = await until('the new account’s directory', () =>
      core.directory.status().state === 'ready' &&
      core.directory.status().synced_at !== before.synced_at
        ? core.directory.status()
        : undefined,
    );
    expect(after.contacts).toBeGreaterThan(0);
    expect(states).toContain('syncing');
    expect(cacheOwner(dataDir)).toMatchObject({
      user_extension: platformA.users[1]!.extension,
      base_url: platformA.base_url,
    });
    expect(await calls(core)).not.toContain(callId);
  }, 60_000);
});

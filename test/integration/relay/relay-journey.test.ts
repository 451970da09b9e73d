/**
 * The relay end to end: two relay nodes sharing a real redis-server, the simulator delivering to
 * the relay's URLs unchanged (Activation on one node, Deactivation and the Webhook on the other),
 * and a real Callbar core in relay mode that connects out only (it is given both nodes). Under
 * both simulator profiles: `rich` events name their user, `minimal` ones carry only `{id}` and
 * reach the device through its dial announcement.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningRelay } from '../../../relay/relay-server';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { CallsSnapshot, Result } from '../../../src-shared/contract';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { relayAddresses } from '../../support/relay-addresses';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';
import { startRelayCore } from '../../support/test-core';
import { until } from '../../support/until';
import {
  advanceClock,
  capturingLogger,
  completePortalFlow,
  control as simRequest,
  forEachProfile,
  startSim,
} from '../../support/sim-harness';

const WEBHOOK_SECRET = 'relay-webhook-secret-of-the-test-0123456789';

forEachProfile((profile) => {
  let relay: RelayNodes;
  let sim: RunningSimulator;
  let control: SimControl;
  let core: CallbarCore;
  let vault: MemoryVault;
  const relayLog = capturingLogger();

  async function value<T>(channel: string, request: unknown = {}): Promise<T> {
    const result = (await core.router.invoke(channel, request)) as Result<T>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  }
  const snapshot = () => value<CallsSnapshot>('calls.list');

  beforeAll(async () => {
    relay = await startRelayNodes(2, {
      log: relayLog.log,
      webhookSecret: WEBHOOK_SECRET,
      pollMs: 2000,
      keepAliveMs: 1000,
    });
    const [a, b] = relay.nodes as [RunningRelay, RunningRelay];
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    // The integration's three addresses, on different nodes: any node serves any call.
    await simRequest(
      sim,
      'PUT',
      'integrations/callbar',
      relayAddresses(
        { activate: a.origin, deactivate: b.origin, events: b.origin },
        WEBHOOK_SECRET,
        sim.tenant_id,
      ),
    );
    vault = new MemoryVault();
    core = await startRelayCore(sim, `${b.origin},${a.origin}`, {
      vault,
      // listen() must never wait this out (a stream that ends before its backlog is served).
      relayCatchUpMs: 10 * 60_000,
    });
  });
  afterAll(async () => {
    await core?.close();
    await relay?.close();
    await sim?.close();
  });

  it('activates, dials, follows and hangs up a call, and is deactivated, through two nodes', async () => {
    const account = core.profile.account;
    expect(account.status().relay).toBe(new URL(relay.nodes[1]!.origin).host);

    // Activation: the desktop waits at node B; the platform POSTs to node A.
    const started = await account.startActivation();
    const alice = sim.users[0]!;
    const consent = await completePortalFlow(started.portalLink, {
      username: alice.username,
      password: alice.password,
      action: 'subscribe',
    });
    // The platform got its 200 only once the desktop had stored the tokens.
    expect(consent.status).toBe(303);
    const status = await started.completion;
    expect(status).toMatchObject({ state: 'connected', user_extension: alice.extension });
    expect((await vault.load())?.relay_device?.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const devices = await relay.stores[0]!.listDevices();
    expect(devices).toHaveLength(1);
    expect(devices[0]).toMatchObject({
      tenant_id: status.tenant_id,
      user_extension: alice.extension,
    });

    // A call: the events reach the device through the relay (under minimal: by its dial note).
    await advanceClock(sim, 61);
    const outcome = await value<{ call: { id: string } }>('calls.dial', {
      target: '+49 30 1234567',
    });
    const call = await until('the simulator call', async () =>
      (await control.calls()).filter((each) => each.to === '+49301234567').at(-1),
    );
    const userLeg = call.legs[0]!;
    await until('the first leg through the relay', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(userLeg.id) ? true : undefined,
    );
    await control.answerLeg(userLeg.id);
    const calleeLeg = (await control.getCall(call.id)).legs[1]!;
    await until('the callee leg through the relay', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(calleeLeg.id) ? true : undefined,
    );
    const afterHangup = await value<CallsSnapshot>('calls.hangup');
    expect(afterHangup.current).toEqual([]);
    expect(afterHangup.recent[0]).toMatchObject({ id: outcome.call.id, state: 'ended' });
    expect((await control.getCall(call.id)).state).toBe('ended');

    // Deactivation in the portal: node B queues it for the device, which wipes its tokens.
    const unsubscribe = await completePortalFlow(started.portalLink, {
      username: alice.username,
      password: alice.password,
      action: 'unsubscribe',
    });
    expect(unsubscribe.status).toBe(303);
    await until('the deactivation through the relay', () =>
      account.status().state === 'not-connected' ? true : undefined,
    );
    expect(await vault.load()).toBeUndefined();
    await until('the device removed at the relay', async () =>
      (await relay.stores[1]!.listDevices()).length === 0 ? true : undefined,
    );
    // Nothing secret in the relay's log lines.
    const secrets = [WEBHOOK_SECRET, devices[0]!.credential_sha256];
    for (const line of relayLog.lines)
      for (const secret of secrets) expect(line).not.toContain(secret);
  });

  it('answers the platform non-200 when the desktop could not store the tokens', async () => {
    const account = core.profile.account;
    const started = await account.startActivation();
    started.completion.catch(() => undefined);
    vault.unavailable = 'the keychain is locked';
    const consent = await completePortalFlow(started.portalLink, {
      username: sim.users[0]!.username,
      password: sim.users[0]!.password,
      action: 'subscribe',
    });
    vault.unavailable = false;
    expect(consent.status).not.toBe(303);
    const { attempts } = await control.integration('callbar');
    expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 503 });
    await expect(started.completion).rejects.toThrow(/keychain/);
    // No device was kept for tokens nobody holds.
    expect(await relay.stores[0]!.listDevices()).toEqual([]);
  });

  it('a deactivation queued while the desktop was off: the next listen() applies it and returns at once', async () => {
    const account = core.profile.account;
    const started = await account.startActivation();
    const alice = sim.users[0]!;
    const consent = completePortalFlow(started.portalLink, {
      username: alice.username,
      password: alice.password,
      action: 'subscribe',
    });
    await started.completion;
    // Connected once the relay made the device (it does when told the tokens are stored): what
    // the person does at once finds it. Before, "connected" came first, and an Unsubscribe or a
    // stop at once could come before the device, or before its stream was opened anew.
    const device = (await vault.load())?.relay_device?.device_id;
    expect((await relay.stores[1]!.listDevices()).map((each) => each.device_id)).toEqual([device]);
    expect((await consent).status).toBe(303);
    // Off: nothing reads the stream while the platform deactivates.
    account.stopListening();
    const unsubscribe = await completePortalFlow(started.portalLink, {
      username: alice.username,
      password: alice.password,
      action: 'unsubscribe',
    });
    expect(unsubscribe.status).toBe(303);
    // The stream ends before its "ready" (the session is gone): listen() does not wait out the
    // catch-up (10 minutes here; before, it always did, 5 s by default).
    await account.listen();
    expect(account.status().state).toBe('not-connected');
  });
});

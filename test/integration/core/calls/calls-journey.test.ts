/**
 * Click-to-dial end to end, under both simulator profiles: the real core (router, calls service,
 * tracker, receiver) connected through the portal, the simulator ringing phones and POSTing its
 * call events to Callbar's receiver. Under `minimal` the events carry only `{id}` and the
 * call-control answers are empty; under `rich` they say more. The other party is identified
 * through the real directory, synced from the simulator after Ada was added to a phonebook.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { SimControl } from '../../../../simulator/control-client';
import type { CallsSnapshot, Result } from '../../../../src-shared/contract';
import { startCore, type CallbarCore } from '../../../../src-main/core/callbar-core';
import { createPlatformApi } from '../../../../src-main/core/api/platform-api';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { profileSessionLock } from '../../../../src-main/core/account/session-lock';
import { openProfile } from '../../../../src-main/core/profile';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { freePort } from '../../../support/free-port';
import { until } from '../../../support/until';
import { ada } from '../../../support/calls-fixtures';
import {
  advanceClock,
  completePortalFlow,
  describeJourney,
  fullEvents,
  profileEnv,
  registerReceiver,
  startSim,
} from '../../../support/sim-harness';

const caller = ada;

describeJourney('calls', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let core: CallbarCore;
  let dataDir: string;
  /** The Webhook URL Callbar reported and the simulator registered (with the secret). */
  let webhookUrl: string;
  /** Ada's id on the platform. */
  let adaId: number;

  async function invoke<T>(channel: string, request: unknown = {}): Promise<Result<T>> {
    return (await core.router.invoke(channel, request)) as Result<T>;
  }
  async function value<T>(channel: string, request: unknown = {}): Promise<T> {
    const result = await invoke<T>(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  }
  const snapshot = () => value<CallsSnapshot>('calls.list');
  /** Hangs up once the platform's first event about the current call has arrived. */
  const hangupWhenHeard = async () => {
    await until('a leg of the current call', async () =>
      (await snapshot()).current[0]?.leg_ids.length ? true : undefined,
    );
    return value<CallsSnapshot>('calls.hangup');
  };
  const dialsSent = async () =>
    (await control.requests()).filter(
      (request) =>
        request.path === '/v3/call_control/' &&
        JSON.stringify(request.body ?? '').includes('click-to-dial'),
    ).length;
  /** The simulator's call to `destination` (the newest). */
  const simCall = async (destination: string) =>
    (await control.calls()).filter((call) => call.to === destination).at(-1);

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-journey-'));
    const port = await freePort();
    core = await startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, dataDir, port),
        vault: new MemoryVault(),
        log: silentLogger,
      }),
      openUrl: () => Promise.resolve(),
    });
    await core.profile.account.listen();
    const registration = await core.profile.account.receiverRegistration();
    webhookUrl = registration.webhook_url;
    await registerReceiver(sim, registration);
    const started = await core.profile.account.startActivation();
    const alice = sim.users[0]!;
    await completePortalFlow(started.portalLink, {
      username: alice.username,
      password: alice.password,
      action: 'subscribe',
    });
    await started.completion;
    // Ada in a phonebook on the platform, then in Callbar's directory through a real sync.
    const { phonebooks } = createPlatformApi({
      baseUrl: sim.base_url,
      tokens: core.profile.account.tokens,
      log: silentLogger,
    });
    const book = await phonebooks.createPhonebook({
      description: 'Journey test contacts',
      priority: 5,
      is_shared: true,
    });
    adaId = (
      await phonebooks.createContact({
        phonebook: book.id,
        display_name: caller.display_name,
        number: caller.number,
        secondary_number: null,
        speed_dial: caller.speed_dial!,
        company: caller.company,
      })
    ).id;
    await until('Ada in the directory', async () => {
      await core.directory.sync();
      return core.directory.lookupByNumber(caller.number);
    });
  });
  afterAll(async () => {
    await core?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    // A fresh call-control rate-limit window (minimal: 10 per 60 s) without waiting for it.
    await advanceClock(sim, 61);
  });

  it('dials a tel: link and follows ringing → connected → hangup → ended', async () => {
    const published: CallsSnapshot[] = [];
    const unsubscribe = core.events.subscribe((event) => {
      if (event.type === 'calls.changed') published.push(event.calls);
    });
    const outcome = await value<{ status: string; call: { id: string; state: string } }>(
      'calls.dial',
      { target: 'tel:+49-30-1234567', source: 'ui' },
    );
    expect(outcome.status).toBe('dialing');
    expect(outcome.call.state).toBe('dialing');
    const call = await until('the simulator call', () => simCall('+49301234567'));
    const userLeg = call.legs[0]!;

    // The user's own phone rings: its leg id reaches the call through the receiver.
    await until('the first leg', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(userLeg.id) ? true : undefined,
    );
    expect((await snapshot()).current[0]!.state).toBe(
      fullEvents(profile) ? 'calling-you' : 'in-progress',
    );

    await control.answerLeg(userLeg.id);
    const calleeLeg = (await control.getCall(call.id)).legs[1]!;
    await until('the callee leg', async () =>
      (await snapshot()).current[0]?.leg_ids.includes(calleeLeg.id) ? true : undefined,
    );
    await control.answerLeg(calleeLeg.id);
    await control.webhooksSettled(20_000);
    const connected = (await snapshot()).current[0]!;
    expect(connected.id).toBe(outcome.call.id);
    expect(connected.leg_ids).toEqual([userLeg.id, calleeLeg.id]);
    if (fullEvents(profile)) {
      expect(connected.state).toBe('connected');
      expect(connected.connected_at).toBeDefined();
    } else {
      expect(connected.state).toBe('in-progress');
    }

    const afterHangup = await value<CallsSnapshot>('calls.hangup');
    expect(afterHangup.current).toEqual([]);
    expect(afterHangup.recent[0]).toMatchObject({
      id: outcome.call.id,
      state: 'ended',
      reason: 'You hung up.',
      party: { number: '+49301234567', display: '+49 30 1234567' },
    });
    expect((await control.getCall(call.id)).state).toBe('ended');
    await control.webhooksSettled(20_000);
    // Late hangup events do not bring the call back.
    expect((await snapshot()).current).toEqual([]);
    // The renderer heard each step as a calls.changed event.
    expect(published.some((each) => each.current[0]?.leg_ids.length === 2)).toBe(true);
    expect(published.at(-1)!.recent[0]!.state).toBe('ended');
    unsubscribe();
    // The call log in the profile has it (for the CLI and the next start).
    const log = JSON.parse(readFileSync(join(dataDir, 'calls.json'), 'utf8')) as {
      calls: { call: { id: string } }[];
    };
    await until('the call log', () =>
      log.calls.some((record) => record.call.id === outcome.call.id) ? true : undefined,
    );
  });

  it('says a 403 hangup means the call already ended, and marks it ended', async () => {
    await value('calls.clearRecent');
    const outcome = await value<{ call: { id: string } }>('calls.dial', {
      target: '+1 202 555 0142',
    });
    const call = await until('the simulator call', () => simCall('+12025550142'));
    await until('the leg', async () =>
      (await snapshot()).current[0]?.leg_ids.length ? true : undefined,
    );
    // The other side ends it; only the rich profile's events say so.
    await control.endLeg(call.legs[0]!.id);
    await control.webhooksSettled(20_000);
    if (!fullEvents(profile)) {
      expect((await snapshot()).current[0]!.id).toBe(outcome.call.id);
      const refused = await invoke('calls.hangup');
      expect(refused).toEqual({
        ok: false,
        error: {
          code: 'call_not_active',
          message: 'That call has already ended, or it is not yours to end.',
        },
      });
    }
    const after = await snapshot();
    expect(after.current).toEqual([]);
    expect(after.recent[0]).toMatchObject({ id: outcome.call.id, state: 'ended' });
    const none = await invoke('calls.hangup');
    expect(none).toMatchObject({ ok: false, error: { code: 'no_current_call' } });
  });

  it('Hang up right after the dial, before the platform said anything: it waits for the first event and ends the call', async () => {
    // The platform's events reach Callbar 400 ms late (a slow network): a delaying proxy is
    // registered as the Webhook URL for this test.
    const late = createServer((incoming, answer) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        setTimeout(() => {
          const forwarded = httpRequest(
            webhookUrl,
            // Its own Host: the receiver answers only to its own address.
            {
              method: incoming.method,
              headers: { ...incoming.headers, host: new URL(webhookUrl).host },
            },
            (reply) => {
              answer.writeHead(reply.statusCode ?? 502);
              reply.pipe(answer);
            },
          );
          forwarded.on('error', () => answer.writeHead(502).end());
          forwarded.end(Buffer.concat(chunks));
        }, 400);
      });
    });
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    const { port } = late.address() as AddressInfo;
    const registration = await core.profile.account.receiverRegistration();
    const path = new URL(webhookUrl);
    await registerReceiver(sim, {
      ...registration,
      webhook_url: `http://127.0.0.1:${port}${path.pathname}${path.search}`,
    });
    try {
      await value('calls.clearRecent');
      const outcome = await value<{ call: { id: string; leg_ids: string[] } }>('calls.dial', {
        target: '+1 202 555 0146',
      });
      if (outcome.call.leg_ids.length === 0) {
        expect((await snapshot()).current[0]?.leg_ids).toEqual([]);
      }
      const hungUp = await invoke<CallsSnapshot>('calls.hangup');
      expect(hungUp).toMatchObject({ ok: true });
      const call = await until('the simulator call', () => simCall('+12025550146'));
      await until('the call ended at the platform', async () =>
        (await control.getCall(call.id)).state === 'ended' ? true : undefined,
      );
    } finally {
      await registerReceiver(sim, registration);
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it('places one call for a double click', async () => {
    const before = await dialsSent();
    const [first, second] = await Promise.all([
      invoke('calls.dial', { target: '+1 202 555 0143' }),
      invoke('calls.dial', { target: '(202) 555-0143' }),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    const refused = (first.ok ? second : first) as { ok: false; error: { code: string } };
    expect(refused.error.code).toBe('duplicate_dial');
    expect(await dialsSent()).toBe(before + 1);
    await hangupWhenHeard();
  });

  it('never dials a tel: link unconfirmed; yes dials; "always" stops asking', async () => {
    const before = await dialsSent();
    const asked = await value<{ status: string; pending: { id: string } }>('calls.openUrl', {
      url: 'tel:+44-20-7123-4567',
    });
    expect(asked.status).toBe('needs-confirmation');
    expect((await snapshot()).pending).toMatchObject({
      id: asked.pending.id,
      target: { destination: '+442071234567', contact: { display_name: 'Ada Lovelace' } },
    });
    const no = await value<CallsSnapshot>('calls.confirm', { id: asked.pending.id, accept: false });
    expect(no.pending).toBeNull();
    expect(await dialsSent()).toBe(before);
    // A dial with a tel-link source is a link too.
    const viaDial = await value<{ status: string; pending: { id: string } }>('calls.dial', {
      target: '+44 20 7123 4567',
      source: 'tel-link',
    });
    expect(viaDial.status).toBe('needs-confirmation');
    const stale = await invoke('calls.confirm', { id: asked.pending.id, accept: true });
    expect(stale).toMatchObject({ ok: false, error: { code: 'no_pending_dial' } });
    expect(await dialsSent()).toBe(before);

    const yes = await value<CallsSnapshot>('calls.confirm', {
      id: viaDial.pending.id,
      accept: true,
      always: true,
    });
    expect(yes.current[0]).toMatchObject({
      source: 'tel-link',
      party: { name: 'Ada Lovelace', company: 'Analytical Engines' },
    });
    expect(await dialsSent()).toBe(before + 1);
    const settings = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as object;
    expect(settings).toMatchObject({ confirm_web_links: false });
    await hangupWhenHeard();
    await advanceClock(sim, 61);
    const direct = await value<{ status: string }>('calls.openUrl', {
      url: 'callto://+1-202-555-0188',
    });
    expect(direct.status).toBe('dialing');
    await hangupWhenHeard();
    // A number abroad (the region is US) asks anyway, and says why.
    const abroad = await value<{ status: string; pending: { reason?: string } }>('calls.openUrl', {
      url: 'callto://+4930123456',
    });
    expect(abroad).toMatchObject({
      status: 'needs-confirmation',
      pending: {
        reason: expect.stringMatching(
          /^This is a number in Germany, not in your country/,
        ) as string,
      },
    });
    await value('calls.confirm', { id: (abroad.pending as { id: string }).id, accept: false });
  });

  it('Cancel before the dial is sent: it never is (issue 27)', async () => {
    const sent = await dialsSent();
    // Another process of the profile holds the dial lock: this dial waits before sending.
    const otherProcess = profileSessionLock(dataDir, { log: silentLogger, name: 'dial.lock' });
    const { dialled } = await otherProcess.hold(async () => {
      const dialled = invoke('calls.dial', { target: '+49 30 5550124', source: 'ui' });
      await until('the dial in flight', async () =>
        (await invoke('calls.cancelDial')).ok ? true : undefined,
      );
      return { dialled };
    });
    expect(await dialled).toMatchObject({ ok: false, error: { code: 'dial_cancelled' } });
    expect(await dialsSent()).toBe(sent);
    expect(await simCall('+49305550124')).toBeUndefined();
    expect((await snapshot()).current).toEqual([]);
  });

  it('Cancel after the dial was sent: the call the platform placed is hung up (issue 27)', async () => {
    // The platform places the call, and its answer is late: Cancel comes in between.
    await control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      when: 'after',
      delay_ms: 1500,
      count: 1,
    });
    const dialled = invoke<{ status: string; call: { id: string; state: string } }>('calls.dial', {
      target: '+49 30 5550123',
      source: 'ui',
    });
    const placed = await until('the simulator call', () => simCall('+49305550123'));
    expect(await invoke('calls.cancelDial')).toMatchObject({ ok: true });
    const outcome = await dialled;
    expect(outcome).toMatchObject({ ok: true, value: { call: { state: 'ended' } } });
    await until('the call ended at the platform', async () =>
      (await control.getCall(placed.id)).state === 'ended' ? true : undefined,
    );
    expect((await snapshot()).current).toEqual([]);
    const refused = await invoke('calls.cancelDial');
    expect(refused).toMatchObject({ ok: false, error: { code: 'no_dial_in_flight' } });
  });

  it('identifies an incoming caller through the directory', async () => {
    await value('calls.clearRecent');
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: '201',
      from: caller.number,
    });
    await control.webhooksSettled(20_000);
    // The receiver answers the platform at once; the event may be taken in a moment later (while
    // the profile's dial file is read, call-tracker.ts), so the call is awaited, not assumed.
    const current = await until('the incoming call', async () => (await snapshot()).current[0]);
    expect(current.direction).toBe('incoming');
    expect(current.leg_ids).toEqual(expect.arrayContaining(incoming.legs.map((leg) => leg.id)));
    if (fullEvents(profile)) {
      expect(current).toMatchObject({
        state: 'ringing',
        party: { name: 'Ada Lovelace', company: 'Analytical Engines', contact_id: adaId },
      });
    } else {
      // {id} alone says nothing about who calls.
      expect(current).toMatchObject({ state: 'in-progress', party: { display: 'Unknown caller' } });
    }
    await value('calls.hangup');
    expect((await control.getCall(incoming.id)).state).toBe('ended');
  });

  it('takes repeated and out-of-order deliveries at the receiver without double counting', async () => {
    await value('calls.clearRecent');
    // As the platform posts (node:http: fetch would add the Sec-Fetch headers of a browser).
    const post = (body: unknown) =>
      new Promise<{ status: number }>((resolve, reject) => {
        const request = httpRequest(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        });
        request.on('response', (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        });
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    const event = (sequence: number, state: string) => ({
      id: 'leg_replayed',
      call_id: 'call_replayed',
      direction: 'inbound',
      leg: 'callee',
      party: '201',
      from: '+15550000001',
      state,
      sequence,
    });
    for (const body of [
      event(2, 'answered'),
      event(1, 'ringing'),
      event(2, 'answered'),
      event(1, 'ringing'),
    ]) {
      expect((await post(body)).status).toBe(200);
    }
    expect((await post({ no: 'id' })).status).toBe(400);
    const replayed = (calls: CallsSnapshot['current']) =>
      calls.filter((each) => each.leg_ids[0] === 'leg_replayed');
    // Taken in a moment after the answers (the event may wait while the dial file is read).
    const connected = await until('the replayed call connected', async () => {
      const calls = replayed((await snapshot()).current);
      return calls.some((each) => each.state === 'connected') ? calls : undefined;
    });
    expect(connected).toHaveLength(1);
    expect((await post(event(3, 'hangup'))).status).toBe(200);
    const ended = await until('the replayed call ended', async () => {
      const view = await snapshot();
      return replayed(view.current).length === 0 ? view : undefined;
    });
    // Four deliveries, two repeated and two out of order, made one call.
    expect(replayed(ended.recent)).toHaveLength(1);
    expect(replayed(ended.recent)[0]).toMatchObject({ state: 'ended' });
  });
});

/**
 * POST /v3/call_control/ (contract 4.6, 5.6, 6): validation, the 403 rules, two-step
 * click-to-dial legs driven by the control API or by auto-answer on the simulator clock, call
 * events delivered to the Webhook URL of active integrations, hangup, incoming calls, and the
 * configurable success answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../../simulator/control-client';
import { completePortalFlow } from '../../../simulator/portal-driver';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { errorKeys, type Api } from '../../support/raw-api';
import { startReceiver, type Receiver } from '../../support/integrator-receiver';
import { until } from '../../support/until';

const PATH = '/v3/call_control/';
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$/;

describe('call control', () => {
  let t: TestSim;
  let receiver: Receiver;
  let alice: Api;
  let bob: Api;
  const dial = (api: Api, destination: unknown, extension = '201', tenant?: string) =>
    api.post(PATH, {
      command: 'click-to-dial',
      user: { tenant_id: tenant ?? t.sim.tenant_id, user_extension: extension },
      payload: { destination },
    });
  const hangup = (api: Api, legId: string, extension = '201') =>
    api.post(PATH, {
      command: 'hangup',
      user: { tenant_id: t.sim.tenant_id, user_extension: extension },
      payload: { call_leg_id: legId },
    });
  const events = (extension?: string): CallEvent[] =>
    receiver.requests
      .filter((request) => request.path === '/events')
      .map((request) => JSON.parse(request.body) as CallEvent)
      .filter((event) => extension === undefined || event.user_extension === extension);
  const eventsOf = (callId: string, extension = '201') =>
    events(extension).filter((event) => event.call_id === callId);
  const steps = (list: CallEvent[]) => list.map((event) => `${event.leg}:${event.event}`);

  beforeAll(async () => {
    t = await startTestSim({ contacts: 5 });
    receiver = await startReceiver();
    await t.control.putIntegration('callbar', {
      activation_url: `${receiver.url}/activate`,
      deactivation_url: `${receiver.url}/deactivate`,
      webhook_url: `${receiver.url}/events`,
      extra_headers: { 'X-Hook-Secret': 's3' },
    });
    for (const index of [0, 1]) {
      const user = t.sim.users[index]!;
      const link = `${t.sim.portal_url}/integrations/callbar/activate?confirmation_key=k${index}&redirect_url=${encodeURIComponent('http://127.0.0.1:9/done')}`;
      const result = await completePortalFlow(link, {
        username: user.username,
        password: user.password,
        action: 'subscribe',
      });
      expect(result.status).toBe(303);
    }
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
  });
  afterAll(async () => {
    await t.sim.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await t.control.webhooksSettled();
    receiver.requests.length = 0;
  });

  it('click-to-dial → 202 {call_id, call_leg_id}; the user’s own phone rings first', async () => {
    const response = await dial(alice, '+49 30 1234567');
    expect(response.status).toBe(202);
    const body = response.json as { call_id: string; call_leg_id: string };
    expect(Object.keys(body).sort()).toEqual(['call_id', 'call_leg_id']);
    const call = await t.control.getCall(body.call_id);
    expect(call).toMatchObject({
      kind: 'click-to-dial',
      from: '201',
      to: '+49301234567',
      state: 'ringing',
    });
    expect(call.legs).toEqual([
      expect.objectContaining({
        id: body.call_leg_id,
        leg: 'caller',
        party: '201',
        state: 'ringing',
      }),
    ]);
    const [ringing] = await until('1 event(s)', () =>
      eventsOf(body.call_id).length === 1 ? eventsOf(body.call_id) : undefined,
    );
    expect(ringing).toEqual({
      id: body.call_leg_id,
      call_id: body.call_id,
      event: 'ringing',
      state: 'ringing',
      direction: 'outbound',
      leg: 'caller',
      party: '201',
      from: '201',
      to: '+49301234567',
      tenant_id: t.sim.tenant_id,
      user_extension: '201',
      timestamp: expect.stringMatching(ISO_WITH_OFFSET) as string,
      sequence: 1,
    });
    const delivery = receiver.requests.find((request) => request.path === '/events')!;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-hook-secret']).toBe('s3');
    await t.control.endLeg(body.call_leg_id);
  });

  it('legs progress: caller answers → destination rings → answers → bridged → hangup ends both', async () => {
    const { call_id, call_leg_id } = (await dial(alice, '+4940999888')).json as {
      call_id: string;
      call_leg_id: string;
    };
    let call = await t.control.answerLeg(call_leg_id);
    const callee = call.legs.find((leg) => leg.leg === 'callee')!;
    expect(callee).toMatchObject({ party: '+4940999888', state: 'ringing', user_extension: null });
    call = await t.control.answerLeg(callee.id);
    expect(call.state).toBe('connected');
    expect(call.legs.map((leg) => leg.state)).toEqual(['bridged', 'bridged']);
    // The external party's leg is not Alice's to hang up.
    expect((await hangup(alice, callee.id)).status).toBe(403);
    const response = await hangup(alice, call_leg_id);
    expect(response.status).toBe(202);
    expect(response.json).toEqual({ call_id, call_leg_id });
    call = await t.control.getCall(call_id);
    expect(call.state).toBe('ended');
    expect(
      call.legs.every((leg) => leg.state === 'ended' && leg.hangup_cause === 'normal_clearing'),
    ).toBe(true);
    const list = await until('8 event(s)', () =>
      eventsOf(call_id).length === 8 ? eventsOf(call_id) : undefined,
    );
    expect(steps(list)).toEqual([
      'caller:ringing',
      'caller:answered',
      'callee:ringing',
      'callee:answered',
      'caller:bridged',
      'callee:bridged',
      'caller:hangup',
      'callee:hangup',
    ]);
    expect(list.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      list.filter((event) => event.leg === 'callee').every((event) => event.id === callee.id),
    ).toBe(true);
    expect(list.at(-1)).toMatchObject({
      event: 'hangup',
      state: 'ended',
      hangup_cause: 'normal_clearing',
    });
  });

  it('auto-answer runs on the simulator clock: advancing it walks the call to its end', async () => {
    await t.control.updateConfig({
      autoAnswer: { userAnswerMs: 1000, destinationAnswerMs: 2000, hangupAfterMs: 10_000 },
    });
    try {
      const { call_id } = (await dial(alice, '2345')).json as { call_id: string };
      await t.control.advanceClock(1);
      expect(
        (await t.control.getCall(call_id)).legs.map((leg) => `${leg.leg}:${leg.state}`),
      ).toEqual(['caller:answered', 'callee:ringing']);
      await t.control.advanceClock(2);
      expect((await t.control.getCall(call_id)).state).toBe('connected');
      await t.control.advanceClock(60);
      const call = await t.control.getCall(call_id);
      expect(call.state).toBe('ended');
      const list = await until('8 event(s)', () =>
        eventsOf(call_id).length === 8 ? eventsOf(call_id) : undefined,
      );
      const times = list.map((event) => Date.parse(event.timestamp));
      expect(times[1]! - times[0]!).toBe(1000);
      expect(times[3]! - times[2]!).toBe(2000);
      expect(times[6]! - times[5]!).toBe(10_000);
      // One jump far ahead runs the whole chain too.
      const second = (await dial(alice, '2346')).json as { call_id: string };
      await t.control.advanceClock(3600);
      expect((await t.control.getCall(second.call_id)).state).toBe('ended');
    } finally {
      await t.control.updateConfig({ autoAnswer: false });
    }
  });

  it('an internal call: the destination user gets the events as inbound', async () => {
    const { call_id, call_leg_id } = (await dial(alice, '202')).json as {
      call_id: string;
      call_leg_id: string;
    };
    const call = await t.control.answerLeg(call_leg_id);
    const calleeLeg = call.legs.find((leg) => leg.leg === 'callee')!;
    expect(calleeLeg.user_extension).toBe('202');
    const bobs = await until('1 event(s)', () =>
      eventsOf(call_id, '202').length >= 1 ? eventsOf(call_id, '202') : undefined,
    );
    expect(bobs[0]).toMatchObject({
      direction: 'inbound',
      user_extension: '202',
      from: '201',
      to: '202',
    });
    // Each participant hangs up with their own leg only: another's leg is 403 and ends nothing.
    expect((await hangup(bob, call_leg_id, '202')).status).toBe(403);
    expect((await hangup(alice, calleeLeg.id)).status).toBe(403);
    expect((await t.control.getCall(call_id)).state).toBe('ringing');
    // Bob is an active participant: he may hang up with his own leg.
    expect((await hangup(bob, calleeLeg.id, '202')).status).toBe(202);
    expect((await t.control.getCall(call_id)).state).toBe('ended');
  });

  it('an incoming call (control API) rings the user: inbound events with the caller’s number', async () => {
    const call = await t.control.incomingCall({
      tenant_id: t.sim.tenant_id,
      user_extension: '201',
      from: '+4930777666',
    });
    expect(call).toMatchObject({
      kind: 'inbound',
      from: '+4930777666',
      to: '201',
      state: 'ringing',
    });
    const userLeg = call.legs.find((leg) => leg.leg === 'callee')!;
    const list = await until('2 event(s)', () =>
      eventsOf(call.id).length === 2 ? eventsOf(call.id) : undefined,
    );
    expect(list[1]).toMatchObject({
      id: userLeg.id,
      event: 'ringing',
      direction: 'inbound',
      leg: 'callee',
      from: '+4930777666',
      to: '201',
    });
    await t.control.answerLeg(userLeg.id);
    expect((await t.control.getCall(call.id)).state).toBe('connected');
    expect((await hangup(alice, userLeg.id)).status).toBe(202);
  });

  it('click-to-dial for an extension the user does not own → 403', async () => {
    const other = await dial(alice, '+4930111', '202');
    expect(other.status).toBe(403);
    expect(errorKeys(other)).toEqual(['client_error/permission_denied/null']);
    expect((await dial(alice, '+4930111', '201', 'globex-19c2')).status).toBe(403);
    expect((await dial(alice, '+4930111', '999')).status).toBe(403);
  });

  it('hangup → 403 unless the leg is the user’s own and still up', async () => {
    const { call_id, call_leg_id } = (await dial(alice, '+4930222')).json as {
      call_id: string;
      call_leg_id: string;
    };
    expect((await hangup(bob, call_leg_id, '202')).status).toBe(403);
    expect((await hangup(alice, call_leg_id, '202')).status).toBe(403);
    expect((await hangup(alice, 'leg_unknown')).status).toBe(403);
    expect((await t.control.getCall(call_id)).state).toBe('ringing');
    expect((await hangup(alice, call_leg_id)).status).toBe(202);
    const ended = await t.control.getCall(call_id);
    expect(ended.legs[0]).toMatchObject({ state: 'ended', hangup_cause: 'originator_cancel' });
    expect((await hangup(alice, call_leg_id)).status).toBe(403);
  });

  it('validates the body: command, user, payload.destination, payload.call_leg_id', async () => {
    expect(errorKeys(await alice.post(PATH, {})).sort()).toEqual([
      'validation_error/required/command',
      'validation_error/required/payload',
      'validation_error/required/user',
    ]);
    const noDestination = await alice.post(PATH, {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: {},
    });
    expect(noDestination.status).toBe(400);
    expect(noDestination.json).toEqual({
      type: 'validation_error',
      errors: [
        { code: 'required', detail: 'This field is required.', attr: 'payload.destination' },
      ],
    });
    expect(errorKeys(await dial(alice, 'not a number'))).toEqual([
      'validation_error/invalid/payload.destination',
    ]);
    expect(errorKeys(await dial(alice, ''))).toEqual([
      'validation_error/blank/payload.destination',
    ]);
    expect(
      errorKeys(
        await alice.post(PATH, {
          command: 'hangup',
          user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
          payload: {},
        }),
      ),
    ).toEqual(['validation_error/required/payload.call_leg_id']);
    expect(
      errorKeys(
        await alice.post(PATH, {
          command: 'transfer',
          user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
          payload: {},
        }),
      ),
    ).toEqual(['validation_error/invalid_choice/command']);
    expect(
      errorKeys(
        await alice.post(PATH, { command: 'click-to-dial', user: 'alice', payload: 'x' }),
      ).sort(),
    ).toEqual([
      'validation_error/invalid/payload.non_field_errors',
      'validation_error/invalid/user.non_field_errors',
    ]);
    expect(
      errorKeys(
        await alice.post(PATH, {
          command: 'click-to-dial',
          user: {},
          payload: { destination: '123' },
        }),
      ).sort(),
    ).toEqual([
      'validation_error/required/user.tenant_id',
      'validation_error/required/user.user_extension',
    ]);
    // A numeric extension is a valid string (DRF CharField).
    const numeric = await alice.post(PATH, {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: 201 },
      payload: { destination: 2400 },
    });
    expect(numeric.status).toBe(202);
  });

  it('GET and a path without the slash are refused (405, 404)', async () => {
    expect((await alice.get(PATH)).status).toBe(405);
    expect((await alice.post('/v3/call_control', {})).status).toBe(404);
  });

  it.each([
    ['ok', 200, true],
    ['empty', 204, false],
    ['accepted-empty', 202, false],
    ['ok-text', 200, true],
  ] as const)('callControlResponse %s → %i', async (variant, status, hasBody) => {
    await t.control.updateConfig({ callControlResponse: variant });
    try {
      const response = await dial(alice, '+4930333');
      expect(response.status).toBe(status);
      expect(response.text === '').toBe(!hasBody);
      const call = (await t.control.calls()).at(-1)!;
      const ended = await hangup(alice, call.legs[0]!.id);
      expect(ended.status).toBe(status);
    } finally {
      await t.control.updateConfig({ callControlResponse: 'accepted' });
    }
  });

  it('callControlForbiddenBody empty → 403 without a body', async () => {
    await t.control.updateConfig({ callControlForbiddenBody: 'empty' });
    try {
      const response = await dial(alice, '+4930444', '202');
      expect(response.status).toBe(403);
      expect(response.text).toBe('');
    } finally {
      await t.control.updateConfig({ callControlForbiddenBody: 'drf' });
    }
  });

  it('no events for a user whose integration is not active', async () => {
    const carol = t.api(await t.token('203'));
    const { call_id } = (await dial(carol, '+4930555', '203')).json as { call_id: string };
    await t.control.webhooksSettled();
    expect(eventsOf(call_id, '203')).toEqual([]);
    expect(
      (await t.control.webhooks()).deliveries.some(
        (delivery) => delivery.event.call_id === call_id,
      ),
    ).toBe(false);
  });
});

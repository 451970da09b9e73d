/**
 * The simulator's profiles: 'minimal' gives, wherever the contract says "not shown", the least a
 * client may count on (events `{"id"}` only, call control 202 with an empty body and an empty 403,
 * form-encoded activation calls, page_size capped at 100, 120/60 s and 10/60 s); 'rich' stays the
 * default; explicit options override a profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../simulator/index';
import { completePortalFlow } from '../../../simulator/portal-driver';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { type Api } from '../../support/raw-api';
import { startReceiver, type Receiver } from '../../support/integrator-receiver';
import { until } from '../../support/until';

const CALL_CONTROL = '/v3/call_control/';

describe('the minimal profile', () => {
  let t: TestSim;
  let receiver: Receiver;
  let alice: Api;
  let bob: Api;
  const dial = (api: Api, extension: string, destination = '+49 30 1234567') =>
    api.post(CALL_CONTROL, {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: extension },
      payload: { destination },
    });
  const hangup = (api: Api, extension: string, legId: string) =>
    api.post(CALL_CONTROL, {
      command: 'hangup',
      user: { tenant_id: t.sim.tenant_id, user_extension: extension },
      payload: { call_leg_id: legId },
    });

  beforeAll(async () => {
    t = await startTestSim({ profile: 'minimal', contacts: 150 });
    receiver = await startReceiver();
    // No encoding named: the profile decides.
    await t.control.putIntegration('callbar', {
      activation_url: `${receiver.url}/activate`,
      deactivation_url: `${receiver.url}/deactivate`,
      webhook_url: `${receiver.url}/events`,
    });
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
  });
  afterAll(async () => {
    await t.sim.close();
    await receiver.close();
  });
  it('names itself and starts with its choices', async () => {
    expect(t.sim.profile).toBe('minimal');
    expect(await t.control.config()).toMatchObject({
      profile: 'minimal',
      callEventPayload: 'id-only',
      tokenAnswerScope: false,
      callControlResponse: 'accepted-empty',
      callControlForbiddenBody: 'empty',
      maxPageSize: 100,
    });
    expect(await t.control.rateLimits()).toEqual({
      phonebook: { limit: 120, window_seconds: 60 },
      'call-control': { limit: 10, window_seconds: 60 },
    });
  });

  it('sends the activation call form-encoded, with exactly the contract’s fields', async () => {
    const user = t.sim.users[0]!;
    const link = `${t.sim.portal_url}/integrations/callbar/activate?confirmation_key=k1&redirect_url=${encodeURIComponent('http://127.0.0.1:9/done')}`;
    const result = await completePortalFlow(link, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(result.status).toBe(303);
    const activation = receiver.requests.find((request) => request.path === '/activate')!;
    expect(activation.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const fields = new URLSearchParams(activation.body);
    expect([...fields.keys()].sort()).toEqual([
      'access_token',
      'confirmation_key',
      'refresh_token',
      'tenant_id',
      'user_extension',
    ]);
    expect(fields.get('confirmation_key')).toBe('k1');
  });

  it('answers a refresh with the contract’s four token fields only', async () => {
    const pair = await t.control.issueTokens({ tenant_id: t.sim.tenant_id, user_extension: '203' });
    const response = await t.refresh(pair.refresh_token);
    expect(response.status).toBe(200);
    expect(Object.keys((await response.json()) as object).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
  });

  it('answers click-to-dial and hangup with 202 and an empty body; a call event is {"id"} only', async () => {
    await t.control.clearWebhooks();
    receiver.requests.length = 0;
    const dialed = await dial(alice, '201');
    expect(dialed.status).toBe(202);
    expect(dialed.text).toBe('');
    const [call] = (await t.control.calls()).slice(-1);
    const ownLeg = call!.legs[0]!;
    const event = await until('the event delivery', () =>
      receiver.requests.find((request) => request.path === '/events'),
    );
    expect(event.headers['content-type']).toBe('application/json');
    expect(JSON.parse(event.body)).toEqual({ id: ownLeg.id });
    // The control API still shows what happened, next to what was sent.
    const log = await t.control.webhooksSettled();
    expect(log.deliveries[0]).toMatchObject({
      event: { id: ownLeg.id, event: 'ringing', call_id: call!.id },
      sent: { id: ownLeg.id },
    });

    const hungUp = await hangup(alice, '201', ownLeg.id);
    expect(hungUp.status).toBe(202);
    expect(hungUp.text).toBe('');
    expect((await t.control.getCall(call!.id)).state).toBe('ended');
  });

  it('answers a refused hangup with 403 and no body', async () => {
    expect((await dial(alice, '201')).status).toBe(202);
    const [call] = (await t.control.calls()).slice(-1);
    const refused = await hangup(bob, '202', call!.legs[0]!.id);
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
  });

  it('caps page_size at 100 silently, and the next link still works', async () => {
    const first = await alice.get('/v3/phonebook/contact/?page_size=1000');
    expect(first.status).toBe(200);
    const page = first.json as { count: number; next: string | null; results: unknown[] };
    expect(page.count).toBeGreaterThan(100);
    expect(page.results).toHaveLength(100);
    expect(page.next).not.toBeNull();
    const next = await alice.get(new URL(page.next!).pathname + new URL(page.next!).search);
    expect((next.json as { results: unknown[] }).results).toHaveLength(page.count - 100);
  });

  it('throttles call control after 10 in 60 s and phonebooks after 120; the clock frees them', async () => {
    await t.control.advanceClock(61);
    for (let i = 0; i < 10; i++) expect((await dial(bob, '202')).status).toBe(202);
    const throttled = await dial(bob, '202');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);

    for (let i = 0; i < 120; i++)
      expect((await bob.get('/v3/phonebook/phonebook/')).status).toBe(200);
    expect((await bob.get('/v3/phonebook/phonebook/')).status).toBe(429);

    await t.control.advanceClock(61);
    expect((await dial(bob, '202')).status).toBe(202);
    expect((await bob.get('/v3/phonebook/phonebook/')).status).toBe(200);
  });
});

describe('the variant profile (another implementation’s choices, issues 26 and 39)', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim({ profile: 'variant', contacts: 120 });
  });
  afterAll(() => t.sim.close());

  it('starts with its choices: 204 click-to-dial, pages of 50 at most, 60/60 s for both scopes, DRF 403s', async () => {
    expect(await t.control.config()).toMatchObject({
      profile: 'variant',
      callEventPayload: 'id-sequence',
      callEventDelivery: 'out-of-order',
      tokenAnswerScope: false,
      callControlResponse: 'empty',
      maxPageSize: 50,
      pageSizeAboveMax: 'refuse',
      orderingTies: 'unordered',
      nextLinks: 'query-only',
      deactivationTokens: 'null',
      authFailure: '403-not_authenticated',
      uniqueNumberError: 'non_field_errors',
      activationCalls: 2,
    });
    expect(await t.control.rateLimits()).toEqual({
      phonebook: { limit: 60, window_seconds: 60 },
      'call-control': { limit: 60, window_seconds: 60 },
    });
    const alice = t.api(await t.token('201'));
    // A page_size above the maximum is refused the way a serializer validating the query says it.
    const refused = await alice.get('/v3/phonebook/contact/?page_size=1000');
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'max_value',
          detail: 'Ensure this value is less than or equal to 50.',
          attr: 'page_size',
        },
      ],
    });
    // Pages link to the next as a query alone, relative to the page that carries it.
    const page = (await alice.get('/v3/phonebook/contact/?page_size=50&ordering=number')).json as {
      results: unknown[];
      next: string;
    };
    expect(page.results).toHaveLength(50);
    expect(page.next).toBe('?ordering=number&page=2&page_size=50');
    const dialled = await alice.post(CALL_CONTROL, {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { destination: '+49 30 1234567' },
    });
    expect(dialled.status).toBe(204);
    const unknownToken = await t.api('not-a-token').get('/v3/phonebook/contact/');
    expect(unknownToken.status).toBe(403);
    expect(unknownToken.headers.get('www-authenticate')).toBeNull();
  });

  it('sends the deactivation without tokens, and a call’s events {id, sequence} last first, twice', async () => {
    const receiver = await startReceiver();
    try {
      await t.control.putIntegration('callbar', {
        activation_url: `${receiver.url}/activate`,
        deactivation_url: `${receiver.url}/deactivate`,
        webhook_url: `${receiver.url}/events`,
      });
      const user = t.sim.users[0]!;
      const link = `${t.sim.portal_url}/integrations/callbar/activate?confirmation_key=k9&redirect_url=${encodeURIComponent('http://127.0.0.1:9/done')}`;
      const flow = { username: user.username, password: user.password };
      expect((await completePortalFlow(link, { ...flow, action: 'subscribe' })).status).toBe(303);

      const incoming = await t.control.incomingCall({
        tenant_id: t.sim.tenant_id,
        user_extension: user.extension,
        from: '+12025550199',
      });
      await t.control.webhooksSettled();
      const events = receiver.requests
        .filter((request) => request.path === '/events')
        .map((request) => JSON.parse(request.body) as { id: string; sequence: number });
      const [caller, callee] = incoming.legs;
      // The platform made the caller's leg first (sequence 1): it arrives last, and all twice.
      expect(events).toEqual([
        { id: callee!.id, sequence: 2 },
        { id: caller!.id, sequence: 1 },
        { id: callee!.id, sequence: 2 },
        { id: caller!.id, sequence: 1 },
      ]);

      expect((await completePortalFlow(link, { ...flow, action: 'unsubscribe' })).status).toBe(303);
      const deactivation = receiver.requests.find((request) => request.path === '/deactivate')!;
      // Null tokens, which a form cannot carry: left out.
      expect([...new URLSearchParams(deactivation.body).keys()].sort()).toEqual([
        'confirmation_key',
        'tenant_id',
        'user_extension',
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('orders ties anew at every query, and a list without ordering by display_name', async () => {
    const alice = t.api(await t.token('201'));
    const ids = async (query: string) =>
      (
        (await alice.get(`/v3/phonebook/contact/?page_size=50&${query}`)).json as {
          results: { id: number; display_name: string; phonebook: number }[];
        }
      ).results;
    const byName = await ids('');
    const names = byName.map((contact) => contact.display_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    // Ordered by phonebook alone, 120 contacts in a handful of phonebooks are all but all ties:
    // two queries give the first page in different orders.
    const first = (await ids('ordering=phonebook')).map((contact) => contact.id);
    let differs = false;
    for (let attempt = 0; attempt < 5 && !differs; attempt++) {
      const again = (await ids('ordering=phonebook')).map((contact) => contact.id);
      differs = again.join() !== first.join();
    }
    expect(differs).toBe(true);
    // A unique key leaves no ties: the same order every time.
    const once = (await ids('ordering=phonebook,number')).map((contact) => contact.id);
    expect((await ids('ordering=phonebook,number')).map((contact) => contact.id)).toEqual(once);
  });
});

describe('profiles and options', () => {
  it('rich is the default and keeps today’s behaviour', async () => {
    const t = await startTestSim({ contacts: 5 });
    try {
      expect(t.sim.profile).toBe('rich');
      expect(await t.control.config()).toMatchObject({
        profile: 'rich',
        callEventPayload: 'full',
        tokenAnswerScope: true,
        callControlResponse: 'accepted',
        callControlForbiddenBody: 'drf',
        maxPageSize: 1000,
      });
      expect(await t.control.rateLimits()).toEqual({
        phonebook: { limit: 600, window_seconds: 60 },
        'call-control': { limit: 60, window_seconds: 60 },
      });
      const registered = await t.control.putIntegration('callbar', {
        activation_url: 'http://127.0.0.1:9/a',
        deactivation_url: 'http://127.0.0.1:9/d',
      });
      expect(registered.encoding).toBe('json');
    } finally {
      await t.sim.close();
    }
  });

  it('explicit options override the profile’s choices', async () => {
    const t = await startTestSim({
      profile: 'minimal',
      contacts: 5,
      callControlResponse: 'accepted',
      maxPageSize: 7,
      rateLimits: { phonebook: { limit: 5, window_seconds: 1 } },
      integrations: {
        callbar: {
          activation_url: 'http://127.0.0.1:9/a',
          deactivation_url: 'http://127.0.0.1:9/d',
          encoding: 'json',
        },
      },
    });
    try {
      expect(await t.control.config()).toMatchObject({
        profile: 'minimal',
        callEventPayload: 'id-only',
        callControlResponse: 'accepted',
        maxPageSize: 7,
      });
      expect(await t.control.rateLimits()).toEqual({
        phonebook: { limit: 5, window_seconds: 1 },
        'call-control': { limit: 10, window_seconds: 60 },
      });
      expect((await t.control.integration('callbar')).encoding).toBe('json');
      const alice = t.api(await t.token('201'));
      const dialed = await alice.post(CALL_CONTROL, {
        command: 'click-to-dial',
        user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
        payload: { destination: '202' },
      });
      expect(Object.keys(dialed.json as object).sort()).toEqual(['call_id', 'call_leg_id']);
      // The event payload can be switched while it runs, like the other runtime settings.
      expect((await t.control.updateConfig({ callEventPayload: 'full' })).callEventPayload).toBe(
        'full',
      );
    } finally {
      await t.sim.close();
    }
  });

  it('refuses an unknown profile', async () => {
    await expect(startSimulator({ profile: 'lavish' as 'rich' })).rejects.toThrow(
      /unknown profile "lavish"/,
    );
  });
});

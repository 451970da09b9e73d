/**
 * Rate limits per scope ("phonebook", "call-control") and per user, on the simulator clock:
 * 429 with Retry-After and DRF's throttled body (contract 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { type Api } from '../../support/raw-api';

describe('rate limits', () => {
  let t: TestSim;
  let alice: Api;
  let bob: Api;
  const dial = (api: Api, extension: string) =>
    api.post('/v3/call_control/', {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: extension },
      payload: { destination: '+4930123' },
    });

  beforeAll(async () => {
    t = await startTestSim({
      contacts: 5,
      rateLimits: {
        phonebook: { limit: 3, window_seconds: 60 },
        'call-control': { limit: 2, window_seconds: 10 },
      },
    });
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
  });
  afterAll(() => t.sim.close());

  it('starts with the configured limits', async () => {
    expect(await t.control.rateLimits()).toEqual({
      phonebook: { limit: 3, window_seconds: 60 },
      'call-control': { limit: 2, window_seconds: 10 },
    });
  });

  it('the phonebook scope: over the limit → 429 with Retry-After and a throttled body; per user; resets with time', async () => {
    for (let i = 0; i < 3; i++)
      expect((await alice.get('/v3/phonebook/phonebook/')).status).toBe(200);
    const throttled = await alice.get('/v3/phonebook/contact/');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('60');
    expect(throttled.json).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'throttled',
          detail: 'Request was throttled. Expected available in 60 seconds.',
          attr: null,
        },
      ],
    });
    // Another user has their own budget; the other scope is untouched.
    expect((await bob.get('/v3/phonebook/phonebook/')).status).toBe(200);
    expect((await dial(alice, '201')).status).toBe(202);
    await t.control.advanceClock(45);
    const later = await alice.get('/v3/phonebook/phonebook/');
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('15');
    await t.control.advanceClock(16);
    expect((await alice.get('/v3/phonebook/phonebook/')).status).toBe(200);
  });

  it('the call-control scope has its own limit', async () => {
    await t.control.advanceClock(60);
    expect((await dial(bob, '202')).status).toBe(202);
    expect((await dial(bob, '202')).status).toBe(202);
    const third = await dial(bob, '202');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    const log = await t.control.requests();
    expect(log.at(-1)).toMatchObject({
      path: '/v3/call_control/',
      status: 429,
      scope: 'call-control',
    });
  });

  it('limits can be changed at run time (and the history is forgotten)', async () => {
    await t.control.setRateLimits({ phonebook: { limit: 1, window_seconds: 5 } });
    expect((await bob.get('/v3/phonebook/phonebook/')).status).toBe(200);
    const throttled = await bob.get('/v3/phonebook/phonebook/');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('5');
    expect((await t.control.rateLimits()).phonebook).toEqual({ limit: 1, window_seconds: 5 });
  });

  it('throttling comes after authentication: no token is still 401', async () => {
    expect((await t.api().get('/v3/phonebook/phonebook/')).status).toBe(401);
  });
});

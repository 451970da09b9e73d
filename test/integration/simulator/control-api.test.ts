/**
 * The control API and the simulator's life cycle: clock, tokens, the world (deterministic from
 * the seed, with every object the contract's rules need), the request log, integrations, config,
 * start options and close().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { type ContactBody, type Page } from '../../support/raw-api';

async function allContacts(t: TestSim): Promise<ContactBody[]> {
  const response = await t.api(await t.token('201')).get('/v3/phonebook/contact/?page_size=1000');
  return (response.json as Page<ContactBody>).results;
}

describe('control API', () => {
  let t: TestSim;

  beforeAll(async () => {
    t = await startTestSim({ contacts: 40 });
  });
  afterAll(() => t.sim.close());

  it('the info object has the fixed shape', () => {
    expect(t.sim.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.sim.portal_url).toBe(`${t.sim.base_url}/portal`);
    expect(t.sim.tenant_id).toBe('acme-7f3a');
    expect(t.sim.client_id.length).toBeGreaterThan(0);
    expect(t.sim.client_secret.length).toBeGreaterThan(0);
    expect(t.sim.users.map((user) => `${user.extension}:${user.username}`)).toEqual([
      '201:alice',
      '202:bob',
      '203:carol',
    ]);
    expect(t.sim.users.every((user) => user.password.length > 0)).toBe(true);
  });

  it('clock: read, advance, set', async () => {
    const { now } = await t.control.clock();
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(5000);
    const advanced = await t.control.advanceClock(3600);
    expect(Date.parse(advanced.now) - Date.parse(now)).toBeGreaterThanOrEqual(3600_000);
    const set = await t.control.setClock('2030-01-02T03:04:05.000Z');
    expect(Math.abs(Date.parse(set.now) - Date.parse('2030-01-02T03:04:05.000Z'))).toBeLessThan(
      5000,
    );
    await t.control.setClock(new Date());
  });

  it('issues tokens without the portal', async () => {
    const pair = await t.control.issueTokens({ tenant_id: t.sim.tenant_id, user_extension: '203' });
    expect(pair).toMatchObject({ expires_in: 86400, token_type: 'Bearer' });
    expect((await t.api(pair.access_token).get('/v3/phonebook/phonebook/')).status).toBe(200);
  });

  it('the world has users, roles, devices, a queue, a flow, voicemail boxes and a second tenant', async () => {
    const world = await t.control.world();
    expect(world.tenants.map((tenant) => tenant.id)).toEqual(['acme-7f3a', 'globex-19c2']);
    expect(
      world.users.filter((user) => user.can_view_all_phonebooks).map((user) => user.username),
    ).toEqual(['alice']);
    // Extensions are unique only inside a tenant.
    expect(world.users.filter((user) => user.extension === '201')).toHaveLength(2);
    expect(
      world.phonebooks.some((p) => p.is_shared) && world.phonebooks.some((p) => !p.is_shared),
    ).toBe(true);
    expect(world.phonebooks.some((p) => p.device_ids.length > 0)).toBe(true);
    expect(world.call_queues[0]!.contact_ids.length).toBeGreaterThan(0);
    expect(world.call_flows[0]!.contact_ids.length).toBeGreaterThan(0);
    expect(world.voicemail_boxes.length).toBeGreaterThan(0);
    expect(world.contact_count).toBe(43);
  });

  it('the world is deterministic from the seed', async () => {
    const same = await startTestSim({ contacts: 40 });
    const other = await startTestSim({ contacts: 40, seed: 2 });
    try {
      const [a, b, c] = await Promise.all([allContacts(t), allContacts(same), allContacts(other)]);
      expect(a).toHaveLength(40);
      expect(b).toEqual(a);
      expect(c).not.toEqual(a);
      const numbers = a.map((contact) => contact.number);
      expect(numbers.some((n) => /^\+\d+$/.test(n))).toBe(true);
      expect(numbers.some((n) => /^0\d/.test(n))).toBe(true);
    } finally {
      await Promise.all([same.sim.close(), other.sim.close()]);
    }
  });

  it('the request log records platform requests (not control ones) with secrets redacted', async () => {
    await t.control.clearRequests();
    const token = await t.token('201');
    const api = t.api(token);
    await api.get('/v3/phonebook/contact/?search=anna&page=1');
    await api.post('/v3/call_control/', {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { destination: '+4930555' },
    });
    await api.post('/v3/call_control/', {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { destination: '+4930556' },
    });
    const log = await t.control.requests();
    expect(
      log.map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.scope}`),
    ).toEqual([
      'GET /v3/phonebook/contact/ 200 phonebook',
      'POST /v3/call_control/ 202 call-control',
      'POST /v3/call_control/ 202 call-control',
    ]);
    expect(log[0]!.query).toEqual({ search: 'anna', page: '1' });
    expect(log[1]!.body).toEqual({
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { destination: '+4930555' },
    });
    expect(log[1]!.seq).toBeGreaterThan(log[0]!.seq);
    expect(JSON.stringify(log)).not.toContain(token);
    await t.control.clearRequests();
    expect(await t.control.requests()).toEqual([]);
  });

  it('calls are listed with their legs', async () => {
    const calls = await t.control.calls();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.at(-1)!.legs[0]).toMatchObject({
      leg: 'caller',
      state: 'ringing',
      user_extension: '201',
    });
    await expect(t.control.answerLeg('leg_nope')).rejects.toMatchObject({ status: 404 });
    const leg = calls.at(-1)!.legs[0]!.id;
    await t.control.endLeg(leg);
    await expect(t.control.answerLeg(leg)).rejects.toMatchObject({ status: 409 });
  });

  it('integrations are registered and read back; config is patched', async () => {
    const state = await t.control.putIntegration('other-crm', {
      activation_url: 'http://127.0.0.1:1/a',
      deactivation_url: 'http://127.0.0.1:1/d',
    });
    expect(state).toMatchObject({
      slug: 'other-crm',
      webhook_url: null,
      encoding: 'json',
      extra_headers: {},
      activations: [],
      attempts: [],
    });
    expect((await t.control.integrations()).map((each) => each.slug)).toContain('other-crm');
    await expect(t.control.integration('unknown')).rejects.toMatchObject({ status: 404 });
    const config = await t.control.updateConfig({ autoAnswer: true });
    expect(config.autoAnswer).toEqual({
      userAnswerMs: 1500,
      destinationAnswerMs: 2500,
      hangupAfterMs: 30_000,
    });
    expect((await t.control.updateConfig({ autoAnswer: false })).autoAnswer).toBeNull();
  });
});

describe('start options and close()', () => {
  it('registers integrations given at start', async () => {
    const sim = await startSimulator({
      contacts: 0,
      integrations: {
        callbar: {
          activation_url: 'http://127.0.0.1:1/a',
          deactivation_url: 'http://127.0.0.1:1/d',
          encoding: 'form',
          extra_headers: { 'X-A': 'b' },
        },
      },
    });
    try {
      const state = await new SimControl(sim.base_url).integration('callbar');
      expect(state).toMatchObject({ encoding: 'form', extra_headers: { 'X-A': 'b' } });
    } finally {
      await sim.close();
    }
  });

  it('refuses more contacts than the speed-dial space holds, and bad options', async () => {
    await expect(startSimulator({ contacts: 9000 })).rejects.toThrow(/speed dial/);
    await expect(startSimulator({ port: -1 })).rejects.toThrow(RangeError);
    await expect(
      startSimulator({
        integrations: {
          'Not A Slug': { activation_url: 'http://x/a', deactivation_url: 'http://x/d' },
        },
      }),
    ).rejects.toThrow(/slug/);
  });

  it('close() stops the server (idempotently) even with auto-answer timers and open connections', async () => {
    const sim = await startSimulator({ contacts: 0, autoAnswer: { userAnswerMs: 60_000 } });
    const control = new SimControl(sim.base_url);
    const { access_token } = await control.issueTokens({
      tenant_id: sim.tenant_id,
      user_extension: '201',
    });
    const response = await fetch(`${sim.base_url}/v3/call_control/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        command: 'click-to-dial',
        user: { tenant_id: sim.tenant_id, user_extension: '201' },
        payload: { destination: '2222' },
      }),
    });
    expect(response.status).toBe(202);
    // A request left waiting on a long delay fault must not hold close() up.
    await control.addFault({ path: '/v3/', delay_ms: 60_000 });
    const hanging = fetch(`${sim.base_url}/v3/phonebook/phonebook/`).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([sim.close(), sim.close()]);
    expect(await hanging).toBeInstanceOf(Error);
    await expect(fetch(`${sim.base_url}/__sim/clock`)).rejects.toThrow();
  });
});

/**
 * Injected faults: status (with body), delay, connection reset before and after processing,
 * malformed bodies, probability, count, method and path matching — and the request log's record
 * of each.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimControlError } from '../../../simulator/control-client';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { type Api } from '../../support/raw-api';

describe('faults', () => {
  let t: TestSim;
  let alice: Api;
  const PHONEBOOKS = '/v3/phonebook/phonebook/';
  const dial = () =>
    alice.post('/v3/call_control/', {
      command: 'click-to-dial',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { destination: '+4930123' },
    });

  beforeAll(async () => {
    t = await startTestSim({ contacts: 5 });
    alice = t.api(await t.token('201'));
  });
  afterEach(() => t.control.clearFaults());
  afterAll(() => t.sim.close());

  it('status: answers with it (DRF-style body by default), count makes it disappear', async () => {
    const fault = await t.control.addFault({ path: PHONEBOOKS, status: 503, count: 1 });
    expect(fault).toMatchObject({
      id: expect.any(String) as string,
      remaining: 1,
      when: 'before',
      match: 'prefix',
    });
    const failed = await alice.get(PHONEBOOKS);
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({ type: 'server_error', errors: [{ code: 'error' }] });
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
    expect(await t.control.faults()).toEqual([]);
  });

  it('status with a custom body and headers; a 429 gets a Retry-After', async () => {
    await t.control.addFault({
      path: PHONEBOOKS,
      status: 502,
      body: '<html>Bad gateway</html>',
      headers: { 'content-type': 'text/html' },
      count: 1,
    });
    const html = await alice.get(PHONEBOOKS);
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toBe('<html>Bad gateway</html>');
    await t.control.addFault({ path: PHONEBOOKS, status: 429, count: 1 });
    const throttled = await alice.get(PHONEBOOKS);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
  });

  it('count: applies N times, then the route works again', async () => {
    await t.control.addFault({ method: 'GET', path: PHONEBOOKS, status: 500, count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await alice.get(PHONEBOOKS)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('method and path matching: prefix by default, exact on request', async () => {
    await t.control.addFault({ method: 'POST', path: '/v3/phonebook/', status: 500 });
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
    expect((await alice.post(PHONEBOOKS, {})).status).toBe(500);
    await t.control.clearFaults();
    await t.control.addFault({ path: '/v3/phonebook/contact/', match: 'exact', status: 500 });
    expect((await alice.get('/v3/phonebook/contact/')).status).toBe(500);
    expect((await alice.get('/v3/phonebook/contact/1/')).status).toBe(200);
  });

  it('delay: the answer comes late but whole', async () => {
    await t.control.addFault({ path: PHONEBOOKS, delay_ms: 250, count: 1 });
    const started = Date.now();
    const response = await alice.get(PHONEBOOKS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(response.status).toBe(200);
  });

  it('reset before: the connection drops and nothing is processed', async () => {
    await t.control.clearRequests();
    await t.control.addFault({ method: 'POST', path: PHONEBOOKS, reset: true, count: 1 });
    await expect(
      alice.post(PHONEBOOKS, { description: 'Never made', priority: 1, is_shared: true }),
    ).rejects.toThrow();
    const list = (await alice.get(`${PHONEBOOKS}?search=Never`)).json as { count: number };
    expect(list.count).toBe(0);
    const log = await t.control.requests();
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: PHONEBOOKS,
      status: null,
      fault: { when: 'before', effects: ['reset'] },
    });
  });

  it('reset after: the call is placed but the reply is lost', async () => {
    await t.control.clearRequests();
    const before = (await t.control.calls()).length;
    await t.control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      reset: true,
      when: 'after',
      count: 1,
    });
    await expect(dial()).rejects.toThrow();
    const calls = await t.control.calls();
    expect(calls).toHaveLength(before + 1);
    expect(calls.at(-1)).toMatchObject({ kind: 'click-to-dial', from: '201', to: '+4930123' });
    const log = (await t.control.requests()).filter((entry) => entry.path === '/v3/call_control/');
    expect(log).toEqual([
      expect.objectContaining({
        status: null,
        fault: expect.objectContaining({
          when: 'after',
          effects: ['reset'],
          original_status: 202,
        }) as unknown,
      }),
    ]);
  });

  it('malformed before: 200 with a body that is not JSON; malformed after: the change is made', async () => {
    await t.control.addFault({ path: PHONEBOOKS, malformed: true, count: 1 });
    const broken = await alice.get(PHONEBOOKS);
    expect(broken.status).toBe(200);
    expect(broken.headers.get('content-type')).toBe('application/json');
    expect(() => JSON.parse(broken.text) as unknown).toThrow();
    await t.control.addFault({
      method: 'POST',
      path: PHONEBOOKS,
      malformed: true,
      when: 'after',
      count: 1,
    });
    const created = await alice.post(PHONEBOOKS, {
      description: 'Made anyway',
      priority: 1,
      is_shared: true,
    });
    expect(created.status).toBe(200);
    expect(created.json).toBeUndefined();
    expect(created.text.length).toBeGreaterThan(0);
    expect(((await alice.get(`${PHONEBOOKS}?search=anyway`)).json as { count: number }).count).toBe(
      1,
    );
  });

  it('status after: the request takes effect, the client sees the error', async () => {
    await t.control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      status: 504,
      when: 'after',
      count: 1,
    });
    const before = (await t.control.calls()).length;
    expect((await dial()).status).toBe(504);
    expect(await t.control.calls()).toHaveLength(before + 1);
  });

  it('delay after: processed first, answered late', async () => {
    await t.control.addFault({
      method: 'POST',
      path: '/v3/call_control/',
      delay_ms: 200,
      when: 'after',
      count: 1,
    });
    const before = (await t.control.calls()).length;
    const pending = dial();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await t.control.calls()).toHaveLength(before + 1);
    expect((await pending).status).toBe(202);
  });

  it('probability: some requests fail, some do not (seeded); 0 never, 1 always', async () => {
    await t.control.addFault({ path: PHONEBOOKS, status: 500, probability: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await alice.get(PHONEBOOKS)).status);
    expect(statuses.filter((status) => status === 500).length).toBeGreaterThan(5);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(5);
    await t.control.clearFaults();
    await t.control.addFault({ path: PHONEBOOKS, status: 500, probability: 0 });
    for (let i = 0; i < 5; i++) expect((await alice.get(PHONEBOOKS)).status).toBe(200);
    await t.control.clearFaults();
    await t.control.addFault({ path: PHONEBOOKS, status: 500, probability: 1 });
    for (let i = 0; i < 5; i++) expect((await alice.get(PHONEBOOKS)).status).toBe(500);
  });

  it('faults reach the token endpoint and the portal too, never the control API', async () => {
    await t.control.addFault({ path: '/', status: 500 });
    expect((await fetch(`${t.sim.base_url}/v3/oauth/token/`, { method: 'POST' })).status).toBe(500);
    expect((await fetch(`${t.sim.portal_url}/login/`)).status).toBe(500);
    expect((await t.control.clock()).now).toEqual(expect.any(String));
  });

  it('a single fault can be removed by id', async () => {
    const fault = await t.control.addFault({ path: PHONEBOOKS, status: 500 });
    await t.control.removeFault(fault.id);
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
    await expect(t.control.removeFault(fault.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a fault spec with a typo, without an effect, or with bad values', async () => {
    for (const spec of [
      { path: PHONEBOOKS, delayMs: 100 },
      { path: PHONEBOOKS },
      { path: 'no-slash', status: 500 },
      { path: PHONEBOOKS, status: 999 },
      { path: PHONEBOOKS, status: 500, probability: 2 },
      { path: PHONEBOOKS, status: 500, when: 'during' },
    ]) {
      const error = await t.control.addFault(spec as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SimControlError);
      expect((error as SimControlError).status).toBe(400);
      expect((error as SimControlError).body).toMatchObject({ type: 'validation_error' });
    }
    expect(await t.control.faults()).toEqual([]);
  });
});

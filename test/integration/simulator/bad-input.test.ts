/**
 * Bad input to the simulator itself never crashes or hangs it: bad JSON, huge bodies, wrong
 * media types, non-object bodies, unknown fields and methods, garbage on the socket — each
 * answered with a DRF-style 4xx, and the server keeps serving.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { errorKeys, type Api } from '../../support/raw-api';

describe('bad input', () => {
  let t: TestSim;
  let alice: Api;
  const PHONEBOOKS = '/v3/phonebook/phonebook/';

  beforeAll(async () => {
    t = await startTestSim({ contacts: 5 });
    alice = t.api(await t.token('201'));
  });
  afterAll(() => t.sim.close());

  it('invalid JSON → 400 client_error/parse_error/null', async () => {
    const response = await alice.request('POST', PHONEBOOKS, {
      raw: '{"description": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(errorKeys(response)).toEqual(['client_error/parse_error/null']);
    expect((response.json as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(
      /^JSON parse error - /,
    );
  });

  it('a body over 1 MiB → 413, and the server goes on serving', async () => {
    const huge = JSON.stringify({
      description: 'x'.repeat(1024 * 1024 + 10),
      priority: 1,
      is_shared: true,
    });
    const response = await alice.request('POST', PHONEBOOKS, {
      raw: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(errorKeys(response)).toEqual(['client_error/request_too_large/null']);
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
    const control = await fetch(`${t.sim.base_url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge,
    });
    expect(control.status).toBe(413);
  });

  it('a body that is not an object → non_field_errors; JSON null → null', async () => {
    const list = await alice.post(PHONEBOOKS, [1, 2]);
    expect(list.json).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'invalid',
          detail: 'Invalid data. Expected a dictionary, but got list.',
          attr: 'non_field_errors',
        },
      ],
    });
    expect(errorKeys(await alice.post(PHONEBOOKS, 'text'))).toEqual([
      'validation_error/invalid/non_field_errors',
    ]);
    expect(errorKeys(await alice.post(PHONEBOOKS, null))).toEqual([
      'validation_error/null/non_field_errors',
    ]);
    expect(errorKeys(await alice.post('/v3/call_control/', 42))).toEqual([
      'validation_error/invalid/non_field_errors',
    ]);
  });

  it('unsupported media type → 415; no Content-Type at all → the body is ignored (DRF)', async () => {
    const text = await alice.request('POST', PHONEBOOKS, {
      raw: 'description=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(errorKeys(text)).toEqual(['client_error/unsupported_media_type/null']);
    const untyped = await alice.request('POST', PHONEBOOKS, {
      raw: new Blob(['{"description":"x","priority":1,"is_shared":true}']),
    });
    expect(untyped.status).toBe(400);
    expect(errorKeys(untyped)).toContain('validation_error/required/description');
  });

  it('unknown fields are ignored, wrong types are validation errors with attrs', async () => {
    const created = await alice.post(PHONEBOOKS, {
      description: 'With extras',
      priority: 1,
      is_shared: true,
      id: 999,
      created: 'now',
      nested: { a: [1] },
    });
    expect(created.status).toBe(201);
    expect((created.json as { id: number }).id).not.toBe(999);
    const wrong = await alice.post(PHONEBOOKS, {
      description: { a: 1 },
      priority: [1],
      is_shared: {},
    });
    expect(errorKeys(wrong).sort()).toEqual([
      'validation_error/invalid/description',
      'validation_error/invalid/is_shared',
      'validation_error/invalid/priority',
    ]);
  });

  it('unknown paths and methods → DRF-style 404 / 405', async () => {
    const unknown = await alice.get('/v3/nothing/here/');
    expect(unknown.status).toBe(404);
    expect(errorKeys(unknown)).toEqual(['client_error/not_found/null']);
    expect((await alice.get('/')).status).toBe(404);
    expect((await alice.get('/v3/phonebook/phonebook/%E0%A4%A/')).status).toBe(404);
    const weird = await alice.request('PROPFIND', PHONEBOOKS);
    expect(weird.status).toBe(405);
    expect(errorKeys(weird)).toEqual(['client_error/method_not_allowed/null']);
    const options = await alice.request('OPTIONS', PHONEBOOKS);
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toContain('GET');
  });

  it('odd query strings do not break listing', async () => {
    for (const query of [
      '?page_size=-5',
      '?page=1&page=2',
      '?ordering=,,,-,',
      '?search=%00%00',
      `?search=${'a'.repeat(5000)}`,
      '?phonebook=',
    ]) {
      const response = await alice.get(`${PHONEBOOKS}${query}`);
      expect([200, 404]).toContain(response.status);
      expect(response.json).toBeDefined();
    }
  });

  it('the control API answers bad input with 400s too', async () => {
    const post = (path: string, body: string) =>
      fetch(`${t.sim.base_url}/__sim/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const badJson = await post('clock/advance', '{');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({
      type: 'client_error',
      errors: [{ code: 'parse_error' }],
    });
    expect((await post('clock/advance', '{"seconds":"ten"}')).status).toBe(400);
    expect((await post('clock/advance', '{"seconds":1,"extra":true}')).status).toBe(400);
    expect((await post('clock/set', '{"now":"yesterday"}')).status).toBe(400);
    expect((await post('tokens', '{"tenant_id":"acme-7f3a"}')).status).toBe(400);
    expect((await post('tokens', '{"tenant_id":"acme-7f3a","user_extension":"999"}')).status).toBe(
      404,
    );
    expect((await post('calls/leg_nope/answer', '')).status).toBe(404);
    expect((await fetch(`${t.sim.base_url}/__sim/nothing`)).status).toBe(404);
    expect((await fetch(`${t.sim.base_url}/__sim/clock`, { method: 'DELETE' })).status).toBe(405);
    const put = await fetch(`${t.sim.base_url}/__sim/integrations/callbar`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        activation_url: '/relative',
        deactivation_url: 'http://127.0.0.1:1/d',
        extra_headers: { 'Bad Header': 'x' },
      }),
    });
    expect(put.status).toBe(400);
    expect(
      ((await put.json()) as { errors: { attr: string }[] }).errors.map((e) => e.attr).sort(),
    ).toEqual(['activation_url', 'extra_headers.Bad Header']);
  });

  it('garbage on the socket → 400 and the connection closes; the server keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.sim.base_url).port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write('THIS IS NOT HTTP\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
  });

  it('a client that disconnects mid-body does not hurt the server', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(t.sim.base_url).port), '127.0.0.1', () => {
        socket.write(
          `POST ${PHONEBOOKS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"desc`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 20);
      });
    });
    expect((await alice.get(PHONEBOOKS)).status).toBe(200);
  });
});

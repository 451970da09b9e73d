/**
 * Django REST Framework details the simulator reproduces, so a client is not tested against a
 * friendlier server than the platform: a repeated query parameter takes its last value (QueryDict),
 * an unknown phonebook filter is django-filter's 400, NUL characters and invalid UTF-8 are
 * refused, only application/json is JSON, and page links use the service's own base URL whatever
 * Host header the client sent.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { errorKeys, type Api, type Page } from '../../support/raw-api';

const PHONEBOOKS = '/v3/phonebook/phonebook/';
const CONTACTS = '/v3/phonebook/contact/';

describe('DRF fidelity', () => {
  let t: TestSim;
  let alice: Api;
  let bob: Api;

  beforeAll(async () => {
    t = await startTestSim({ contacts: 30 });
    alice = t.api(await t.token('201'));
    bob = t.api(await t.token('202'));
  });
  afterAll(() => t.sim.close());

  it('a repeated query parameter takes the last value, as Django’s QueryDict does', async () => {
    const page = (await alice.get(`${PHONEBOOKS}?page_size=1&page_size=3`)).json as Page<unknown>;
    expect(page.results).toHaveLength(3);
    const ordered = (await alice.get(`${PHONEBOOKS}?ordering=description&ordering=-description`))
      .json as Page<{ description: string }>;
    const descriptions = ordered.results.map((phonebook) => phonebook.description);
    expect(descriptions).toEqual(
      [...descriptions].sort((a, b) => b.localeCompare(a, 'en', { sensitivity: 'variant' })),
    );
    const second = (await alice.get(`${PHONEBOOKS}?page_size=2&page=3&page=2`))
      .json as Page<unknown>;
    expect(second.previous).toBe(`${t.sim.base_url}${PHONEBOOKS}?page_size=2`);
  });

  it('an unknown or invisible phonebook filter → 400 invalid_choice on phonebook (django-filter)', async () => {
    const world = await t.control.world();
    const bobsOwn = world.phonebooks.find((phonebook) => phonebook.description.startsWith('Bob'))!;
    const alicesOwn = world.phonebooks.find((phonebook) =>
      phonebook.description.startsWith('Alice'),
    )!;
    for (const [api, filter] of [
      [alice, '9999'],
      [alice, 'abc'],
      [bob, String(alicesOwn.id)],
    ] as const) {
      const response = await api.get(`${CONTACTS}?phonebook=${filter}`);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        type: 'validation_error',
        errors: [
          {
            code: 'invalid_choice',
            detail: 'Select a valid choice. That choice is not one of the available choices.',
            attr: 'phonebook',
          },
        ],
      });
    }
    expect((await bob.get(`${CONTACTS}?phonebook=${bobsOwn.id}`)).status).toBe(200);
    expect((await bob.get(`${CONTACTS}?phonebook=`)).status).toBe(200);
  });

  it('invalid UTF-8 in a JSON body → 400 parse_error; nothing is created', async () => {
    const before = (await alice.get(PHONEBOOKS)).json as Page<unknown>;
    const bytes = Buffer.concat([
      Buffer.from('{"description": "Caf'),
      Buffer.from([0xe9]),
      Buffer.from('", "priority": 1, "is_shared": true}'),
    ]);
    const response = await alice.request('POST', PHONEBOOKS, {
      raw: new Blob([bytes]),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(errorKeys(response)).toEqual(['client_error/parse_error/null']);
    expect(((await alice.get(PHONEBOOKS)).json as Page<unknown>).count).toBe(before.count);
  });

  it('NUL characters: raw in the JSON → parse_error; escaped in a field → null_characters_not_allowed', async () => {
    const raw = await alice.request('POST', PHONEBOOKS, {
      raw: '{"description": "a\u0000b", "priority": 1, "is_shared": true}',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(errorKeys(raw)).toEqual(['client_error/parse_error/null']);

    const escaped = await alice.post(PHONEBOOKS, {
      description: 'Null\u0000book',
      priority: 1,
      is_shared: true,
    });
    expect(escaped.status).toBe(400);
    expect(escaped.json).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'null_characters_not_allowed',
          detail: 'Null characters are not allowed.',
          attr: 'description',
        },
      ],
    });
    const dial = await alice.post('/v3/call_control/', {
      command: 'hangup',
      user: { tenant_id: t.sim.tenant_id, user_extension: '201' },
      payload: { call_leg_id: 'leg\u0000x' },
    });
    expect(errorKeys(dial)).toEqual([
      'validation_error/null_characters_not_allowed/payload.call_leg_id',
    ]);
  });

  it('application/*+json is not JSON to DRF’s parser → 415', async () => {
    const response = await alice.request('POST', PHONEBOOKS, {
      raw: JSON.stringify({ description: 'Vendor JSON', priority: 1, is_shared: true }),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(response.status).toBe(415);
    expect(errorKeys(response)).toEqual(['client_error/unsupported_media_type/null']);
  });

  it('next and previous use the service’s base URL, not the Host header the client sent', async () => {
    const { port } = new URL(t.sim.base_url);
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `${PHONEBOOKS}?page_size=2&page=2`,
          headers: { host: 'evil.example:666', authorization: `Bearer ${alice.token}` },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
      request.end();
    });
    const page = JSON.parse(body) as Page<unknown>;
    expect(page.next).toBe(`${t.sim.base_url}${PHONEBOOKS}?page=3&page_size=2`);
    expect(page.previous).toBe(`${t.sim.base_url}${PHONEBOOKS}?page_size=2`);
  });
});

/**
 * Token endpoint (contract 4.1, 5) and REST authentication: rotation, single use, client checks,
 * both encodings, expiry by the simulator clock, and the 401 bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness';

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope?: string;
}

describe('token endpoint and authentication', () => {
  let t: TestSim;
  const tokenUrl = () => `${t.sim.base_url}/v3/oauth/token/`;
  const issue = (extension = '201') =>
    t.control.issueTokens({ tenant_id: t.sim.tenant_id, user_extension: extension });
  const refreshForm = (refreshToken: string, overrides: Record<string, string> = {}) =>
    t.refresh(refreshToken, overrides);
  const refreshJson = (body: Record<string, unknown>) =>
    fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const phonebooks = (token: string) => t.api(token).get('/v3/phonebook/phonebook/');

  beforeAll(async () => {
    t = await startTestSim({ contacts: 10 });
  });
  afterAll(() => t.sim.close());

  it('refreshes with a form-encoded body: new pair, expires_in 86400, Bearer, no-store', async () => {
    const pair = await issue();
    const response = await refreshForm(pair.refresh_token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as TokenAnswer;
    expect(body).toMatchObject({ expires_in: 86400, token_type: 'Bearer', scope: 'read write' });
    expect(body.access_token).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(body.access_token).not.toBe(pair.access_token);
    expect(body.refresh_token).not.toBe(pair.refresh_token);
    expect((await phonebooks(body.access_token)).status).toBe(200);
  });

  it('refreshes with a JSON body too', async () => {
    const pair = await issue();
    const response = await refreshJson({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token,
      client_id: t.sim.client_id,
      client_secret: t.sim.client_secret,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as TokenAnswer).expires_in).toBe(86400);
  });

  it('accepts a JSON-shaped body sent with the form content type (the contract’s examples), secrets not logged', async () => {
    const pair = await issue();
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token,
        client_id: t.sim.client_id,
        client_secret: t.sim.client_secret,
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenAnswer;
    expect((await phonebooks(body.access_token)).status).toBe(200);
    const logged = JSON.stringify(await t.control.requests());
    expect(logged).not.toContain(pair.refresh_token);
    expect(logged).not.toContain(t.sim.client_secret);
  });

  it('accepts the client credentials as HTTP Basic', async () => {
    const pair = await issue();
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${t.sim.client_id}:${t.sim.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: pair.refresh_token }),
    });
    expect(response.status).toBe(200);
  });

  it('invalidates a used refresh token at once: reuse → 400 invalid_grant', async () => {
    const pair = await issue();
    expect((await refreshForm(pair.refresh_token)).status).toBe(200);
    const reused = await refreshForm(pair.refresh_token);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ error: 'invalid_grant' });
  });

  it('rotation chains: each new refresh token works exactly once', async () => {
    let refresh = (await issue()).refresh_token;
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await refreshForm(refresh);
      expect(response.status).toBe(200);
      const body = (await response.json()) as TokenAnswer;
      expect(seen.has(body.refresh_token)).toBe(false);
      seen.add(body.refresh_token);
      refresh = body.refresh_token;
    }
  });

  it('an unknown refresh token → 400 invalid_grant', async () => {
    const response = await refreshForm('not-a-token');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_grant' });
  });

  it('revokes the access token issued with the used refresh token (django-oauth-toolkit)', async () => {
    const pair = await issue();
    expect((await phonebooks(pair.access_token)).status).toBe(200);
    expect((await refreshForm(pair.refresh_token)).status).toBe(200);
    const old = await phonebooks(pair.access_token);
    expect(old.status).toBe(401);
    expect(old.json).toMatchObject({
      type: 'client_error',
      errors: [{ code: 'authentication_failed' }],
    });
  });

  it('wrong client secret → 401 invalid_client, and the refresh token is not spent', async () => {
    const pair = await issue();
    const wrong = await refreshForm(pair.refresh_token, { client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client' });
    const unknownClient = await refreshForm(pair.refresh_token, { client_id: 'someone-else' });
    expect(unknownClient.status).toBe(401);
    expect((await refreshForm(pair.refresh_token)).status).toBe(200);
  });

  it('grant_type other than refresh_token → 400 unsupported_grant_type', async () => {
    const pair = await issue();
    const response = await refreshForm(pair.refresh_token, { grant_type: 'password' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'unsupported_grant_type' });
    const missing = await refreshJson({
      refresh_token: pair.refresh_token,
      client_id: t.sim.client_id,
      client_secret: t.sim.client_secret,
    });
    expect(await missing.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  it('a missing refresh_token → 400 invalid_request', async () => {
    const response = await refreshJson({
      grant_type: 'refresh_token',
      client_id: t.sim.client_id,
      client_secret: t.sim.client_secret,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('only POST; the path needs its trailing slash', async () => {
    const get = await fetch(tokenUrl());
    expect(get.status).toBe(405);
    const noSlash = await fetch(`${t.sim.base_url}/v3/oauth/token`, { method: 'POST' });
    expect(noSlash.status).toBe(404);
  });

  it('no Authorization header → 401 not_authenticated with WWW-Authenticate: Bearer', async () => {
    const response = await t.api().get('/v3/phonebook/phonebook/');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(response.json).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        },
      ],
    });
    const notBearer = await t
      .api()
      .get('/v3/phonebook/phonebook/', { headers: { authorization: 'Token abc' } });
    expect(notBearer.status).toBe(401);
  });

  it('an unknown access token → 401 authentication_failed', async () => {
    const response = await t.api('made-up-token').get('/v3/phonebook/contact/');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.json).toMatchObject({
      type: 'client_error',
      errors: [{ code: 'authentication_failed', attr: null }],
    });
  });

  it('access tokens expire after 86400 simulated seconds; refresh tokens do not expire', async () => {
    const pair = await issue('202');
    await t.control.advanceClock(86_399);
    expect((await phonebooks(pair.access_token)).status).toBe(200);
    await t.control.advanceClock(2);
    const expired = await phonebooks(pair.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('Bearer');
    expect(expired.json).toEqual({
      type: 'client_error',
      errors: [{ code: 'authentication_failed', detail: 'Token has expired.', attr: null }],
    });
    await t.control.advanceClock(30 * 86_400);
    const refreshed = await refreshForm(pair.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await phonebooks(((await refreshed.json()) as TokenAnswer).access_token)).status).toBe(
      200,
    );
  });

  it('logs token refreshes with the secrets redacted', async () => {
    await t.control.clearRequests();
    const pair = await issue();
    await refreshForm(pair.refresh_token);
    const log = await t.control.requests();
    const refreshes = log.filter(
      (entry) => entry.method === 'POST' && entry.path === '/v3/oauth/token/',
    );
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({
      scope: 'token',
      status: 200,
      body: {
        grant_type: 'refresh_token',
        refresh_token: '[redacted]',
        client_secret: '[redacted]',
      },
    });
    expect(JSON.stringify(log)).not.toContain(pair.refresh_token);
  });
});

describe('token options', () => {
  it('revokeAccessTokenOnRefresh: false keeps the old access token valid until it expires', async () => {
    const t = await startTestSim({
      contacts: 0,
      revokeAccessTokenOnRefresh: false,
      clientId: 'c1',
      clientSecret: 's1',
    });
    try {
      expect(t.sim.client_id).toBe('c1');
      expect(t.sim.client_secret).toBe('s1');
      const pair = await t.control.issueTokens({
        tenant_id: t.sim.tenant_id,
        user_extension: '203',
      });
      const response = await fetch(`${t.sim.base_url}/v3/oauth/token/`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: pair.refresh_token,
          client_id: 'c1',
          client_secret: 's1',
        }),
      });
      expect(response.status).toBe(200);
      expect((await t.api(pair.access_token).get('/v3/phonebook/phonebook/')).status).toBe(200);
    } finally {
      await t.sim.close();
    }
  });
});

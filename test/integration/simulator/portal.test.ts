/**
 * The portal and the activation handshake (contract 3, 4.2, 4.3) with a throwaway receiver:
 * login, consent, Subscribe → Activation URL (JSON and form, extra headers), only HTTP 200
 * activates, tenant_{param} metadata at the first activation only, Unsubscribe → Deactivation URL
 * with empty tokens and revocation, and the 400 pages.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completePortalFlow } from '../../../simulator/portal-driver';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { startReceiver, type Receiver } from '../../support/integrator-receiver';

interface Handshake {
  tenant_id: string;
  user_extension: string;
  confirmation_key: string;
  access_token: string;
  refresh_token: string;
}

describe('portal activation and deactivation', () => {
  let t: TestSim;
  let receiver: Receiver;
  const redirect = 'http://127.0.0.1:9/done?attempt=1';

  const link = (params: Record<string, string> = {}, slug = 'callbar') => {
    const query = new URLSearchParams({
      confirmation_key: 'key-abc-123',
      redirect_url: redirect,
      ...params,
    });
    return `${t.sim.portal_url}/integrations/${slug}/activate?${query.toString()}`;
  };
  const user = (index: number) => t.sim.users[index]!;
  const flow = (portalLink: string, index: number, action: 'subscribe' | 'unsubscribe') =>
    completePortalFlow(portalLink, {
      username: user(index).username,
      password: user(index).password,
      action,
    });
  const register = (extra: Record<string, unknown> = {}) =>
    t.control.putIntegration('callbar', {
      activation_url: `${receiver.url}/activate`,
      deactivation_url: `${receiver.url}/deactivate`,
      webhook_url: `${receiver.url}/events`,
      ...extra,
    });
  const lastBody = (): Handshake => JSON.parse(receiver.requests.at(-1)!.body) as Handshake;

  beforeAll(async () => {
    t = await startTestSim({ contacts: 5 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.sim.close();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.answer.status = 200;
    receiver.answer.body = 'ok';
    await register();
  });

  it('asks for a login first: the link redirects to a login form with labelled fields', async () => {
    const first = await fetch(link(), { redirect: 'manual' });
    expect(first.status).toBe(302);
    const location = first.headers.get('location')!;
    expect(location.startsWith('/portal/login/?next=')).toBe(true);
    const login = await fetch(new URL(location, t.sim.portal_url));
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
  });

  it('Subscribe POSTs the tokens as JSON to the Activation URL; a 200 activates and redirects (303)', async () => {
    const result = await flow(
      link({ tenant_crm: 'acme-crm', tenant_id: 'forged' }),
      0,
      'subscribe',
    );
    expect(result.status).toBe(303);
    expect(result.location).toBe(redirect);
    expect(receiver.requests).toHaveLength(1);
    const call = receiver.requests[0]!;
    expect(call).toMatchObject({ method: 'POST', path: '/activate' });
    expect(call.headers['content-type']).toBe('application/json');
    // A server-side client: nothing a browser would add.
    expect(call.headers.origin).toBeUndefined();
    expect(call.headers['sec-fetch-mode']).toBeUndefined();
    expect(call.headers['sec-fetch-site']).toBeUndefined();
    const body = lastBody();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'confirmation_key',
      'refresh_token',
      'tenant_id',
      'user_extension',
    ]);
    expect(body).toMatchObject({
      tenant_id: t.sim.tenant_id,
      user_extension: '201',
      confirmation_key: 'key-abc-123',
    });
    // The tokens are the platform's own: they open the API and refresh.
    expect((await t.api(body.access_token).get('/v3/phonebook/phonebook/')).status).toBe(200);
    const state = await t.control.integration('callbar');
    expect(state.activations).toEqual([
      expect.objectContaining({
        tenant_id: t.sim.tenant_id,
        user_extension: '201',
        state: 'active',
        tenant_metadata: { crm: 'acme-crm' },
      }),
    ]);
  });

  it('the consent page shows Subscribe and Unsubscribe buttons and the current state', async () => {
    // Log in through the form by hand to look at the page itself.
    const first = await fetch(link(), { redirect: 'manual' });
    const loginUrl = new URL(first.headers.get('location')!, t.sim.portal_url);
    const loginPage = await fetch(loginUrl);
    const csrfCookie = loginPage.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await loginPage.text())![1]!;
    const login = await fetch(`${t.sim.portal_url}/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      body: new URLSearchParams({
        csrfmiddlewaretoken: csrf,
        username: 'alice',
        password: user(0).password,
        next: loginUrl.searchParams.get('next')!,
      }),
    });
    expect(login.status).toBe(302);
    const session = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const consent = await fetch(new URL(login.headers.get('location')!, t.sim.portal_url), {
      headers: { cookie: `${csrfCookie}; ${session}` },
    });
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain('>Subscribe</button>');
    expect(html).toContain('>Unsubscribe</button>');
    expect(html).toContain('data-state="active"');
    // A POST without the CSRF token is refused.
    const forged = await fetch(link(), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session },
      body: 'action=subscribe',
    });
    expect(forged.status).toBe(403);
  });

  it('form encoding and extra headers, when registered so', async () => {
    await register({
      encoding: 'form',
      extra_headers: { 'X-Callbar-Secret': 'shared-1', 'X-Other': 'two' },
    });
    const result = await flow(link(), 1, 'subscribe');
    expect(result.status).toBe(303);
    const call = receiver.requests[0]!;
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call.headers['x-callbar-secret']).toBe('shared-1');
    expect(call.headers['x-other']).toBe('two');
    const fields = Object.fromEntries(new URLSearchParams(call.body));
    expect(fields).toMatchObject({
      tenant_id: t.sim.tenant_id,
      user_extension: '202',
      confirmation_key: 'key-abc-123',
    });
    expect(fields.access_token).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it.each([401, 500, 204])(
    'an integrator answering %i activates nothing and its tokens are revoked',
    async (status) => {
      receiver.answer.status = status;
      receiver.answer.body = status === 204 ? '' : 'bad secret header';
      const result = await flow(link(), 2, 'subscribe');
      expect(result.status).toBe(502);
      expect(result.location).toBeUndefined();
      expect(result.body).toContain(`answered HTTP ${status}`);
      if (status !== 204) expect(result.body).toContain('bad secret header');
      const body = lastBody();
      expect((await t.api(body.access_token).get('/v3/phonebook/phonebook/')).status).toBe(401);
      const refresh = await t.refresh(body.refresh_token);
      expect(await refresh.json()).toEqual({ error: 'invalid_grant' });
      const state = await t.control.integration('callbar');
      expect(state.activations.find((record) => record.user_extension === '203')).toBeUndefined();
      expect(state.attempts.at(-1)).toMatchObject({
        action: 'activate',
        user_extension: '203',
        status,
        outcome: 'refused',
      });
    },
  );

  it('an unreachable Activation URL → failure page, nothing active', async () => {
    const gone = await startReceiver();
    await gone.close();
    await register({ activation_url: `${gone.url}/activate` });
    const result = await flow(link(), 2, 'subscribe');
    expect(result.status).toBe(502);
    expect(result.body).toContain('could not be reached');
    const state = await t.control.integration('callbar');
    expect(state.activations.find((record) => record.user_extension === '203')).toBeUndefined();
  });

  it('tenant metadata is stored at the first activation only', async () => {
    expect(
      (await flow(link({ tenant_crm: 'first', tenant_region: 'eu' }), 2, 'subscribe')).status,
    ).toBe(303);
    expect((await flow(link({ tenant_crm: 'second' }), 2, 'subscribe')).status).toBe(303);
    const record = (await t.control.integration('callbar')).activations.find(
      (each) => each.user_extension === '203',
    );
    expect(record).toMatchObject({
      state: 'active',
      tenant_metadata: { crm: 'first', region: 'eu' },
    });
  });

  it('Unsubscribe POSTs empty tokens to the Deactivation URL; a 200 deactivates and revokes the tokens', async () => {
    expect((await flow(link({ confirmation_key: 'key-carol' }), 2, 'subscribe')).status).toBe(303);
    const tokens = lastBody();
    receiver.requests.length = 0;
    const result = await flow(link({ confirmation_key: 'key-carol' }), 2, 'unsubscribe');
    expect(result).toMatchObject({ status: 303, location: redirect });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.path).toBe('/deactivate');
    expect(lastBody()).toEqual({
      tenant_id: t.sim.tenant_id,
      user_extension: '203',
      confirmation_key: 'key-carol',
      access_token: '',
      refresh_token: '',
    });
    expect((await t.api(tokens.access_token).get('/v3/phonebook/phonebook/')).status).toBe(401);
    const record = (await t.control.integration('callbar')).activations.find(
      (each) => each.user_extension === '203',
    );
    expect(record?.state).toBe('deactivated');
  });

  it('tokens belong to their integration: unsubscribing another slug leaves callbar’s tokens working', async () => {
    await t.control.putIntegration('crm', {
      activation_url: `${receiver.url}/activate`,
      deactivation_url: `${receiver.url}/deactivate`,
    });
    expect((await flow(link({}, 'callbar'), 0, 'subscribe')).status).toBe(303);
    const callbar = lastBody();
    expect((await flow(link({}, 'crm'), 0, 'subscribe')).status).toBe(303);
    const crm = lastBody();
    // A refreshed pair stays callbar's.
    const refreshed = await t.refresh(callbar.refresh_token);
    const pair = (await refreshed.json()) as { access_token: string; refresh_token: string };

    expect((await flow(link({}, 'crm'), 0, 'unsubscribe')).status).toBe(303);
    const phonebooks = (token: string) => t.api(token).get('/v3/phonebook/phonebook/');
    expect((await phonebooks(crm.access_token)).status).toBe(401);
    expect((await phonebooks(pair.access_token)).status).toBe(200);
    expect((await t.control.integration('callbar')).activations[0]).toMatchObject({
      user_extension: '201',
      state: 'active',
    });

    // Unsubscribing callbar revokes its rotated pair too.
    expect((await flow(link({}, 'callbar'), 0, 'unsubscribe')).status).toBe(303);
    expect((await phonebooks(pair.access_token)).status).toBe(401);
    const reuse = await t.refresh(pair.refresh_token);
    expect(await reuse.json()).toEqual({ error: 'invalid_grant' });
  });

  it('a Deactivation URL answering non-200 changes nothing', async () => {
    expect((await flow(link(), 1, 'subscribe')).status).toBe(303);
    const tokens = lastBody();
    receiver.answer.status = 503;
    const result = await flow(link(), 1, 'unsubscribe');
    expect(result.status).toBe(502);
    expect((await t.api(tokens.access_token).get('/v3/phonebook/phonebook/')).status).toBe(200);
    const record = (await t.control.integration('callbar')).activations.find(
      (each) => each.user_extension === '202',
    );
    expect(record?.state).toBe('active');
  });

  it('a wrong password shows the login form again with an error', async () => {
    const result = await completePortalFlow(link(), {
      username: 'alice',
      password: 'wrong',
      action: 'subscribe',
    });
    expect(result.status).toBe(200);
    expect(result.body).toContain('Please enter a correct username and password.');
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([
    ['no confirmation_key', { confirmation_key: '' }, 'callbar', 'confirmation_key'],
    ['no redirect_url', { redirect_url: '' }, 'callbar', 'redirect_url'],
    ['a relative redirect_url', { redirect_url: '/done' }, 'callbar', 'absolute'],
    ['an unknown slug', {}, 'nope', 'no integration'],
  ])('%s → 400 page', async (_name, params, slug, text) => {
    const response = await fetch(link(params, slug), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect((await response.text()).toLowerCase()).toContain(text.toLowerCase());
    const driven = await flow(link(params, slug), 0, 'subscribe');
    expect(driven.status).toBe(400);
    expect(receiver.requests).toHaveLength(0);
  });
});

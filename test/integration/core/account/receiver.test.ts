/**
 * The loopback receiver's whole bad-input list: each request is refused with a 4xx and changes
 * nothing (vault and account state compared before and after). The last case is the positive
 * control: the same request, done right, is accepted.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService, refusalHint } from '../../../../src-main/core/account/account-service';
import { ATTEMPT_LIFETIME_MS } from '../../../../src-main/core/account/activation-attempts';
import {
  MAX_BODY_BYTES,
  startReceiver,
  type ReceiverHandlers,
  type RunningReceiver,
} from '../../../../src-main/core/account/receiver';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { capturingLogger } from '../../../support/sim-harness';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';

interface RawResponse {
  status: number;
  body: string;
}

function send(
  origin: string,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    slowMs?: number;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, {
      method: options.method ?? 'POST',
      headers: options.headers,
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A refused slow or oversized body may be cut off before the client finishes writing.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve({ status: -1, body: '' });
      else reject(error);
    });
    if (options.slowMs) {
      req.write(options.body?.slice(0, 5) ?? '');
      setTimeout(() => req.end(options.body?.slice(5)), options.slowMs);
    } else {
      req.end(options.body);
    }
  });
}

describe('loopback receiver refuses bad input without changing anything', () => {
  let clock = Date.UTC(2026, 10, 23, 9, 0, 0);
  const vault = new MemoryVault();
  const account = new AccountService({
    settings: {
      base_url: 'http://127.0.0.1:9',
      portal_url: 'http://127.0.0.1:9/portal',
      slug: 'callbar',
      receiver_port: 0,
      client_id: 'client-1',
    },
    clientSecret: 'client-secret-1',
    vault,
    log: silentLogger,
    now: () => clock,
  });
  let receiver: RunningReceiver;
  let host: string;
  let key: string;
  const secretHeader = { 'x-callbar-secret': 'shared-secret-value' };

  const valid = (overrides: Record<string, unknown> = {}) => ({
    tenant_id: 'acme-7f3a',
    user_extension: '201',
    confirmation_key: key,
    access_token: 'AT-1',
    refresh_token: 'RT-1',
    ...overrides,
  });
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    headers: { 'content-type': 'application/json', ...secretHeader, ...headers },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    await account.start();
    receiver = await startReceiver({
      port: 0,
      handlers: account.receiverHandlers,
      auth: () => ({ headers: secretHeader, secret: undefined, acceptUnauthenticated: false }),
      bodyTimeoutMs: 300,
      log: silentLogger,
    });
    host = receiver.origin;
    // The service's own receiver is started too, because startActivation needs its address.
    const started = await account.startActivation();
    started.completion.catch(() => undefined);
    key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
  });
  afterAll(async () => {
    await receiver.close();
    await account.close();
  });

  const cases: [string, () => Promise<RawResponse>, number][] = [
    [
      'a foreign Host header',
      () => send(host, '/activate', { ...json(valid(), { host: 'evil.example:37153' }) }),
      421,
    ],
    [
      'a browser Origin',
      () => send(host, '/activate', json(valid(), { origin: 'https://evil.example' })),
      403,
    ],
    [
      'Sec-Fetch-Site: cross-site',
      () => send(host, '/activate', json(valid(), { 'sec-fetch-site': 'cross-site' })),
      403,
    ],
    [
      'Sec-Fetch-Dest: document',
      () => send(host, '/activate', json(valid(), { 'sec-fetch-dest': 'document' })),
      403,
    ],
    [
      'Sec-Fetch-User: ?1',
      () => send(host, '/activate', json(valid(), { 'sec-fetch-user': '?1' })),
      403,
    ],
    [
      'a body over 16 KiB',
      () => send(host, '/activate', json(valid({ pad: 'x'.repeat(MAX_BODY_BYTES) }))),
      413,
    ],
    ['a slow body', () => send(host, '/activate', { ...json(valid()), slowMs: 1500 }), 408],
    [
      'GET instead of POST',
      () => send(host, '/activate', { method: 'GET', headers: secretHeader }),
      405,
    ],
    [
      'text/plain',
      () => send(host, '/activate', json(valid(), { 'content-type': 'text/plain' })),
      415,
    ],
    [
      'invalid JSON',
      () => send(host, '/activate', { ...json(valid()), body: '{"tenant_id":' }),
      400,
    ],
    [
      'a missing field',
      () => send(host, '/activate', json({ ...valid(), tenant_id: undefined })),
      400,
    ],
    [
      'a non-string field',
      () => send(host, '/activate', json(valid({ user_extension: 201 }))),
      400,
    ],
    ['an array body', () => send(host, '/activate', json([valid()])), 400],
    [
      'a repeated form field',
      () =>
        send(host, '/activate', {
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...secretHeader },
          body: `${new URLSearchParams(valid()).toString()}&tenant_id=other`,
        }),
      400,
    ],
    [
      'an unknown confirmation_key',
      () => send(host, '/activate', json(valid({ confirmation_key: 'guessed-key' }))),
      403,
    ],
    [
      'a key one character off',
      () =>
        send(
          host,
          '/activate',
          json(valid({ confirmation_key: key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A') })),
        ),
      403,
    ],
    [
      'empty tokens on activation',
      () => send(host, '/activate', json(valid({ access_token: '' }))),
      400,
    ],
    [
      'a missing shared-secret header',
      () =>
        send(host, '/activate', {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(valid()),
        }),
      401,
    ],
    [
      'a wrong shared-secret header',
      () => send(host, '/activate', json(valid(), { 'x-callbar-secret': 'shared-secret-valuf' })),
      401,
    ],
    [
      'deactivation with an unknown key',
      () =>
        send(
          host,
          '/deactivate',
          json(valid({ confirmation_key: 'nope', access_token: '', refresh_token: '' })),
        ),
      403,
    ],
    ['an unknown path', () => send(host, '/tokens', json(valid())), 404],
    ['a call event without an id', () => send(host, '/events', json({ state: 'ringing' })), 400],
  ];

  /**
   * The refused activation calls the waiting person is told of: they arrived whole, in a body
   * Callbar reads, with the attempt's own confirmation_key (the platform's mark). Any other
   * refusal (a slow body, a web page's, a made-up key…) may come from any local program.
   */
  const said = new Set([
    'a missing field',
    'a non-string field',
    'empty tokens on activation',
    'a missing shared-secret header',
    'a wrong shared-secret header',
  ]);

  for (const [name, run, status] of cases) {
    it(`refuses ${name} with ${status}`, async () => {
      // The refusal line changes at most once a second.
      clock += 1000;
      const before = { vault: await vault.load(), state: account.status() };
      const response = await run();
      // A slow or oversized body may be answered or cut off; either way it is refused.
      if (response.status === -1) expect([408, 413]).toContain(status);
      else expect(response.status).toBe(status);
      expect(await vault.load()).toEqual(before.vault);
      // Still waiting; only a refusal bearing the attempt's key is said in the status.
      expect(account.status()).toEqual(
        said.has(name)
          ? {
              ...before.state,
              message: `The platform's activation reached Callbar but was refused: ${response.body} ${refusalHint()}`,
            }
          : before.state,
      );
      expect(response.body).not.toContain('AT-1');
    });
  }

  it('says a refused call in one line that replaces the last, changing at most once a second', async () => {
    const line = (reason: string) =>
      `The platform's activation reached Callbar but was refused: ${reason} ${refusalHint()}`;
    const wrongHeader = () =>
      send(host, '/activate', json(valid(), { 'x-callbar-secret': 'shared-secret-valuf' }));
    clock += 1000;
    await send(host, '/activate', json(valid({ user_extension: 201 })));
    expect(account.status().message).toBe(line('Missing or invalid fields: user_extension.'));
    // Within the same second: refused, logged, but the line stays.
    expect((await wrongHeader()).status).toBe(401);
    expect(account.status().message).toBe(line('Missing or invalid fields: user_extension.'));
    clock += 1000;
    await wrongHeader();
    expect(account.status().message).toBe(line('A required header is missing or wrong.'));
    expect(account.status().state).toBe('activating');
  });

  it('refuses an expired key, then accepts a fresh one exactly once (positive control)', async () => {
    clock += ATTEMPT_LIFETIME_MS + 1;
    const expired = await send(host, '/activate', json(valid()));
    expect(expired.status).toBe(403);
    expect(await vault.load()).toBeUndefined();

    const started = await account.startActivation({
      expectedUser: { tenant_id: 'acme-7f3a', user_extension: '201' },
    });
    key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
    const otherUser = await send(host, '/activate', json(valid({ user_extension: '202' })));
    expect(otherUser.status).toBe(403);
    expect(await vault.load()).toBeUndefined();

    const accepted = await send(host, '/activate', json(valid()));
    expect(accepted.status).toBe(200);
    await expect(started.completion).resolves.toMatchObject({
      state: 'connected',
      user_extension: '201',
    });
    expect(await vault.load()).toMatchObject({
      access_token: 'AT-1',
      refresh_token: 'RT-1',
      client_secret: 'client-secret-1',
    });

    const replay = await send(
      host,
      '/activate',
      json(valid({ access_token: 'AT-2', refresh_token: 'RT-2' })),
    );
    expect(replay.status).toBe(403);
    expect(await vault.load()).toMatchObject({ access_token: 'AT-1' });
  });

  it('answers an identical repeat of the activation call 200 without storing it again; anything different is refused', async () => {
    const started = await account.startActivation();
    key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
    const body = valid();
    // A platform that retries at once: both calls in flight together, one stores, both 200.
    const both = await Promise.all([
      send(host, '/activate', json(body)),
      send(host, '/activate', json(body)),
    ]);
    expect(both.map((response) => response.status)).toEqual([200, 200]);
    await expect(started.completion).resolves.toMatchObject({ state: 'connected' });
    const stored = (await vault.load())!;
    expect(stored).toMatchObject({ access_token: 'AT-1', refresh_token: 'RT-1' });
    expect(stored.expires_at).toBe(clock + 24 * 3600_000);

    // Later, within the attempt's lifetime, the same again (form-encoded this time): 200, and
    // nothing stored anew (a second store would have moved expires_at with the clock).
    clock += 60_000;
    const form = await send(host, '/activate', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...secretHeader },
      body: new URLSearchParams(body).toString(),
    });
    expect(form.status).toBe(200);
    expect(await vault.load()).toEqual(stored);

    // Anything different with the same key is still refused, and changes nothing.
    for (const different of [
      { ...body, access_token: 'AT-4' },
      { ...body, refresh_token: 'RT-4' },
      { ...body, user_extension: '202' },
      { ...body, tenant_id: 'other-tenant' },
    ]) {
      const refused = await send(host, '/activate', json(different));
      expect(refused.status, JSON.stringify(different)).toBe(403);
      expect(refused.body).toBe('Unknown, expired or already used confirmation_key.');
    }
    expect(await vault.load()).toEqual(stored);
    expect(account.status()).toMatchObject({ state: 'connected', user_extension: '201' });

    // After the attempt's lifetime even the identical call is refused.
    clock += ATTEMPT_LIFETIME_MS;
    expect((await send(host, '/activate', json(body))).status).toBe(403);
    expect(await vault.load()).toEqual(stored);
  });

  it('accepts form-encoded bodies too, and refuses a deactivation for another user', async () => {
    const started = await account.startActivation();
    started.completion.catch(() => undefined);
    key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
    const wrongUser = await send(
      host,
      '/deactivate',
      json(valid({ tenant_id: 'other-tenant', access_token: '', refresh_token: '' })),
    );
    expect(wrongUser.status).toBe(403);
    expect(await vault.load()).toMatchObject({ access_token: 'AT-1' });

    const form = await send(host, '/deactivate', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...secretHeader },
      body: new URLSearchParams(valid({ access_token: '', refresh_token: '' })).toString(),
    });
    expect(form.status).toBe(200);
    expect(await vault.load()).toBeUndefined();
    expect(account.status().state).toBe('not-connected');
  });

  it('hands call events to subscribers', async () => {
    const events: unknown[] = [];
    const unsubscribe = account.onCallEvent((event) => events.push(event));
    const response = await send(
      host,
      '/events',
      json({ id: 'leg-1', state: 'ringing', extra: { a: 1 } }),
    );
    unsubscribe();
    expect(response.status).toBe(200);
    expect(events).toEqual([{ id: 'leg-1', state: 'ringing', extra: { a: 1 } }]);
  });

  it('accepts a server-side client that sends Sec-Fetch-Mode alone (Node fetch does)', async () => {
    const response = await send(
      host,
      '/events',
      json({ id: 'leg-mode' }, { 'sec-fetch-mode': 'cors' }),
    );
    expect(response.status).toBe(200);
  });

  it('serves the landing page for browsers, even cross-site', async () => {
    const page = await send(host, '/done?attempt=unknown', {
      method: 'GET',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(page.status).toBe(400);
    expect(page.body).toContain('Unknown connection attempt');
  });
});

/** Handlers that accept everything the receiver lets through (for tests of the receiver itself). */
/** No platform headers; call events need the secret Webhook URL. */
const NO_HEADERS = { headers: {}, secret: 'webhook-secret', acceptUnauthenticated: false };

const idleHandlers: ReceiverHandlers = {
  activate: () => Promise.resolve(),
  deactivate: () => Promise.resolve(),
  event: () => undefined,
  landing: () => ({ ok: true, title: '', message: '' }),
  connect: () => ({ ok: false, title: '', message: '' }),
};

describe('refused requests in the log', () => {
  it('a flood of refusals is one line and one summary with its counts, not a line each', async () => {
    const { log, lines } = capturingLogger();
    const receiver = await startReceiver({
      port: 0,
      handlers: idleHandlers,
      auth: () => NO_HEADERS,
      log,
    });
    for (let index = 0; index < 300; index++) {
      const response = await send(receiver.origin, '/activate', {
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: '{}',
      });
      expect(response.status).toBe(403);
    }
    await receiver.close();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'receiver refused a request' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ count: 299, by_kind: { '403': 299 } });
  });

  it('a foreign Host, an unknown path and a wrong method are logged too, never a nonce', async () => {
    const { log, lines } = capturingLogger();
    const opened: string[] = [];
    const receiver = await startReceiver({
      port: 0,
      handlers: { ...idleHandlers, connect: (nonce) => (opened.push(nonce), { redirect: '/x' }) },
      auth: () => NO_HEADERS,
      log,
    });
    const nonce = 'one-time-nonce-that-must-not-be-logged';
    const refused = [
      await send(receiver.origin, `/connect/${nonce}`, {
        method: 'GET',
        headers: { host: `attacker.example:${receiver.port}` },
      }),
      await send(receiver.origin, '/admin', { method: 'GET' }),
      await send(receiver.origin, '/activate', { method: 'PUT' }),
      await send(receiver.origin, `/connect/${nonce}`, { method: 'POST' }),
    ];
    await receiver.close();
    expect(refused.map((response) => response.status)).toEqual([421, 404, 405, 405]);
    expect(opened).toEqual([]);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ status: 421, path: '/connect/…' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ count: 3, by_kind: { '404': 1, '405': 2 } });
    expect(lines.join('\n')).not.toContain(nonce);
  });
});

describe('a receiver port that is taken', () => {
  it('fails with a message saying what to do, and the status carries it', async () => {
    const blocker = await startReceiver({
      port: 0,
      handlers: idleHandlers,
      auth: () => NO_HEADERS,
      log: silentLogger,
    });
    const account = new AccountService({
      settings: {
        base_url: 'http://127.0.0.1:9',
        portal_url: 'http://127.0.0.1:9/portal',
        slug: 'callbar',
        receiver_port: blocker.port,
        client_id: 'client-1',
      },
      clientSecret: 'secret',
      vault: new MemoryVault(),
      log: silentLogger,
    });
    try {
      await account.start();
      await expect(account.listen()).rejects.toMatchObject({ code: 'receiver_port_in_use' });
      expect(account.status()).toMatchObject({ state: 'not-connected' });
      expect(account.status().message).toContain(`Port ${blocker.port}`);
      expect(account.status().message).toContain('CALLBAR_RECEIVER_PORT');
      await expect(account.startActivation()).rejects.toMatchObject({
        code: 'receiver_port_in_use',
      });
    } finally {
      await account.close();
      await blocker.close();
    }
  });
});

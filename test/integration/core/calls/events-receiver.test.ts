/**
 * The receiver's `/events` path under the same rules as activation, plus the configured required
 * headers (CALLBAR_RECEIVER_HEADERS): what it refuses never reaches the call tracker; what the
 * platform sends with the registered headers does, from the simulator too. Without headers (the
 * default), only the Webhook URL with the profile's secret is accepted, unless the setting
 * accept_unauthenticated_events says otherwise; and every event is bounded before it is parsed.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { SimControl } from '../../../../simulator/control-client';
import { AccountService } from '../../../../src-main/core/account/account-service';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker } from '../../../../src-main/core/calls/call-tracker';
import { NO_DIRECTORY } from '../../../../src-main/core/calls/dial-target';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { said } from '../../../../src-main/core/text/said';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountSettings,
  capturingLogger,
  connect,
  registerReceiver,
  startSim,
} from '../../../support/sim-harness';

const SECRET = { 'X-Callbar-Secret': 'webhook-shared-secret' };

function post(
  port: number,
  body: string,
  headers: Record<string, string>,
  path = '/events',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { host: `127.0.0.1:${port}`, ...headers },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the receiver’s /events', () => {
  let sim: RunningSimulator;
  let account: AccountService;
  let tracker: CallTracker;
  let port: number;

  beforeAll(async () => {
    sim = await startSim();
    account = new AccountService({
      settings: accountSettings(sim),
      clientSecret: sim.client_secret,
      receiverHeaders: SECRET,
      vault: new MemoryVault(),
      log: silentLogger,
    });
    tracker = new CallTracker({
      ownExtension: () => '201',
      owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
      identify: (number) => identifyParty(number, { region: 'US', directory: NO_DIRECTORY }),
      log: silentLogger,
    });
    account.onCallEvent((event) => tracker.ingest(event));
    await account.start();
    const receiver = await account.listen();
    port = receiver.port;
    await registerReceiver(sim, await account.receiverRegistration());
  });
  afterAll(async () => {
    await account?.close();
    await sim?.close();
  });

  const json = { 'content-type': 'application/json' };
  const event = JSON.stringify({ id: 'leg_refused' });
  const refusals: [string, () => Promise<{ status: number }>, number][] = [
    ['without the required header', () => post(port, event, json), 401],
    [
      'with a wrong required header',
      () => post(port, event, { ...json, 'x-callbar-secret': 'webhook-shared-secreT' }),
      401,
    ],
    [
      'from a web page (Origin)',
      () => post(port, event, { ...json, ...SECRET, origin: 'https://evil.example' }),
      403,
    ],
    [
      'from a browser (Sec-Fetch-Site)',
      () => post(port, event, { ...json, ...SECRET, 'sec-fetch-site': 'cross-site' }),
      403,
    ],
    [
      'to another Host (DNS rebinding)',
      () => post(port, event, { ...json, ...SECRET, host: 'evil.example' }),
      421,
    ],
    ['that is not JSON', () => post(port, '{"id":', { ...json, ...SECRET }), 400],
    [
      'of another content type',
      () => post(port, event, { 'content-type': 'text/plain', ...SECRET }),
      415,
    ],
    [
      'over 16 KiB',
      () =>
        post(port, JSON.stringify({ id: 'leg_big', pad: 'x'.repeat(20_000) }), {
          ...json,
          ...SECRET,
        }),
      413,
    ],
  ];

  for (const [name, send, status] of refusals) {
    it(`refuses an event ${name} (${status}) and the tracker hears nothing`, async () => {
      expect((await send()).status).toBe(status);
      expect(tracker.view()).toEqual({ current: [], recent: [] });
    });
  }

  it('takes form-encoded and JSON events with the header, and the simulator’s deliveries', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...SECRET };
    expect((await post(port, 'id=leg_form', form)).status).toBe(200);
    expect(tracker.view().current[0]!.leg_ids).toEqual(['leg_form']);
    tracker.end(tracker.view().current[0]!.id, said('errors:callEnd.ended'));

    await connect(
      { account, origin: `http://127.0.0.1:${port}`, register: () => Promise.resolve() },
      sim,
    );
    const control = new SimControl(sim.base_url);
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: '201',
      from: '+12025550199',
    });
    const log = await control.webhooksSettled(20_000);
    expect(log.deliveries.every((delivery) => delivery.status === 200)).toBe(true);
    expect(tracker.view().current[0]!.leg_ids.sort()).toEqual(
      incoming.legs.map((leg) => leg.id).sort(),
    );
  });
});

describe('the receiver’s events without the platform’s headers (the default)', () => {
  let sim: RunningSimulator;
  const opened: AccountService[] = [];
  const json = { 'content-type': 'application/json' };
  afterAll(async () => {
    for (const account of opened) await account.close();
    await sim?.close();
  });
  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
  });

  /** A receiver whose events feed a tracker; its log lines kept. */
  async function receiverWith(settings: { accept_unauthenticated_events?: boolean } = {}) {
    const { log, lines } = capturingLogger();
    const account = new AccountService({
      settings: { ...accountSettings(sim), ...settings },
      clientSecret: sim.client_secret,
      vault: new MemoryVault(),
      log,
    });
    opened.push(account);
    const tracker = new CallTracker({
      ownExtension: () => '201',
      owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
      identify: (number) => identifyParty(number, { region: 'US', directory: NO_DIRECTORY }),
      log: silentLogger,
    });
    account.onCallEvent((event) => tracker.ingest(event));
    await account.start();
    const { port } = await account.listen();
    const registration = await account.receiverRegistration();
    const path = new URL(registration.webhook_url).pathname;
    return { account, tracker, port, path, registration, lines };
  }

  it('registers a Webhook URL with a per-profile secret, and accepts events only there', async () => {
    const { account, tracker, port, path, registration, lines } = await receiverWith();
    expect(registration).toMatchObject({
      activation_url: `http://127.0.0.1:${port}/activate`,
      authentication: 'secret-url',
      accepts_unauthenticated: false,
      headers: {},
    });
    const secret = path.slice('/events/'.length);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // The same profile (its vault) keeps its secret across processes and forgetting the session.
    await account.deactivateLocal();
    expect((await account.receiverRegistration()).webhook_url).toBe(registration.webhook_url);

    const event = JSON.stringify({ id: 'leg_forged' });
    const refused = [
      await post(port, event, json),
      await post(port, event, json, '/events/'),
      await post(port, event, json, `/events/${secret.slice(0, -1)}x`),
      await post(port, event, json, `/events/${secret}/x`),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(refused[0]!.text).toContain('callbar status --json');
    expect(tracker.view()).toEqual({ current: [], recent: [] });

    expect((await post(port, JSON.stringify({ id: 'leg_real' }), json, path)).status).toBe(200);
    expect(tracker.view().current[0]!.leg_ids).toEqual(['leg_real']);
    // Refusals are summarised, never one line each, and the secret is in no line.
    expect(lines.filter((line) => line.includes('receiver refused')).length).toBe(1);
    expect(lines.join('\n')).not.toContain(secret);
    expect(account.status().events_warning).toBeUndefined();
  });

  it('refuses an event beyond the bounds with a clear 400, before the tracker sees it', async () => {
    const { tracker, port, path } = await receiverWith();
    const deep = `${'['.repeat(8100)}${']'.repeat(8100)}`;
    const cases: [string, number, string][] = [
      [JSON.stringify({ id: 'leg_deep', x: JSON.parse('[[[[1]]]]') as unknown }), 200, 'OK'],
      [`{"id":"leg_deep","x":${deep}}`, 400, 'nested more than 32 levels'],
      [JSON.stringify({ id: 'l'.repeat(257) }), 400, '1 to 256 characters'],
      [JSON.stringify({ id: 'leg_long', party: 'p'.repeat(1025) }), 400, 'longer than 1024'],
      [
        JSON.stringify({
          id: 'leg_wide',
          ...Object.fromEntries(range(70).map((i) => [`k${i}`, i])),
        }),
        400,
        'more than 64 entries',
      ],
      ['{"id":"leg_proto","__proto__":{"polluted":true}}', 400, '"__proto__" is not accepted'],
      ['{"id":"leg_brackets","s":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\""}', 200, 'OK'],
    ];
    for (const [body, status, text] of cases) {
      const answer = await post(port, body, json, path);
      expect([answer.status, answer.text], body.slice(0, 60)).toEqual([
        status,
        expect.stringContaining(text),
      ]);
    }
    const ids = tracker.view().current.flatMap((call) => call.leg_ids);
    expect(ids.sort()).toEqual(['leg_brackets', 'leg_deep']);
  });

  it('accepts unauthenticated events only with the explicit setting, and says so in the status', async () => {
    const { tracker, port, account, registration } = await receiverWith({
      accept_unauthenticated_events: true,
    });
    expect(registration.accepts_unauthenticated).toBe(true);
    expect((await post(port, JSON.stringify({ id: 'leg_open' }), json)).status).toBe(200);
    expect(tracker.view().current[0]!.leg_ids).toEqual(['leg_open']);
    expect(account.status().events_warning).toContain('accept_unauthenticated_events');
  });

  it('refuses every event while the keychain cannot give the secret, and says why', async () => {
    const { log } = capturingLogger();
    const vault = new MemoryVault({ unavailable: 'the test locked it' });
    const account = new AccountService({
      settings: accountSettings(sim),
      clientSecret: sim.client_secret,
      vault,
      log,
    });
    opened.push(account);
    const { port } = await account.listen();
    const registration = await account.receiverRegistration();
    expect(registration).toMatchObject({
      authentication: 'none',
      webhook_url: `http://127.0.0.1:${port}/events`,
    });
    expect(registration.problem).toContain('the test locked it');
    expect((await post(port, JSON.stringify({ id: 'leg_x' }), json)).status).toBe(403);
    expect(account.status().events_warning).toContain('refuses call events');
  });

  it('delivers the simulator’s events to the registered secret URL', async () => {
    const { account, tracker, port, registration } = await receiverWith();
    await registerReceiver(sim, registration);
    await connect(
      { account, origin: `http://127.0.0.1:${port}`, register: () => Promise.resolve() },
      sim,
    );
    const control = new SimControl(sim.base_url);
    await control.clearWebhooks();
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      from: '+12025550199',
    });
    const log = await control.webhooksSettled(20_000);
    expect(log.deliveries.length).toBeGreaterThan(0);
    expect(log.deliveries.every((delivery) => delivery.status === 200)).toBe(true);
    expect(tracker.view().current[0]!.leg_ids.sort()).toEqual(
      incoming.legs.map((leg) => leg.id).sort(),
    );
  });
});

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

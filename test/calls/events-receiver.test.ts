/**
 * The receiver's `/events` path under the same rules as activation, plus the configured required
 * headers (CALLBAR_RECEIVER_HEADERS): what it refuses never reaches the call tracker; what the
 * platform sends with the registered headers does, from the simulator too.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import { AccountService } from '../../src-main/core/account/account-service';
import { identifyParty } from '../../src-main/core/calls/call-party';
import { CallTracker } from '../../src-main/core/calls/call-tracker';
import { NO_DIRECTORY } from '../../src-main/core/calls/dial-target';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { accountSettings, connect, registerReceiver, startSim } from '../support/sim-harness';

const SECRET = { 'X-Callbar-Secret': 'webhook-shared-secret' };

function post(
  port: number,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/events',
      method: 'POST',
      headers: { host: `127.0.0.1:${port}`, ...headers },
    });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
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
      identify: (number) => identifyParty(number, { region: 'US', directory: NO_DIRECTORY }),
      log: silentLogger,
    });
    account.onCallEvent((event) => tracker.ingest(event));
    await account.start();
    const receiver = await account.listen();
    port = receiver.port;
    await registerReceiver(sim, receiver.origin, { extra_headers: SECRET });
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
    tracker.end(tracker.view().current[0]!.id, 'test');

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

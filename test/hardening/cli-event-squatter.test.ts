/**
 * What the fixed-port loopback design cannot prevent while only the CLI is used, measured with
 * the CLI against the simulator (run inside the test's process where a command's work is the
 * point; the real `callbar` process for `dial --follow`, which holds the port until Ctrl+C): between commands nothing of Callbar's listens,
 * so a process that binds the receiver port receives the platform's call events. What it gets
 * (leg ids, numbers) is recorded, and that it gets no credential. What Callbar does about it:
 * `dial --follow` and the app's core hold the port while they run (the squatter cannot bind), and
 * a Callbar that finds the port taken refuses to listen (and to dial, with --follow) rather than
 * share it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest';
import { SimControl } from '../../simulator/control-client';
import type { RunningSimulator } from '../../simulator/index';
import { startCore } from '../../src-main/core/callbar-core';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import {
  activateThroughCli,
  allOutput,
  callbar,
  callbarInProcess,
  runCallbarInProcess,
} from '../support/cli-process';
import { freePort } from '../support/free-port';
import {
  advanceClock,
  describeEachProfile,
  profileEnv,
  registerProfile,
  startSim,
} from '../support/sim-harness';
import { until } from '../support/until';
import { recordFigure } from '../support/hardening/figures';

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Squatter {
  received: Delivery[];
  close(): Promise<void>;
}

/** Another program on the receiver port, answering every request 200 and keeping it. */
function squat(port: number): Promise<Squatter> {
  const received: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.end('OK');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        received,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

/** The error code of binding the port now (undefined: the bind succeeded). */
async function bindError(port: number): Promise<string | undefined> {
  try {
    await (await squat(port)).close();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

const SHARED_HEADER = 'X-Integration-Secret';

describeEachProfile('CLI only: a squatter on the receiver port between commands', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let port: number;
  let portalLink: string;
  const sharedValue = randomBytes(16).toString('hex');

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-squatter-'));
    port = await freePort();
    // The platform's optional security header (contract 4.2), which Callbar then requires.
    env = {
      ...profileEnv(sim, dataDir, port),
      CALLBAR_RECEIVER_HEADERS: `${SHARED_HEADER}: ${sharedValue}`,
    };
    await registerProfile(sim, env);
    const activated = await activateThroughCli(env, sim.users[0]!, [], callbarInProcess);
    expect(activated.code, activated.stderr).toBe(0);
    portalLink = activated.portalLink;
  });
  afterAll(async () => {
    await openVault({ dataDir })
      .clear()
      .catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    await sim?.close();
  });
  beforeEach(async () => {
    await advanceClock(sim, 61); // a fresh call-control rate-limit window
  });

  it('receives the call events of a `callbar dial` once it exited: leg ids and numbers, no credential', async () => {
    const dialed = await runCallbarInProcess(['dial', '+49 30 1234567', '--json'], env);
    expect(dialed.code, dialed.stderr).toBe(0);
    // The command has ended: nothing of Callbar's listens. Another program takes the port.
    const squatter = await squat(port);
    onTestFinished(() => squatter.close());
    const call = await until('the call', async () =>
      (await control.calls()).find((each) => each.to === '+49301234567'),
    );
    await control.answerLeg(call.legs[0]!.id);
    const callee = (await control.getCall(call.id)).legs[1]!.id;
    await control.answerLeg(callee);
    await control.endLeg(callee);
    await control.webhooksSettled(30_000);
    const legs = (await control.getCall(call.id)).legs.map((leg) => leg.id);

    const events = squatter.received.map((delivery) => ({
      ...delivery,
      event: JSON.parse(delivery.body) as Record<string, unknown>,
    }));
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((each) => each.path))).toEqual(new Set(['/events']));
    const legIds = new Set(events.map((each) => each.event.id));
    // Every leg of the call: the events after the squatter bound (answer, bridge, hangup).
    expect([...legIds].sort()).toEqual([...legs].sort());
    const fields = [...new Set(events.flatMap((each) => Object.keys(each.event)))].sort();
    const numbers = [
      ...new Set(
        events.flatMap((each) =>
          [each.event.from, each.event.to, each.event.party].filter(
            (value): value is string => typeof value === 'string',
          ),
        ),
      ),
    ];
    if (profile === 'minimal') expect(fields).toEqual(['id']);
    else {
      expect(fields).toEqual(expect.arrayContaining(['id', 'from', 'to', 'user_extension']));
      expect(numbers).toContain('+49301234567');
    }

    // No credential of the session, the integrator or the activation reached the squatter.
    const stored = (await openVault({ dataDir }).load())!;
    const confirmationKey = new URL(portalLink).searchParams.get('confirmation_key')!;
    const secrets = [
      stored.access_token,
      stored.refresh_token,
      stored.client_secret,
      confirmationKey,
    ];
    const everything = JSON.stringify(squatter.received);
    const hits = secrets.filter((secret) => everything.includes(secret));
    expect(hits).toEqual([]);
    const headerNames = [
      ...new Set(squatter.received.flatMap((each) => Object.keys(each.headers))),
    ].sort();
    expect(headerNames.some((name) => name === 'authorization' || name === 'cookie')).toBe(false);

    // The receiver's shared header travels with every event, to whoever listens: it then
    // authenticates forged events, never an activation (that needs a pending attempt's key).
    const sharedHeaderLeaked = squatter.received.every(
      (each) => each.headers[SHARED_HEADER.toLowerCase()] === sharedValue,
    );

    recordFigure(
      `CLI only, squatter between commands (${profile})`,
      `${events.length} call events received for ${legIds.size} legs; fields: ${fields.join(', ')}; ` +
        `numbers: ${numbers.length ? numbers.join(', ') : 'none'}; credentials: ${hits.length} of ${secrets.length}; ` +
        `the platform's shared receiver header: ${sharedHeaderLeaked ? 'received with every event' : 'not received'}`,
    );
  });

  it('cannot bind while `dial --follow` runs, nor while the app’s core runs', async () => {
    const follow = callbar(['dial', '+49 30 7654321', '--follow', '--json'], env);
    onTestFinished(() => follow.kill());
    // The first line is the dial's outcome: the receiver listened before it dialed.
    const first = await follow.lines.next();
    expect(JSON.parse(first.value as string)).toMatchObject({ status: 'dialing' });
    const duringFollow = await bindError(port);
    expect(duringFollow).toBe('EADDRINUSE');
    follow.kill('SIGINT');
    expect((await allOutput(follow)).code).toBe(0);

    // The app's core listens for its whole session (its own profile; the port is what counts).
    const core = await startCore({
      runtime: 'preview',
      profile: openProfile({
        env: profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-squatter-core-')), port),
        vault: new MemoryVault(),
        log: silentLogger,
      }),
      openUrl: () => Promise.resolve(),
    });
    let duringCore: string | undefined;
    try {
      await core.profile.account.listen();
      duringCore = await bindError(port);
    } finally {
      await core.close();
    }
    expect(duringCore).toBe('EADDRINUSE');
    expect(await bindError(port)).toBeUndefined();

    recordFigure(
      `squatter binding during dial --follow / the app (${profile})`,
      `refused by the OS: ${duringFollow} / ${duringCore}`,
    );
  });

  it('squatter first: `dial --follow` refuses to share the port and dials nothing', async () => {
    const squatter = await squat(port);
    onTestFinished(() => squatter.close());
    const before = (await control.calls()).length;
    const result = await runCallbarInProcess(['dial', '+49 30 7654321', '--follow'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('already in use');
    expect(result.stderr).toContain('Nothing was dialed');
    expect((await control.calls()).length).toBe(before);
    expect(squatter.received).toEqual([]);

    recordFigure(
      `dial --follow with the port squatted (${profile})`,
      'refuses (receiver_port_in_use), 0 calls placed, 0 requests to the squatter',
    );
  });
});

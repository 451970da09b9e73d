/**
 * `callbar dial --follow`, `hangup`, `calls` and `open-url` as a user runs them (the real bin, the
 * real keychain of a throwaway profile), against the simulator under both profiles, its call
 * events reaching the receiver that `dial --follow` opens.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { Call, CallsSnapshot } from '../../../src-shared/contract';
import { openLinkDoor } from '../../../src-main/core/desktop/link-door';
import type { DoorAnswer } from '../../../src-main/core/desktop/link-door-format';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import {
  allOutput,
  callbar,
  callbarInProcess,
  runCallbar,
  runCallbarInProcess,
} from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { until } from '../../support/until';
import {
  advanceClock,
  completePortalFlow,
  forEachProfile,
  fullEvents,
  profileEnv,
  registerProfile,
  startSim,
} from '../../support/sim-harness';

// Each step starts a CLI process (a second or more on a loaded machine).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

forEachProfile((profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-calls-'));
    port = await freePort();
    env = profileEnv(sim, dataDir, port);
    await registerProfile(sim, env);
    const run = callbarInProcess(['activate', '--no-browser', '--json'], env);
    const first = await run.lines.next();
    const { portal_link } = JSON.parse(first.value as string) as { portal_link: string };
    const alice = sim.users[0]!;
    await completePortalFlow(portal_link, {
      username: alice.username,
      password: alice.password,
      action: 'subscribe',
    });
    expect((await allOutput(run)).code).toBe(0);
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    await sim?.close();
  });
  beforeEach(async () => {
    await advanceClock(sim, 61); // a fresh call-control rate-limit window
  });

  it('dial "tel:+49-30-1234567" --follow prints the progress; callbar hangup ends it', async () => {
    const follow = callbar(['dial', 'tel:+49-30-1234567', '--follow', '--json'], env);
    onTestFinished(() => follow.kill());
    const first = await follow.lines.next();
    if (first.done) {
      const { code, stderr } = await follow.exit;
      throw new Error(
        `dial --follow printed nothing: exit ${code}, stderr ${JSON.stringify(stderr)}`,
      );
    }
    const outcome = JSON.parse(first.value) as { status: string; call: Call };
    // The call as it is when the dial is answered: events the platform posted before its answer
    // (a slow answer, a busy computer) may have moved it on already.
    expect(outcome).toMatchObject({ status: 'dialing' });
    expect(['dialing', 'calling-you', 'in-progress']).toContain(outcome.call.state);
    const seen: Call[] = [];
    // The follower's next line, 30 s at most (a probe of `until` that never returns is never
    // timed out by it): the failure says what the follower printed and said until then.
    const next = async () => {
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<never>((_, fail) => {
        timer = setTimeout(() => {
          const printed = JSON.stringify(seen.map((call) => [call.state, call.leg_ids]));
          fail(
            new Error(
              `dial --follow printed nothing more after ${printed}; stderr ${JSON.stringify(follow.stderr())}`,
            ),
          );
        }, 30_000);
      });
      const line = await Promise.race([follow.lines.next(), silence]).finally(() =>
        clearTimeout(timer),
      );
      if (line.done) return undefined;
      const { call } = JSON.parse(line.value) as { call: Call };
      seen.push(call);
      return call;
    };
    const simCall = await until('the call', async () =>
      (await control.calls()).find((call) => call.to === '+49301234567'),
    );
    const ownLeg = simCall.legs[0]!.id;
    await until('the first leg', async () =>
      (await next())?.leg_ids.includes(ownLeg) ? true : undefined,
    );
    await control.answerLeg(ownLeg);
    const calleeLeg = (await control.getCall(simCall.id)).legs[1]!.id;
    await control.answerLeg(calleeLeg);
    const connected = await until('both legs', async () => {
      const call = await next();
      return call?.leg_ids.length === 2 && (!fullEvents(profile) || call.state === 'connected')
        ? call
        : undefined;
    });
    expect(connected.leg_ids).toEqual([ownLeg, calleeLeg]);
    if (fullEvents(profile)) {
      expect(seen.map((call) => call.state)).toContain('calling-you');
    }

    // Another terminal: the call log of the profile knows the legs the follower saw (once the
    // follower's write of it is done: it prints a change at once and writes it right after).
    const listed = await until('the legs in the call log', async () => {
      const snapshot = JSON.parse(
        (await runCallbarInProcess(['calls', '--json'], env)).stdout,
      ) as CallsSnapshot;
      return snapshot.current[0]?.leg_ids.length === 2 ? snapshot : undefined;
    });
    expect(listed.current[0]!.leg_ids).toEqual([ownLeg, calleeLeg]);
    const hangup = await runCallbarInProcess(['hangup'], env);
    expect(hangup).toMatchObject({ code: 0, stdout: 'Hung up.' });
    expect((await control.getCall(simCall.id)).state).toBe('ended');

    // The follower sees the end (from the events, or from the call log) and exits 0.
    const rest = await allOutput(follow);
    expect(rest.code).toBe(0);
    const last = JSON.parse(rest.stdout.split('\n').at(-1)!) as { call: Call };
    expect(last.call.state).toBe('ended');

    const human = await runCallbarInProcess(['calls'], env);
    expect(human.stdout).toMatch(/No call in progress\.\n\nRecent:\nSTARTED\s+DIRECTION\s+PARTY/);
    expect(human.stdout).toContain('+49 30 1234567');
  });

  it('CALLBAR_REGION=GB dials "020 7123 4567" as +442071234567', async () => {
    const result = await runCallbarInProcess(['dial', '020 7123 4567', '--json'], {
      ...env,
      CALLBAR_REGION: 'GB',
    });
    expect(result.code).toBe(0);
    const call = await until('the call', async () =>
      (await control.calls()).find((each) => each.to === '+442071234567'),
    );
    const dialed = (await control.requests()).filter(
      (request) => request.path === '/v3/call_control/',
    );
    expect(JSON.stringify(dialed.at(-1)!.body)).toContain('"destination":"+442071234567"');
    // A leg id ends it (`dial` then plain `hangup`: test/integration/cli/dial.test.ts).
    const byLeg = await runCallbarInProcess(['hangup', call.legs[0]!.id], env);
    expect(byLeg).toMatchObject({ code: 0, stdout: 'Hung up.' });
    const again = await runCallbarInProcess(['hangup', call.legs[0]!.id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('That call has already ended, or it is not yours to end.');
  });

  it('refuses what is not a number, with a sentence', async () => {
    const result = await runCallbarInProcess(['dial', '+49 30 1234567; rm -rf ~'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('That is not a phone number');
    expect((await runCallbarInProcess(['dial'], env)).code).toBe(2);
  });

  it('refuses a call leg id no event could name before anything is sent (exit 2)', async () => {
    const sent = (await control.requests()).length;
    for (const leg of ['', ' ', 'x'.repeat(100_000)]) {
      const result = await runCallbarInProcess(['hangup', leg], env);
      expect(result.code, JSON.stringify(leg.slice(0, 10))).toBe(2);
      expect(result.stderr).toContain(
        'CALL_LEG_ID is a call leg’s id as `callbar calls --json` shows it: 1 to 128 characters.',
      );
    }
    expect((await control.requests()).length).toBe(sent);
  });

  it('open-url never dials unconfirmed where nobody can answer', async () => {
    const before = (await control.calls()).length;
    const result = await runCallbarInProcess(['open-url', 'tel:+1-202-555-0188'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Links ask before dialing\. There is nobody to ask here/);
    // A meeting's PIN after a pause is in the command offered instead (before, it was left out).
    const meeting = await runCallbarInProcess(
      ['open-url', 'tel:+1-202-555-0188;postd=pp123%23'],
      env,
    );
    expect(meeting.stderr).toContain('run `callbar dial "+12025550188,123#"`');
    expect((await control.calls()).length).toBe(before);
    const notALink = await runCallbarInProcess(['open-url', 'https://example.com'], env);
    expect(notALink.code).toBe(1);
    expect(notALink.stderr).toMatch(/only tel:, callto: and sip: links/);
    // Not the number an earlier test dialled: within 2 s that would be a repeat dial, refused.
    const allowed = await runCallbarInProcess(['open-url', 'tel:+44-20-7946-0018', '--json'], {
      ...env,
      CALLBAR_CONFIRM_WEB_LINKS: 'false',
      // In its own country: a link abroad would ask whatever the setting.
      CALLBAR_REGION: 'GB',
    });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ status: 'dialing' });
    const call = await until('the call', async () =>
      (await control.calls()).find((each) => each.to === '+442079460018' && each.state !== 'ended'),
    );
    await control.endLeg(call.legs[0]!.id);
  });

  it('two `callbar dial 2200` at once (two processes of the profile): one call, one refusal', async () => {
    const dialsOf2200 = async () =>
      (await control.requests()).filter(
        (request) =>
          request.path === '/v3/call_control/' &&
          JSON.stringify(request.body).includes('"destination":"2200"'),
      ).length;
    const before = await dialsOf2200();
    const results = await Promise.all([
      runCallbar(['dial', '2200'], env),
      runCallbar(['dial', '2200'], env),
    ]);
    const placed = results.filter((result) => result.code === 0);
    const refused = results.filter((result) => result.code !== 0);
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.code).toBe(1);
    expect(refused[0]!.stderr).toContain(
      'Already calling Extension 2200: one click is one call. To call again, wait a moment.',
    );
    expect(await dialsOf2200()).toBe(before + 1);
    const call = await until('the call', async () =>
      (await control.calls()).find((each) => each.to === '2200' && each.state !== 'ended'),
    );
    await control.endLeg(call.legs[0]!.id);
  });

  it('dial --follow dials nothing when it cannot receive events', async () => {
    const blocker = createServer();
    await new Promise<void>((ready) => blocker.listen(port, '127.0.0.1', ready));
    try {
      const before = (await control.calls()).length;
      const result = await runCallbarInProcess(['dial', '+4930123456', '--follow'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/cannot follow the call.*Nothing was dialed/s);
      expect((await control.calls()).length).toBe(before);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it("dial --follow while Callbar runs on the profile (the demo's window) says so and dials nothing", async () => {
    // The running app holds the receiver; the port alone would only say "already in use".
    const blocker = createServer();
    await new Promise<void>((ready) => blocker.listen(port, '127.0.0.1', ready));
    const door = await openLinkDoor({
      dataDir,
      log: silentLogger,
      deliver: () => Promise.resolve<DoorAnswer>({ ok: true, status: 'dialing', display: '1' }),
    });
    try {
      const before = (await control.calls()).length;
      const result = await runCallbarInProcess(['dial', '+4930123456', '--follow'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "Callbar is running with this profile (the app, or the demo's window) and receives the call events itself, so this command cannot follow the call. Nothing was dialed: dial without --follow, and the running Callbar shows the call.",
      );
      expect(result.stderr).not.toContain('CALLBAR_RECEIVER_PORT');
      expect((await control.calls()).length).toBe(before);
    } finally {
      await door.close();
      await new Promise((done) => blocker.close(done));
    }
  });
});

/**
 * `callbar calls export` as a user runs it (the real bin once, else the CLI inside the test's
 * process; the real keychain of a throwaway profile): the recent calls the running app followed,
 * with the note the window put on one, read by a second process from the profile's call log and
 * call-notes.json; to stdout, or to a file readable by the user only. Under both simulator
 * profiles (under `minimal` the caller is "Unknown caller", with no number).
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { CallsSnapshot } from '../../../src-shared/contract';
import { startCore, type CallbarCore } from '../../../src-main/core/callbar-core';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openProfile } from '../../../src-main/core/profile';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import {
  allOutput,
  callbarInProcess,
  runCallbar,
  runCallbarInProcess,
} from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { until } from '../../support/until';
import {
  completePortalFlow,
  forEachProfile,
  fullEvents,
  profileEnv,
  registerProfile,
  startSim,
} from '../../support/sim-harness';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

forEachProfile((profile) => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let core: CallbarCore;

  beforeAll(async () => {
    sim = await startSim({ profile });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-calls-export-'));
    env = profileEnv(sim, dataDir, await freePort());
    await registerProfile(sim, env);
    const run = callbarInProcess(['activate', '--no-browser', '--json'], env);
    const { portal_link } = JSON.parse((await run.lines.next()).value as string) as {
      portal_link: string;
    };
    const alice = sim.users[0]!;
    await completePortalFlow(portal_link, {
      username: alice.username,
      password: alice.password,
      action: 'subscribe',
    });
    expect((await allOutput(run)).code).toBe(0);
    // The app on the same profile: it follows a call and the user notes it in the window.
    core = await startCore({
      runtime: 'preview',
      profile: openProfile({ env, log: silentLogger }),
      openUrl: () => Promise.resolve(),
    });
    await core.profile.account.listen();
  });
  afterAll(async () => {
    await core?.close();
    await openVault({ dataDir }).clear();
    await sim?.close();
  });

  it('exports the recent calls with the note the window put on one', async () => {
    const invoke = async <T>(channel: string, request: unknown = {}) => {
      const result = await core.router.invoke(channel, request);
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value as T;
    };
    const control = new SimControl(sim.base_url);
    await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: sim.users[0]!.extension,
      from: '+12025550166',
    });
    await control.webhooksSettled(20_000);
    await until('both legs', async () =>
      (await invoke<CallsSnapshot>('calls.list')).current[0]?.leg_ids.length === 2
        ? true
        : undefined,
    );
    await invoke('calls.hangup');
    const ended = (await invoke<CallsSnapshot>('calls.list')).recent[0]!;
    await invoke('calls.setNote', { call_id: ended.id, note: '@boss: send the quote, 5% off' });

    const out = await runCallbar(['calls', 'export'], env);
    expect(out.code).toBe(0);
    const lines = out.stdout.split(/\r?\n/);
    expect(lines[0]).toBe('Started,Direction,State,Name,Company,Number,Talk time (s),Reason,Note');
    expect(lines[1]).toContain(`${ended.started_at},incoming,ended,`);
    // A number starting with + is text to a spreadsheet only after the apostrophe, as in the
    // contacts' CSV; under minimal nothing named the caller.
    expect(lines[1]).toContain(fullEvents(profile) ? `,"'+12025550166",` : 'ended,,,,');
    // A note a spreadsheet would run (it starts with @) is written after an apostrophe.
    expect(lines[1]).toMatch(/,"'@boss: send the quote, 5% off"$/);

    // Into a folder that exists: a missing one is refused, never made (contacts.test.ts).
    mkdirSync(join(dataDir, 'exports'), { recursive: true });
    const file = join(dataDir, 'exports', 'calls.csv');
    const saved = await runCallbarInProcess(['calls', 'export', '--output', file, '--json'], env);
    expect(saved.code).toBe(0);
    expect(JSON.parse(saved.stdout)).toEqual({ file, calls: 1 });
    // A file begins with UTF-8's byte-order mark (Excel reads "Müller" as written); stdout not.
    expect(readFileSync(file, 'utf8')).toBe(`\uFEFF${lines.slice(0, 2).join('\r\n')}\r\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const refused = await runCallbarInProcess(['calls', 'export', '--output', ''], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--output needs a file name.');
  });
});

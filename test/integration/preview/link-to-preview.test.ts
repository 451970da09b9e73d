/**
 * `callbar open-url tel:…` while the web preview runs reaches the preview, as a link reaches the
 * running app (issue 46: it used to say "there is nobody to ask here"): a premium-rate link waits
 * for a yes in the preview's window; an ordinary one follows "dial links without asking". The
 * real bin, the real preview process and keychain, the simulator (minimal profile).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import type { CallsSnapshot } from '../../../src-shared/contract';
import { doorFilePath } from '../../../src-main/core/desktop/link-door-format';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { activateThroughCli, runCallbar } from '../../support/cli-process';
import { freePort } from '../../support/free-port';
import { startPreviewProcess, type PreviewProcess } from '../../support/preview-process';
import { advanceClock, profileEnv, registerProfile, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

let sim: RunningSimulator;
let control: SimControl;
let env: NodeJS.ProcessEnv;
let dataDir: string;
let preview: PreviewProcess;

/** A call on the preview's own channel, as its page makes it. */
async function invoke<T>(channel: string, body: unknown): Promise<T> {
  const result = await preview.invoke<T>(channel, body);
  expect(result.ok).toBe(true);
  return result.value;
}

beforeAll(async () => {
  sim = await startSim({ profile: 'minimal' });
  control = new SimControl(sim.base_url);
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-link-preview-'));
  env = profileEnv(sim, dataDir, await freePort());
  await registerProfile(sim, env);
  expect((await activateThroughCli(env, sim.users[0]!)).code).toBe(0);
  // A stand-in renderer: this test is about the link, not the page.
  const out = mkdtempSync(join(tmpdir(), 'callbar-link-preview-out-'));
  mkdirSync(join(out, 'renderer'));
  mkdirSync(join(out, 'preview'));
  writeFileSync(join(out, 'renderer/index.html'), '<html><head></head><body></body></html>');
  writeFileSync(join(out, 'preview/bridge.js'), '');
  preview = await startPreviewProcess({ ...env, CALLBAR_OUT_DIR: out });
  await until('the preview’s link door', () => existsSync(doorFilePath(dataDir)) || undefined);
});
afterAll(async () => {
  await preview?.stop();
  await openVault({ dataDir }).clear();
  await sim?.close();
});

it('a premium-rate link from another program waits for a yes in the preview’s window', async () => {
  const opened = await runCallbar(['open-url', 'tel:+49-900-1234567'], env);
  expect(opened).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(
      /^Callbar, running, asks in its window before dialing \+49 900\D*1\D*234567\.$/,
    ) as string,
  });
  expect(opened.stderr).not.toContain('nobody to ask');
  const { pending } = await invoke<CallsSnapshot>('calls.list', {});
  expect(pending).toMatchObject({
    source: 'tel-link',
    target: { class: 'premium-rate', e164: '+499001234567' },
  });
  expect(await control.calls()).toEqual([]);
});

it('an ordinary link dials at once when links dial without asking; --json says so', async () => {
  await invoke('settings.save', { confirm_web_links: false });
  await advanceClock(sim, 61);
  // A number of the user's own country (region US): no reason to ask.
  const opened = await runCallbar(['open-url', '--json', 'tel:+1-212-555-0123'], env);
  expect(opened.code).toBe(0);
  expect(JSON.parse(opened.stdout)).toEqual({
    running: true,
    ok: true,
    status: 'dialing',
    // As Callbar shows numbers (the one number module decides the form).
    display: expect.stringMatching(/212\D*555\D*0123$/) as string,
  });
  const call = await until('the call', async () =>
    (await control.calls()).find((each) => each.to === '+12125550123'),
  );
  expect(call).toBeDefined();
});

it('a link the running Callbar refuses is said by it, with its reason (exit 1)', async () => {
  const opened = await runCallbar(['open-url', 'tel:*21*0301234567%23'], env);
  expect(opened.code).not.toBe(0);
  expect(opened.stderr).toContain('never dials a service code from a link');
  // --json's failure says the account's state as it is, connected (before: "not-connected",
  // the state of an account this command never read).
  const json = await runCallbar(['open-url', '--json', 'tel:*21*0301234567%23'], env);
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout)).toMatchObject({
    state: 'connected',
    error: { code: expect.any(String) as string },
  });
});

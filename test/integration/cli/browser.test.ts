/**
 * `callbar browser install|status|uninstall` with HOME in a temporary folder, as a user runs them:
 * the real bin writes the host manifest where the browser looks and a launcher that starts this
 * CLI's native host for this profile; the launcher really speaks native messaging.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { NATIVE_HOST_NAME } from '../../../src-main/core/browser/extension-identity';
import { runCallbar } from '../../support/cli-process';
import { frame } from '../../support/native-host-client';

const home = mkdtempSync(join(tmpdir(), 'callbar-browser-home-'));
const dataDir = join(home, 'profile');
const env = { HOME: home, XDG_CONFIG_HOME: '', CALLBAR_DATA_DIR: dataDir };
const chromiumManifest = join(
  home,
  '.config/chromium/NativeMessagingHosts',
  `${NATIVE_HOST_NAME}.json`,
);

it('without --browser and no browser folder, install says to name one (exit 2)', async () => {
  const run = await runCallbar(['browser', 'install'], env);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('No Chromium, Chrome, Edge or Firefox folder was found');
});

it('install registers the host for Chromium; the launcher answers as the host', async () => {
  const installed = await runCallbar(['browser', 'install', '--browser', 'chromium'], env);
  expect(installed.code).toBe(0);
  expect(installed.stdout).toContain(
    `Chromium: Callbar’s host is registered (${chromiumManifest}).`,
  );
  const manifest = JSON.parse(readFileSync(chromiumManifest, 'utf8')) as {
    path: string;
    allowed_origins: string[];
  };
  expect(manifest.allowed_origins).toEqual([
    expect.stringMatching(/^chrome-extension:\/\/[a-p]{32}\/$/),
  ]);
  expect(statSync(manifest.path).mode & 0o777).toBe(0o700);
  // The launcher is what the browser runs: status through it, for this profile.
  const host = spawn(manifest.path, [manifest.allowed_origins[0]!], {
    env: { ...process.env, HOME: home, CALLBAR_DATA_DIR: '', CALLBAR_REGION: 'GB' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  host.stdin.end(frame(Buffer.from(JSON.stringify({ id: 1, type: 'status' }))));
  const chunks: Buffer[] = [];
  for await (const chunk of host.stdout) chunks.push(chunk as Buffer);
  const answer = Buffer.concat(chunks);
  expect(JSON.parse(answer.subarray(4, 4 + answer.readUInt32LE(0)).toString())).toMatchObject({
    id: 1,
    ok: true,
    region: 'GB',
  });
  // The launcher named this profile: its log is there.
  expect(existsSync(join(dataDir, 'logs'))).toBe(true);
});

it('status says where it is registered; --json for programs', async () => {
  const status = await runCallbar(['browser', 'status', '--json'], env);
  // The document, then exit 0 (not a crash on what writing stdout returned).
  expect([status.code, status.stderr]).toEqual([0, '']);
  const { hosts, callbar_running } = JSON.parse(status.stdout) as {
    hosts: { browser: string; status: { state: string } }[];
    callbar_running: boolean;
  };
  expect(Object.fromEntries(hosts.map((each) => [each.browser, each.status.state]))).toEqual({
    chromium: 'registered',
    chrome: 'not-registered',
    edge: 'not-registered',
    firefox: 'not-registered',
  });
  expect(callbar_running).toBe(false);
  const text = await runCallbar(['browser', 'status'], env);
  expect(text.stdout).toMatch(/Chromium\s+registered/);
  expect(text.stdout).toContain('No Callbar runs for this profile');
});

it('without --browser, install picks the browsers whose folder exists (Firefox here)', async () => {
  mkdirSync(join(home, '.mozilla'), { recursive: true });
  const installed = await runCallbar(['browser', 'install', '--json'], env);
  expect([installed.code, installed.stderr]).toEqual([0, '']);
  const { installed: done } = JSON.parse(installed.stdout) as { installed: { browser: string }[] };
  expect(done.map((each) => each.browser).sort()).toEqual(['chromium', 'firefox']);
  const firefox = JSON.parse(
    readFileSync(join(home, '.mozilla/native-messaging-hosts', `${NATIVE_HOST_NAME}.json`), 'utf8'),
  ) as Record<string, unknown>;
  expect(firefox.allowed_extensions).toEqual(['click-to-dial@callbar.com']);
});

it('uninstall removes the manifests; a browser name it does not know is a usage error', async () => {
  const removed = await runCallbar(['browser', 'uninstall'], env);
  expect(removed.code).toBe(0);
  expect(existsSync(chromiumManifest)).toBe(false);
  expect(removed.stdout).toContain('Firefox: Callbar’s host is no longer registered');
  // Again: nothing to remove, said, exit 0; --json likewise.
  const again = await runCallbar(['browser', 'uninstall'], env);
  expect([again.code, again.stderr]).toEqual([0, '']);
  const againJson = await runCallbar(['browser', 'uninstall', '--json'], env);
  expect([againJson.code, againJson.stderr]).toEqual([0, '']);
  const { uninstalled } = JSON.parse(againJson.stdout) as { uninstalled: { removed: boolean }[] };
  expect(uninstalled.every((each) => !each.removed)).toBe(true);
  const unknown = await runCallbar(['browser', 'install', '--browser', 'netscape'], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(
    'There is no browser “netscape” here: choose one of chromium, chrome, edge, firefox.',
  );
});

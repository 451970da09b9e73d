/**
 * The extension as `npm run build` makes it (scripts/build-extension.mjs, built here into a
 * temporary folder): Firefox's manifest passes Mozilla's linter (`web-ext lint`, offline: its
 * schemas ship with it), the Chromium manifest carries the key that gives the id the host
 * manifest allows, both speak Callbar's languages, and the content script stays within its
 * weight (60 KB gzip with libphonenumber's min metadata; the bench prints the figure).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { beforeAll, expect, it, vi } from 'vitest';
import {
  CHROMIUM_EXTENSION_KEY,
  FIREFOX_EXTENSION_ID,
} from '../../../src-main/core/browser/extension-identity';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const out = join(mkdtempSync(join(tmpdir(), 'callbar-extension-')), 'browser-extension');
const manifestOf = (browser: string) =>
  JSON.parse(readFileSync(join(out, browser, 'manifest.json'), 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  await run(process.execPath, ['scripts/build-extension.mjs', '--out', out], { cwd: root });
});

it('web-ext lint finds no error, warning or notice in the Firefox build', async () => {
  const { stdout } = await run(
    process.execPath,
    [
      join(root, 'node_modules/web-ext/bin/web-ext.js'),
      'lint',
      '--source-dir',
      join(out, 'firefox'),
      '--output',
      'json',
      '--no-config-discovery',
    ],
    { cwd: root, env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } },
  );
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    summary: Record<string, number>;
  };
  expect(report.summary).toEqual({ errors: 0, notices: 0, warnings: 0 });
  expect(manifestOf('firefox')).toMatchObject({
    manifest_version: 3,
    browser_specific_settings: { gecko: { id: FIREFOX_EXTENSION_ID } },
    background: { scripts: ['background.js'] },
  });
});

it('the Chromium build has the fixed key, a service worker and only the permissions it uses', () => {
  const manifest = manifestOf('chromium');
  expect(manifest).toMatchObject({
    manifest_version: 3,
    key: CHROMIUM_EXTENSION_KEY,
    background: { service_worker: 'background.js' },
    permissions: ['nativeMessaging', 'contextMenus', 'notifications'],
  });
  expect(manifest).not.toHaveProperty('host_permissions');
  expect(manifest).not.toHaveProperty('externally_connectable');
  const [script] = manifest.content_scripts as Record<string, unknown>[];
  expect(script).toMatchObject({ all_frames: true, js: ['content.js'] });
});

it('speaks Callbar’s languages: the menu item from the cli catalog, in English and German', () => {
  const words = (locale: string) =>
    JSON.parse(
      readFileSync(join(out, 'chromium/_locales', locale, 'messages.json'), 'utf8'),
    ) as Record<string, { message: string }>;
  expect(words('en').menuTitle!.message).toBe('Call with Callbar');
  expect(words('de').menuTitle!.message).toBe('Mit Callbar anrufen');
});

it('the content script weighs at most 60 KB gzip', () => {
  const gzip = gzipSync(readFileSync(join(out, 'chromium/content.js')), { level: 9 });
  expect(gzip.length).toBeLessThanOrEqual(60 * 1024);
});

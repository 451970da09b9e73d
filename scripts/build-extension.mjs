// Builds Callbar's browser extension (browser-extension/) into out/browser-extension/chromium/ and
// out/browser-extension/firefox/, unpacked (run by `npm run build`): the content script and the
// background bundled by esbuild (libphonenumber-js with its min metadata inside), the manifest
// of each browser (the Chromium one with the fixed `key`, so its id is stable; the Firefox one
// with its gecko id), the style sheet, the icon, and _locales/ made from the `cli` catalog's
// `browser.*` words, so the extension speaks the languages Callbar speaks.
//
//   node scripts/build-extension.mjs [--out DIR]   (default out/browser-extension)
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const source = join(root, 'browser-extension');
const identity = JSON.parse(readFileSync(join(source, 'identity.json'), 'utf8'));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outRoot = values.out ? resolve(values.out) : join(root, 'out/browser-extension');

/** The extension's own words, from the cli catalog of each language Callbar has. */
function messages(locale) {
  const { browser } = JSON.parse(
    readFileSync(join(root, `src-shared/i18n/locales/${locale}/cli.json`), 'utf8'),
  );
  const words = {
    extName: browser.extension.name,
    extDescription: browser.extension.description,
    menuTitle: browser.menuTitle,
    hostUnavailable: browser.extension.hostUnavailable,
    noNumber: browser.extension.noNumber,
  };
  return Object.fromEntries(
    // `$` starts a placeholder in the browsers' message format: written as `$$`.
    Object.entries(words).map(([key, text]) => [key, { message: text.replaceAll('$', '$$$$') }]),
  );
}

function manifest(browser) {
  const common = {
    manifest_version: 3,
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    version,
    default_locale: 'en',
    icons: { 512: 'icon.png' },
    permissions: ['nativeMessaging', 'contextMenus', 'notifications'],
    content_scripts: [
      {
        matches: ['http://*/*', 'https://*/*'],
        js: ['content.js'],
        css: ['content.css'],
        all_frames: true,
        match_about_blank: true,
        run_at: 'document_idle',
      },
    ],
  };
  return browser === 'chromium'
    ? {
        ...common,
        key: identity.chromium.key,
        minimum_chrome_version: '116',
        background: { service_worker: 'background.js' },
      }
    : {
        ...common,
        background: { scripts: ['background.js'] },
        browser_specific_settings: {
          gecko: {
            id: identity.firefox.id,
            // The first versions that know data_collection_permissions (Callbar collects nothing).
            strict_min_version: '140.0',
            data_collection_permissions: { required: ['none'] },
          },
          gecko_android: { strict_min_version: '142.0' },
        },
      };
}

const staging = `${outRoot}.${process.pid}`;
try {
  const bundled = join(staging, 'bundled');
  await build({
    absWorkingDir: root,
    entryPoints: {
      content: 'browser-extension/src/content/content-script.ts',
      background: 'browser-extension/src/background/background.ts',
    },
    outdir: bundled,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome116', 'firefox128'],
    minify: true,
    legalComments: 'none',
    define: { NATIVE_HOST_NAME: JSON.stringify(identity.native_host) },
    logLevel: 'warning',
  });
  for (const browser of ['chromium', 'firefox']) {
    const dir = join(staging, browser);
    mkdirSync(dir, { recursive: true });
    cpSync(join(bundled, 'content.js'), join(dir, 'content.js'));
    cpSync(join(bundled, 'background.js'), join(dir, 'background.js'));
    cpSync(join(source, 'content.css'), join(dir, 'content.css'));
    cpSync(join(root, 'resources/icon.png'), join(dir, 'icon.png'));
    for (const locale of ['en', 'de']) {
      mkdirSync(join(dir, '_locales', locale), { recursive: true });
      writeFileSync(
        join(dir, '_locales', locale, 'messages.json'),
        `${JSON.stringify(messages(locale), null, 2)}\n`,
      );
    }
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest(browser), null, 2)}\n`);
  }
  rmSync(bundled, { recursive: true, force: true });
  rmSync(outRoot, { recursive: true, force: true });
  mkdirSync(dirname(outRoot), { recursive: true });
  renameSync(staging, outRoot);
} finally {
  rmSync(staging, { recursive: true, force: true });
}

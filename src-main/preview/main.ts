/**
 * `npm run preview` / the demo without Electron: starts the core and the web preview server,
 * prints the address (with its session token), and opens the browser when there is one.
 *
 *   tsx src-main/preview/preview-program.ts [--port N] [--no-open] [--json] [--stdin-shortcut]
 *
 * One function, run by the program (preview-program.ts): without a top-level await it bundles
 * as one CommonJS script, which the built entry (start.ts) runs with a V8 code cache
 * (core/files/code-cache.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startCore, type CallbarCore } from '../core/callbar-core';
import { isCrmUrl } from '../core/crm/crm-template';
import { refusedExternalUrl } from '../core/desktop/external-url';
import { openLinkDoor, type LinkDoor } from '../core/desktop/link-door';
import { focusSearchEvent, openDialLink } from '../core/desktop/shell-actions';
import { readPolicies } from '../core/config/policy/policies';
import { readPortOption } from '../core/config/local-port';
import { sayWith } from '../core/text/said';
import { translatorFor } from '../core/text/translators';
import { describeError } from '../core/errors';
import { openProfile, type Profile } from '../core/profile';
import { handleStopSignals } from '../core/stop-signals';
import { localeFromEnv, resolveLocale } from '../../src-shared/i18n/resolve-locale';
import { startPreviewServer, type PreviewServer } from './server';
import { readShortcutPresses } from './shortcut-input';

/** Starts the web preview as its command line (process.argv) asks. */
export async function runPreview(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      open: { type: 'boolean', default: true },
      json: { type: 'boolean', default: false },
      /** Print addresses Callbar would open in the browser as JSON lines instead (tests). */
      'print-opened-urls': { type: 'boolean', default: false },
      /**
       * Take presses of the global dial shortcut from stdin (tests; a browser tab has no global
       * shortcut): one JSON line each, {"shortcut":"dial","clipboard":"…"}.
       */
      'stdin-shortcut': { type: 'boolean', default: false },
    },
    allowNegative: true,
  });
  // Checked before anything starts: a port browsers refuse could not show the window.
  const port = readPortOption(values.port, '--port', true);
  if (typeof port !== 'number') {
    const words = translatorFor(resolveLocale({ env: process.env }), 'errors');
    process.stderr.write(`callbar preview: ${sayWith(words, port)}\n`);
    process.exit(2);
  }

  // CALLBAR_OUT_DIR points at another build output (tests use it); the default is this checkout's.
  const outDir =
    process.env.CALLBAR_OUT_DIR ?? fileURLToPath(new URL('../../out', import.meta.url));
  const rendererDir = join(outDir, 'renderer');
  const bridgeFile = join(outDir, 'preview/bridge.js');
  if (!existsSync(join(rendererDir, 'index.html')) || !existsSync(bridgeFile)) {
    process.stderr.write('The renderer is not built yet: run `npm run build` first.\n');
    process.exit(1);
  }

  const hasDisplay =
    process.platform !== 'linux' || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);
  const canOpenBrowser = values.open && hasDisplay && !process.env.CI;

  // The machine's policies first, as the app reads them (a plist or the Windows registry is only
  // read asynchronously).
  const policies = await readPolicies({ env: process.env });
  let profile: Profile;
  try {
    profile = openProfile({ policies });
  } catch (error) {
    process.stderr.write(`callbar preview: ${describeError(error).message}\n`);
    process.exit(1);
  }
  // From here on Ctrl+C stops the server, then the core (or, while it starts, the profile), which
  // first stores a session the platform just issued (the first sync may be refreshing it).
  const started: { core?: CallbarCore; server?: PreviewServer; door?: LinkDoor } = {};
  handleStopSignals({
    stop: async () => {
      await started.door?.close();
      await started.server?.close();
      await (started.core ?? profile).close();
    },
    saving: () => profile.account.tokens.saving,
    say: (line) => process.stderr.write(`${line}\n`),
  });
  /** The browser opener, loaded when first used (a start that opens nothing never loads it). */
  const open = async (url: string) => (await import('open')).default(url);
  const openUrl = async (url: string) => {
    if (values['print-opened-urls']) process.stdout.write(JSON.stringify({ opened: url }) + '\n');
    else if (canOpenBrowser) await open(url);
    else process.stdout.write(`Open this address in your browser:\n  ${url}\n`);
  };
  // The system's languages are the browser's, as its page says them (the window speaks them
  // too); until a page asked, the POSIX locale's.
  const posixLanguage = localeFromEnv(process.env);
  let pageLanguages: readonly string[] | undefined;
  // The server listens and the address is printed while the core starts (its cache read, the
  // keychain): the page loads meanwhile, and its requests wait for the core.
  const coreStart = startCore({
    runtime: 'preview',
    profile,
    openUrl,
    systemLanguages: () => pageLanguages ?? (posixLanguage ? [posixLanguage] : undefined),
    // The desktop shell's allow-list for CRM links, here too.
    openCrmUrl: (url) =>
      isCrmUrl(url, profile.settings.crm_links)
        ? openUrl(url)
        : Promise.reject(new Error(refusedExternalUrl(url))),
  });
  // Stopping while it starts closes the profile; a start that fails is thrown below.
  coreStart.then(
    (core) => (started.core = core),
    () => undefined,
  );
  const server = (started.server = await startPreviewServer({
    core: coreStart,
    rendererDir,
    bridgeFile,
    port,
    log: profile.log,
    pageLanguages: (languages) => (pageLanguages = languages),
  }));

  if (values.json) {
    process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
  } else {
    process.stdout.write(
      `Callbar preview running at\n\n  ${server.url}\n\nPress Ctrl+C to stop.\n`,
    );
  }
  const core = await coreStart;
  // A link from another program (`callbar open-url`, the browser extension's native host) reaches
  // the preview as it reaches the running app: the page asks where the link asks.
  started.door = await openLinkDoor({
    dataDir: profile.dataDir,
    log: profile.log,
    deliver: async (link) => (await openDialLink(core.router, link)).answer,
  }).catch((error: unknown) => {
    process.stderr.write(`Links from other programs cannot reach this preview: ${String(error)}\n`);
    return undefined;
  });

  if (canOpenBrowser) {
    // Not server.url: a command line is readable by every local user.
    open(server.browserUrl).catch(() => {
      process.stderr.write('Could not open a browser; open the address above yourself.\n');
    });
  }

  if (values['stdin-shortcut']) {
    // What the desktop shell does on its global shortcut, for the page: the same event from core.
    readShortcutPresses(process.stdin, profile.log, async (clipboard) => {
      core.events.publish(await focusSearchEvent(core.router, clipboard));
    });
  }
}

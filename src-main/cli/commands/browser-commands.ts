/**
 * `callbar browser install|uninstall|status` (Callbar's native messaging host for the browser
 * extension, per user or per machine) and `callbar native-host`, the host itself, which the
 * browser starts: it answers the extension's status and dial requests and nothing else. A dial
 * is a link from another program: it goes to the running Callbar (the link door), which asks in
 * its window where a link asks; with no Callbar running it is dialled here only when it needs no
 * yes, and otherwise refused with the reason.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { CallbarError } from '../../core/errors';
import { said } from '../../core/text/said';
import { terminalField } from '../../core/text/terminal-text';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { formatTable } from '../table';

const BROWSER_NAMES = ['chromium', 'chrome', 'edge', 'firefox'] as const;
type Browser = (typeof BROWSER_NAMES)[number];

const browserOptions = {
  browser: { type: 'string', short: 'b' },
  machine: { type: 'boolean' },
} as const;

function chosenBrowsers(value: string | undefined): Browser[] | undefined {
  if (value === undefined) return undefined;
  const browser = BROWSER_NAMES.find((name) => name === value.trim().toLowerCase());
  if (!browser) {
    throw new UsageError(
      said('cli:browser.unknownBrowser', { browser: value, browsers: BROWSER_NAMES.join(', ') }),
    );
  }
  return [browser];
}

/** The CLI's own entry (bin/callbar.mjs, links resolved), which the launcher runs. */
function cliEntry(ctx: CommandContext): string {
  const found = ctx.entry ? realpathSync(ctx.entry) : undefined;
  if (found && existsSync(found)) return found;
  throw new CallbarError('not_available', said('cli:browser.noCliEntry'));
}

/** Where the browsers keep their folders: the CLI's environment and the user's home. */
async function browserHost(ctx: CommandContext, machine: boolean | undefined) {
  const { homedir } = await import('node:os');
  const { dataDir, env } = await ctx.profile();
  // os.homedir() reads HOME on Unix; the environment the CLI was given says it first.
  const homeDir = (process.platform === 'win32' ? undefined : env.HOME) || homedir();
  const scope = machine ? ('machine' as const) : ('user' as const);
  return { dataDir, env, homeDir, scope };
}

/** The browsers whose folder exists on this computer (what `install` without --browser picks). */
async function presentBrowsers(host: { dataDir: string; env: NodeJS.ProcessEnv; homeDir: string }) {
  const { hostLocation } = await import('../../core/browser/host-registration');
  if (process.platform === 'win32') return [...BROWSER_NAMES];
  const where = { platform: process.platform, ...host };
  return BROWSER_NAMES.filter((browser) =>
    // The browser's own folder (the manifest folder's parent) is there once it ran.
    existsSync(dirname(dirname(hostLocation(browser, 'user', where).manifestFile))),
  );
}

export const browserCommands: CommandGroup = {
  title: 'browser',
  commands: [
    defineCommand({
      name: 'browser install',
      usage: '[--browser chromium|chrome|edge|firefox] [--machine]',
      options: browserOptions,
      async run(ctx, { values }) {
        const chosen = chosenBrowsers(values.browser);
        const { scope, ...host } = await browserHost(ctx, values.machine);
        // Per machine, every browser: one installed later finds the host already there (and an
        // administrator's own home says nothing about the browsers of the people on the desk).
        const browsers =
          chosen ?? (scope === 'machine' ? [...BROWSER_NAMES] : await presentBrowsers(host));
        if (browsers.length === 0) throw new UsageError(said('cli:browser.noBrowserFound'));
        const { installHost } = await import('../../core/browser/host-install');
        const node = process.execPath;
        const cli = cliEntry(ctx);
        const explicitDataDir = host.env.CALLBAR_DATA_DIR ? host.dataDir : undefined;
        const done = [];
        for (const browser of browsers) {
          done.push(
            await installHost({
              browser,
              scope,
              ...host,
              node,
              cli,
              ...(explicitDataDir ? { explicitDataDir } : {}),
            }),
          );
        }
        if (ctx.json) return ctx.io.out(JSON.stringify({ installed: done }));
        for (const each of done) {
          ctx.io.out(
            ctx.t('browser.installed', {
              browser: ctx.t(`browser.name.${each.browser}`),
              manifest: terminalField(each.manifest),
            }),
          );
        }
        ctx.io.out(ctx.t('browser.installedNext'));
      },
    }),
    defineCommand({
      name: 'browser uninstall',
      usage: '[--browser chromium|chrome|edge|firefox] [--machine]',
      options: browserOptions,
      async run(ctx, { values }) {
        const browsers = chosenBrowsers(values.browser) ?? [...BROWSER_NAMES];
        const { scope, ...host } = await browserHost(ctx, values.machine);
        const { uninstallHost } = await import('../../core/browser/host-install');
        const done = [];
        for (const browser of browsers) done.push(await uninstallHost({ browser, scope, ...host }));
        if (ctx.json) return ctx.io.out(JSON.stringify({ uninstalled: done }));
        const removed = done.filter((each) => each.removed);
        if (removed.length === 0) return ctx.io.out(ctx.t('browser.nothingToRemove'));
        for (const each of removed) {
          ctx.io.out(
            ctx.t('browser.removed', {
              browser: ctx.t(`browser.name.${each.browser}`),
              manifest: terminalField(each.manifest),
            }),
          );
        }
      },
    }),
    defineCommand({
      name: 'browser status',
      usage: '[--browser chromium|chrome|edge|firefox] [--machine]',
      options: browserOptions,
      async run(ctx, { values }) {
        const browsers = chosenBrowsers(values.browser) ?? [...BROWSER_NAMES];
        const { scope, ...host } = await browserHost(ctx, values.machine);
        const { hostStatus } = await import('../../core/browser/host-install');
        const { readDoorFile } = await import('../../core/desktop/link-door');
        const states = [];
        for (const browser of browsers) states.push(await hostStatus({ browser, scope, ...host }));
        const running = (await readDoorFile(host.dataDir).catch(() => undefined)) !== undefined;
        if (ctx.json)
          return ctx.io.out(JSON.stringify({ hosts: states, callbar_running: running }));
        ctx.io.out(
          formatTable(
            ctx.t,
            ['BROWSER', 'HOST', 'MANIFEST'],
            states.map((each) => [
              ctx.t(`browser.name.${each.browser}`),
              ctx.t(
                each.status.state === 'broken'
                  ? `browser.state.${each.status.problem}`
                  : `browser.state.${each.status.state}`,
              ),
              each.manifest,
            ]),
          ),
        );
        ctx.io.out(ctx.t(running ? 'browser.callbarRunning' : 'browser.callbarNotRunning'));
      },
    }),
    defineCommand({
      name: 'native-host',
      usage: '[ORIGIN | MANIFEST EXTENSION_ID]',
      // What the browser passes: Chrome the extension's origin (and on Windows --parent-window),
      // Firefox the manifest's path and the extension's id. The host checks none of it: the
      // browser starts it only for the extensions its manifest allows.
      options: { 'parent-window': { type: 'string' } },
      args: { name: 'ORIGIN', min: 0, max: 2 },
      async run(ctx) {
        const { serveBrowser } = await import('../native-host-run');
        await serveBrowser(ctx);
      },
    }),
  ],
};

/**
 * The Electron shell: thin wiring of the core into the OS. Every decision (which link a command
 * line carries, what the tray shows, which windows may talk to the core, what may open in the
 * browser, when to notify) lives in src-main/core/desktop and is tested under plain Node; this
 * file only connects Electron's pieces to it.
 */
import {
  app,
  clipboard,
  dialog,
  globalShortcut,
  Menu,
  session,
  type BrowserWindow,
} from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccountState, CallsSnapshot, ResponseOf } from '../../src-preload/contract';
import { startCore, type CallbarCore } from '../core/callbar-core';
import { resolveDataDir } from '../core/config/data-dir';
import { saveSettings } from '../core/config/settings-store';
import { APP_ID } from '../core/desktop/app-identity';
import { linkFromArgv, linkFromOpenUrl, LINK_SCHEMES } from '../core/desktop/launch-link';
import { linkHandlerStep, protocolClientArgs } from '../core/desktop/link-handler';
import { startsHidden } from '../core/desktop/login-item';
import { NotificationPlanner } from '../core/desktop/notification-planner';
import {
  dialFromTray,
  openDialLink,
  planClipboardDial,
  searchPrefill,
  type ShellNotice,
} from '../core/desktop/shell-actions';
import type { TrayAction, TrayState } from '../core/desktop/tray-model';
import { APP_ORIGIN, rendererOrigin } from '../core/desktop/window-security';
import { describeError } from '../core/errors';
import type { Logger } from '../core/log/logger';
import { openProfile } from '../core/profile';
import { createAppLogger } from './app-log';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { externalOpener } from './external';
import { forwardEvents, sendEvent, wireIpc } from './ipc-wiring';
import { applyLoginItem } from './login-item';
import { notify } from './notifications';
import { CallbarTray } from './tray';
import { createWindow, preloadPath, type WindowContext } from './windows';

const mainDir = dirname(fileURLToPath(import.meta.url));
// The dev server only ever in a development run: a packaged app ignores the variable.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const origin = rendererOrigin(devServerUrl);
const rendererUrl = devServerUrl ?? `${APP_ORIGIN}/index.html`;

const EMPTY_CALLS: CallsSnapshot = { current: [], recent: [], pending: null };

/** Links that arrive before the core is up wait here (macOS sends open-url very early). */
const earlyLinks: string[] = [];
let deliverLink = (link: string) => void earlyLinks.push(link);
let showMainWindow = () => undefined as unknown;
let quitting = false;

if (!app.requestSingleInstanceLock()) {
  // Another Callbar runs: Electron hands it our argv (a link after `--`) through second-instance.
  app.quit();
} else {
  registerAppScheme();
  // Windows shows notifications only for an app with this id (the installer's shortcut has it).
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  // Electron's userData is Callbar's data folder (CALLBAR_DATA_DIR or the OS convention).
  app.setPath('userData', resolveDataDir());
  const firstLink = linkFromArgv(process.argv);
  if (firstLink) earlyLinks.push(firstLink);

  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = linkFromOpenUrl(url);
    if (link) deliverLink(link);
  });
  app.on('second-instance', (_event, argv) => {
    const link = linkFromArgv(argv);
    if (link) deliverLink(link);
    else showMainWindow();
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  // Callbar lives in the tray: closing the last window does not quit it.
  app.on('window-all-closed', () => undefined);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (attach) => attach.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });

  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  const log = createAppLogger();
  let profile;
  try {
    // The keychain may prompt the user to unlock it: give them time.
    profile = openProfile({ keychainTimeoutMs: 60_000, log });
  } catch (error) {
    dialog.showErrorBox('Callbar cannot start', describeError(error).message);
    app.exit(1);
    return;
  }
  const { settings, dataDir } = profile;
  Menu.setApplicationMenu(
    process.platform === 'darwin'
      ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }])
      : null,
  );
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  session.defaultSession.setPermissionCheckHandler(() => false);
  serveRenderer(join(mainDir, '../renderer'));

  const openExternal = externalOpener(settings.portal_url, log);
  const core = await startCore({
    runtime: 'electron',
    profile,
    openUrl: openExternal,
    shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
  });
  wireIpc(core, origin);

  const context: WindowContext = {
    rendererUrl,
    rendererOrigin: origin,
    preloadFile: preloadPath(mainDir),
    dataDir,
    log,
    openExternal,
  };
  const windows = new WindowKeeper(core, context, settings.close_to_tray);
  showMainWindow = () => windows.showMain();
  const say = (notice: ShellNotice) => notify(log, notice, () => windows.showMain());

  const accountAnswer = await core.router.invoke('account.status', {});
  const account: AccountState = accountAnswer.ok
    ? (accountAnswer.value as ResponseOf<'account.status'>).state
    : 'not-connected';
  const callsAnswer = await core.router.invoke('calls.list', {});
  const state: TrayState = {
    account,
    calls: callsAnswer.ok ? (callsAnswer.value as CallsSnapshot) : EMPTY_CALLS,
    favourites: [],
  };

  const runTrayAction = (action: TrayAction) => void trayAction(action);
  const trayAction = async (action: TrayAction): Promise<void> => {
    switch (action.kind) {
      case 'open':
        windows.showMain();
        return;
      case 'quit':
        app.quit();
        return;
      case 'connect':
        windows.showMain();
        await core.router.invoke('account.connect', {});
        return;
      case 'hangup': {
        const result = await core.router.invoke('calls.hangup', { call_id: action.callId });
        if (!result.ok) say({ title: 'Callbar could not hang up', body: result.error.message });
        return;
      }
      case 'dial': {
        const notice = await dialFromTray(core.router, action.number);
        if (notice) say(notice);
        return;
      }
      case 'dial-clipboard':
        await dialClipboard();
        return;
    }
  };
  const dialClipboard = async () => {
    const plan = await planClipboardDial(core.router, await clipboard.readText());
    if (plan.kind === 'error') return say(plan.notice);
    const answer = await dialog.showMessageBox({
      type: 'question',
      title: 'Dial clipboard',
      message: plan.message,
      detail: plan.detail,
      buttons: ['Call', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
    });
    if (answer.response !== 0) return;
    const notice = await dialFromTray(core.router, plan.target.destination);
    if (notice) say(notice);
  };
  const tray = new CallbarTray(state, runTrayAction);

  const planner = new NotificationPlanner();
  planner.seed({ account: state.account, calls: state.calls });
  core.events.subscribe((event) => {
    if (event.type === 'account.changed') state.account = event.status.state;
    else if (event.type === 'calls.changed') state.calls = event.calls;
    else return;
    tray.update(state);
    for (const planned of planner.plan(event)) {
      notify(log, planned, () =>
        planned.onClick === 'connect' ? runTrayAction({ kind: 'connect' }) : windows.showMain(),
      );
    }
  });

  registerShortcut(settings.dial_shortcut, 'open the dial window', log, async () => {
    const window = windows.showMain();
    const query = await searchPrefill(core.router, await clipboard.readText());
    windows.whenLoaded(window, () => sendEvent(window, { type: 'app.focusSearch', query }));
  });
  registerShortcut(settings.clipboard_shortcut, 'dial the clipboard', log, dialClipboard);

  await offerLinkHandling(settings.handle_links, dataDir, log);
  await applyLoginItem(settings.open_at_login, log);

  deliverLink = (link) => {
    void openDialLink(core.router, link).then((plan) => {
      if (plan.showWindow) windows.showMain();
      if (plan.notice) say(plan.notice);
    });
  };
  const hidden = startsHidden({
    argv: process.argv,
    startMinimized: settings.start_minimized,
    wasOpenedAtLogin: process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin,
    hasLink: earlyLinks.length > 0,
  });
  if (account === 'not-connected') windows.showSetup();
  else if (!hidden) windows.showMain();
  earlyLinks.splice(0).forEach((link) => deliverLink(link));

  app.on('activate', () => windows.showMain());
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    // Let the core finish (receiver closed, settings and caches flushed) before the process ends.
    event.preventDefault();
    globalShortcut.unregisterAll();
    tray.destroy();
    void core
      .close()
      .catch((error: unknown) => log.warn('closing the core failed', { error }))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

/** The main window (created on demand, hidden rather than closed) and the first-run setup window. */
class WindowKeeper {
  #main: BrowserWindow | undefined;
  #setup: BrowserWindow | undefined;

  constructor(
    private readonly core: CallbarCore,
    private readonly context: WindowContext,
    private readonly closeToTray: boolean,
  ) {
    core.events.subscribe((event) => {
      // Setup is done once the account is connected: the main window takes over.
      if (event.type === 'account.changed' && event.status.state === 'connected' && this.#setup) {
        this.#setup.close();
        this.showMain();
      }
    });
  }

  showMain(): BrowserWindow {
    let window = this.#main;
    if (!window || window.isDestroyed()) {
      window = this.#open('main');
      window.on('close', (event) => {
        if (this.closeToTray && !quitting) {
          event.preventDefault();
          window?.hide();
        } else if (process.platform !== 'darwin') {
          app.quit();
        }
      });
      this.#main = window;
    }
    if (window.isMinimized()) window.restore();
    if (window.webContents.isLoading()) window.once('ready-to-show', () => window.show());
    else window.show();
    window.focus();
    return window;
  }

  showSetup(): void {
    if (this.#setup && !this.#setup.isDestroyed()) return this.#setup.focus();
    const window = this.#open('setup');
    window.once('ready-to-show', () => window.show());
    window.once('closed', () => (this.#setup = undefined));
    this.#setup = window;
  }

  /** Runs `then` once `window` has loaded the renderer (at once when it has). */
  whenLoaded(window: BrowserWindow, then: () => void): void {
    if (window.webContents.isLoading()) window.webContents.once('did-finish-load', then);
    else then();
  }

  #open(kind: 'main' | 'setup'): BrowserWindow {
    const window = createWindow(kind, this.context);
    forwardEvents(this.core, window);
    return window;
  }
}

function registerShortcut(
  accelerator: string,
  what: string,
  log: Logger,
  run: () => Promise<unknown>,
): void {
  if (accelerator === '') return;
  const ok = globalShortcut.register(accelerator, () => void run());
  if (!ok) log.warn(`the shortcut ${accelerator} to ${what} is taken by another app`);
}

/**
 * tel:/callto: handling per the `handle_links` setting: ask once, then keep the registration in
 * line with the answer. The link always arrives after `--` (see link-handler.ts).
 */
async function offerLinkHandling(
  setting: 'ask' | 'yes' | 'no',
  dataDir: string,
  log: Logger,
): Promise<void> {
  // A development run does not ask: answering would make the development Electron the handler.
  if (setting === 'ask' && !app.isPackaged) return;
  const { path, args } = protocolClientArgs({
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    appPath: app.getAppPath(),
  });
  let step = linkHandlerStep(setting, (scheme) => app.isDefaultProtocolClient(scheme, path, args));
  if (step.kind === 'ask') {
    const answer = await dialog.showMessageBox({
      type: 'question',
      title: 'Phone links',
      message: 'Open phone links (tel: and callto:) with Callbar?',
      detail:
        'Clicking a phone number in a web page or another app will then offer to call it from your business phone. You can change this later in the settings.',
      buttons: ['Use Callbar', 'Not now'],
      defaultId: 0,
      cancelId: 1,
    });
    const choice = answer.response === 0 ? 'yes' : 'no';
    try {
      await saveSettings({ dataDir }, { handle_links: choice });
    } catch (error) {
      log.warn('could not save the phone-link choice', { error });
    }
    step = linkHandlerStep(choice, (scheme) => app.isDefaultProtocolClient(scheme, path, args));
  }
  if (step.kind === 'register') {
    for (const scheme of step.schemes) {
      if (!app.setAsDefaultProtocolClient(scheme, path, args)) {
        log.warn(`could not register Callbar for ${scheme}: links`);
      }
    }
  } else if (step.kind === 'unregister') {
    for (const scheme of step.schemes) app.removeAsDefaultProtocolClient(scheme, path, args);
  }
  log.debug('link schemes', { schemes: LINK_SCHEMES, step: step.kind });
}

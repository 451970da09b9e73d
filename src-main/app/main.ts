/**
 * The Electron shell: thin wiring of the core into the OS. Every decision (which link a command
 * line carries, what the tray shows, which windows may talk to the core, what may open in the
 * browser, when to notify) lives in src-main/core/desktop and is tested under plain Node; this
 * file only connects Electron's pieces to it.
 */
import { app, clipboard, dialog, globalShortcut, Menu, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallsSnapshot, ResponseOf } from '../../src-shared/contract';
import { resolveLocale } from '../../src-shared/i18n/resolve-locale';
import { startCore } from '../core/callbar-core';
import { resolveDataDir } from '../core/config/data-dir';
import { APP_ID } from '../core/desktop/app-identity';
import { isCrmUrl } from '../core/crm/crm-template';
import { isAllowedExternalUrl, isConnectLink } from '../core/desktop/external-url';
import { linkFromArgv, linkFromOpenUrl } from '../core/desktop/launch-link';
import { openLinkDoor } from '../core/desktop/link-door';
import { startsHidden } from '../core/desktop/login-item';
import { NotificationPlanner } from '../core/desktop/notification-planner';
import {
  dialFromTray,
  focusSearchEvent,
  openDialLink,
  planClipboardDial,
  type ShellNotice,
} from '../core/desktop/shell-actions';
import {
  trayFavourites,
  type TrayAccount,
  type TrayAction,
  type TrayState,
} from '../core/desktop/tray-model';
import { APP_ORIGIN, rendererOrigin } from '../core/desktop/window-security';
import { describeError } from '../core/errors';
import {
  POLICY_DIR_VARIABLE,
  policyOnlyValues,
  readPolicies,
} from '../core/config/policy/policies';
import { openProfile } from '../core/profile';
import { translatorFor } from '../core/text/translators';
import { createAppLogger } from './app-log';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { externalOpener } from './external';
import { sendEvent, wireIpc } from './ipc-wiring';
import { applyLoginItem } from './login-item';
import { notify } from './notifications';
import { CallbarTray } from './tray';
import { offerLinkHandling, registerShortcut } from './os-integration';
import { startUpdater } from './updater';
import { WindowKeeper } from './window-keeper';
import { preloadPath, type WindowContext } from './windows';

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

// Electron's userData is Callbar's data folder (CALLBAR_DATA_DIR or the OS convention). Set before
// the single-instance lock, which is keyed on it: one running app per profile.
app.setPath('userData', resolveDataDir());

if (!app.requestSingleInstanceLock()) {
  // Another Callbar runs: Electron hands it our argv (a link after `--`) through second-instance.
  app.quit();
} else {
  registerAppScheme();
  // Windows shows notifications only for an app with this id (the installer's shortcut has it).
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
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

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox(
        systemWords().t('actions.cannotStartTitle'),
        describeError(error).message,
      );
      app.exit(1);
    });
}

/** The shell's words in the `language` setting's language, else the operating system's. */
function systemWords(setting?: string) {
  const locale = resolveLocale({ setting, system: app.getPreferredSystemLanguages() });
  return { t: translatorFor(locale, 'shell') };
}

async function start(): Promise<void> {
  // First, before any window or profile: no page is ever granted a permission (camera,
  // microphone, geolocation, notifications, openExternal, …).
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  session.defaultSession.setPermissionCheckHandler(() => false);
  const log = createAppLogger();
  let profile;
  try {
    // The keychain may prompt the user to unlock it: give them time.
    // The machine's policies first: on Windows the registry is read without blocking.
    // A packaged Callbar reads only the machine's own policies: a user's CALLBAR_POLICY_DIR (for
    // trying a policy from source) must not replace what the organisation set.
    const policyEnv = app.isPackaged
      ? { ...process.env, [POLICY_DIR_VARIABLE]: undefined }
      : process.env;
    const policies = await readPolicies({ env: policyEnv });
    profile = openProfile({
      keychainTimeoutMs: 60_000,
      log,
      policies,
      policyLocation: { env: policyEnv },
      // The OS's region: the default for numbers written without a country code.
      systemRegion: app.getLocaleCountryCode(),
    });
  } catch (error) {
    dialog.showErrorBox(systemWords().t('actions.cannotStartTitle'), describeError(error).message);
    app.exit(1);
    return;
  }
  const { settings, dataDir } = profile;
  // The tray, notifications and dialogs speak as the window does: the language setting as it is
  // now (a settings.changed event redraws the tray at once), else the operating system's.
  const words = () => systemWords(settings.language).t;
  Menu.setApplicationMenu(
    process.platform === 'darwin'
      ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }])
      : null,
  );
  serveRenderer(join(mainDir, '../renderer'));

  // A link in the window may open the portal; the core opens only its one-time connect link
  // (which leads to the portal; the confirmation key must not be on the browser's command line).
  const openExternal = externalOpener((url) => isAllowedExternalUrl(url, settings.portal_url), log);
  const openConnectLink = externalOpener((url) => isConnectLink(url, settings.receiver_port), log);
  // CRM link-outs: https addresses at the origin of a template the settings hold now.
  const openCrmUrl = externalOpener((url) => isCrmUrl(url, settings.crm_links), log);
  // The windows come after the core; the setup window's Open Callbar reaches them through this.
  let finishSetup = (): boolean => false;
  const core = await startCore({
    systemLanguages: app.getPreferredSystemLanguages(),
    runtime: 'electron',
    profile,
    openUrl: openConnectLink,
    openCrmUrl,
    showMainWindow: () => finishSetup(),
    shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
  });
  // From here on quitting (the tray's Quit, the OS, or Ctrl+C / SIGTERM / SIGHUP, which Electron
  // turns into app.quit(); a second one ends the process at once) lets the core finish first:
  // receiver closed, settings and caches flushed, and a token pair the platform just issued
  // stored (core.close() waits for it, at most 10 s; the first sync may be refreshing already).
  let destroyTray = (): void => undefined;
  let stopUpdater = (): void => undefined;
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    globalShortcut.unregisterAll();
    destroyTray();
    stopUpdater();
    void core
      .close()
      .catch((error: unknown) => log.warn('closing the core failed', { error }))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
  wireIpc(core, origin);

  const context: WindowContext = {
    rendererUrl,
    rendererOrigin: origin,
    preloadFile: preloadPath(mainDir),
    dataDir,
    log,
    openExternal,
    title: (kind) => words()(`window.${kind}Title`),
  };
  const windows = new WindowKeeper(core, context, settings.close_to_tray, () => quitting);
  showMainWindow = () => windows.showMain();
  finishSetup = () => {
    windows.finishSetup();
    return true;
  };
  const say = (notice: ShellNotice) => notify(log, notice, () => windows.showMain());

  const accountAnswer = await core.router.invoke('account.status', {});
  const accountStatus = accountAnswer.ok
    ? (accountAnswer.value as ResponseOf<'account.status'>)
    : undefined;
  const account: TrayAccount = accountStatus ?? { state: 'not-connected' };
  const callsAnswer = await core.router.invoke('calls.list', {});
  const favouritesAnswer = await core.router.invoke('favourites.list', {});
  const state: TrayState = {
    account,
    calls: callsAnswer.ok ? (callsAnswer.value as CallsSnapshot) : EMPTY_CALLS,
    favourites: favouritesAnswer.ok
      ? trayFavourites(favouritesAnswer.value as ResponseOf<'favourites.list'>)
      : [],
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
        if (!result.ok) {
          say({ title: words()('actions.hangupFailedTitle'), body: result.error.message });
        }
        return;
      }
      case 'dial': {
        const notice = await dialFromTray(core.router, action.number, words());
        if (notice) say(notice);
        return;
      }
      case 'dial-clipboard':
        await dialClipboard();
        return;
    }
  };
  const dialClipboard = async () => {
    const t = words();
    const plan = await planClipboardDial(core.router, await clipboard.readText(), t);
    if (plan.kind === 'error') return say(plan.notice);
    const answer = await dialog.showMessageBox({
      type: 'question',
      title: t('tray.dialClipboard'),
      message: plan.message,
      detail: plan.detail,
      buttons: [t('actions.call'), t('actions.cancel')],
      defaultId: 0,
      cancelId: 1,
    });
    if (answer.response !== 0) return;
    const notice = await dialFromTray(core.router, plan.target.destination, t);
    if (notice) say(notice);
  };
  const tray = new CallbarTray(state, runTrayAction, words);
  destroyTray = () => tray.destroy();

  const planner = new NotificationPlanner(words);
  planner.seed({
    account: state.account.state,
    calls: state.calls,
    accountSwitch: accountStatus?.account_switch?.message,
  });
  core.events.subscribe((event) => {
    if (event.type === 'account.changed') state.account = event.status;
    else if (event.type === 'calls.changed') state.calls = event.calls;
    else if (event.type === 'favourites.changed')
      state.favourites = trayFavourites(event.favourites);
    else if (event.type !== 'settings.changed') return;
    tray.update(state);
    for (const planned of planner.plan(event)) {
      notify(log, planned, () =>
        planned.onClick === 'connect' ? runTrayAction({ kind: 'connect' }) : windows.showMain(),
      );
    }
  });

  registerShortcut(settings.dial_shortcut, 'open the dial window', log, async () => {
    const window = windows.showMain();
    const event = await focusSearchEvent(core.router, await clipboard.readText());
    windows.whenLoaded(window, () => sendEvent(window, event));
  });
  registerShortcut(settings.clipboard_shortcut, 'dial the clipboard', log, dialClipboard);

  await offerLinkHandling(settings.handle_links, dataDir, log, words());
  await applyLoginItem(settings.open_at_login, log);
  // Updates as the organisation's policy says (core/desktop/update-plan.ts): off by default.
  stopUpdater = await startUpdater({
    policy: policyOnlyValues(profile.policies),
    packaged: app.isPackaged,
    currentVersion: app.getVersion(),
    dataDir,
    log,
  }).catch((error: unknown) => {
    log.warn('the updater could not start', { error });
    return () => undefined;
  });

  const openLink = async (link: string) => {
    const plan = await openDialLink(core.router, link, words());
    if (plan.showWindow) windows.showMain();
    if (plan.notice) say(plan.notice);
    return plan.answer;
  };
  deliverLink = (link) => void openLink(link);
  // Links from other programs (`callbar open-url`, the browser extension's native host) come in
  // through the profile's link door, with the same rules as a link from the OS.
  await openLinkDoor({ dataDir, log, deliver: openLink }).then(
    (door) => app.on('will-quit', () => void door.close()),
    (error: unknown) => log.warn('the link door could not open', { error }),
  );
  const hidden = startsHidden({
    argv: process.argv,
    startMinimized: settings.start_minimized,
    wasOpenedAtLogin: process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin,
    hasLink: earlyLinks.length > 0,
  });
  if (account.state === 'not-connected') windows.showSetup();
  else if (!hidden) windows.showMain();
  earlyLinks.splice(0).forEach((link) => deliverLink(link));

  app.on('activate', () => windows.showMain());
}

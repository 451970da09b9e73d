/**
 * The Electron shell: thin wiring of the core into a secure window. Everything with logic lives in
 * src-main/core and is tested under plain Node; this file only connects Electron's pieces.
 */
import { app, dialog, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCore } from '../core/callbar-core';
import { describeError } from '../core/errors';
import { resolveDataDir } from '../core/config/data-dir';
import { openProfile } from '../core/profile';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol';
import { forwardEvents, wireIpc } from './ipc-wiring';
import { createMainWindow, preloadPath } from './main-window';

const mainDir = dirname(fileURLToPath(import.meta.url));
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const rendererUrl = devServerUrl ?? `${APP_ORIGIN}/index.html`;
const isTrustedUrl = (url: string) => url.startsWith(devServerUrl ?? `${APP_ORIGIN}/`);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  // Electron's userData is Callbar's data folder (CALLBAR_DATA_DIR or the OS convention).
  app.setPath('userData', resolveDataDir());

  void app.whenReady().then(async () => {
    let profile;
    try {
      // The keychain may prompt the user to unlock it: give them time.
      profile = openProfile({ keychainTimeoutMs: 60_000 });
    } catch (error) {
      dialog.showErrorBox('Callbar cannot start', describeError(error).message);
      app.exit(1);
      return;
    }
    // The browser is only ever started on Callbar's one-time connect link (it leads to the
    // portal; the confirmation key must not be on the browser's command line).
    const connectPrefix = `http://127.0.0.1:${profile.settings.receiver_port}/connect/`;
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
      callback(false),
    );
    serveRenderer(join(mainDir, '../renderer'));
    const core = await startCore({
      runtime: 'electron',
      profile,
      openUrl: async (url) => {
        if (!url.startsWith(connectPrefix))
          throw new Error('refused to open an unexpected address');
        await shell.openExternal(url);
      },
      shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
    });
    wireIpc(core, isTrustedUrl);
    const openWindow = () => {
      const opened = createMainWindow({
        rendererUrl,
        preloadFile: preloadPath(mainDir),
        isTrustedUrl,
      });
      forwardEvents(core, opened);
      return opened;
    };
    let window = openWindow();

    app.on('second-instance', () => {
      if (window.isDestroyed()) return;
      if (window.isMinimized()) window.restore();
      window.focus();
    });
    app.on('activate', () => {
      if (window.isDestroyed()) window = openWindow();
    });
    app.on('window-all-closed', () => {
      if (process.platform !== 'darwin') app.quit();
    });
    app.on('will-quit', () => {
      void core.close();
    });
  });
}

/**
 * The Electron shell: thin wiring of the core into a secure window. Everything with logic lives in
 * src-main/core and is tested under plain Node; this file only connects Electron's pieces.
 */
import { app, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../core/callbar-core';
import { createLogger } from '../core/log/logger';
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
  const log = createLogger();

  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
      callback(false),
    );
    serveRenderer(join(mainDir, '../renderer'));
    const core = createCore({
      runtime: 'electron',
      log,
      shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
    });
    wireIpc(core, isTrustedUrl);
    let window = createMainWindow({ rendererUrl, preloadFile: preloadPath(mainDir), isTrustedUrl });
    forwardEvents(core, window);

    app.on('second-instance', () => {
      if (window.isDestroyed()) return;
      if (window.isMinimized()) window.restore();
      window.focus();
    });
    app.on('activate', () => {
      if (!window.isDestroyed()) return;
      window = createMainWindow({ rendererUrl, preloadFile: preloadPath(mainDir), isTrustedUrl });
      forwardEvents(core, window);
    });
    app.on('window-all-closed', () => {
      if (process.platform !== 'darwin') app.quit();
    });
    app.on('will-quit', () => {
      void core.close();
    });
  });
}

import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import icon from '../../resources/icon.png?asset';

export interface MainWindowOptions {
  /** The URL the renderer is loaded from (app://callbar/ or the dev server). */
  rendererUrl: string;
  preloadFile: string;
  isTrustedUrl: (url: string) => boolean;
}

/** The one window: sandboxed, isolated, no Node, no navigation away, no pop-ups. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 420,
    height: 640,
    minWidth: 340,
    minHeight: 420,
    show: false,
    title: 'Callbar',
    icon,
    webPreferences: {
      preload: options.preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('will-navigate', (event, url) => {
    if (!options.isTrustedUrl(url)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void window.loadURL(options.rendererUrl);
  return window;
}

export function preloadPath(mainDir: string): string {
  return join(mainDir, '../preload/index.cjs');
}

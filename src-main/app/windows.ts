import { BrowserWindow, screen } from 'electron';
import { join } from 'node:path';
import icon from '../../resources/icon.png?asset';
import {
  navigationDecision,
  windowOptions,
  type WindowKind,
} from '../core/desktop/window-security';
import { loadWindowBounds, saveWindowBounds, visibleBounds } from '../core/desktop/window-state';
import type { Logger } from '../core/log/logger';

export interface WindowContext {
  /** Where the renderer is loaded from (app://callbar/ or the dev server). */
  rendererUrl: string;
  rendererOrigin: URL;
  preloadFile: string;
  dataDir: string;
  log: Logger;
  /** The allow-listed system-browser opener. */
  openExternal: (url: string) => Promise<void>;
  /** A window's title in the user's language. */
  title: (kind: WindowKind) => string;
}

/**
 * A Callbar window: secure preferences, hidden until ready, no navigation away, no pop-ups (a
 * link to the portal goes to the system browser through the allow-list), no <webview>.
 */
export function createWindow(kind: WindowKind, context: WindowContext): BrowserWindow {
  const bounds =
    kind === 'main'
      ? visibleBounds(
          loadWindowBounds(context.dataDir),
          screen.getAllDisplays().map((display) => display.workArea),
        )
      : undefined;
  const window = new BrowserWindow(
    windowOptions({
      kind,
      preloadFile: context.preloadFile,
      title: context.title(kind),
      icon,
      bounds,
    }),
  );
  const { webContents } = window;
  webContents.on('will-navigate', (event, url) => {
    if (navigationDecision(url, context.rendererOrigin) === 'deny') {
      event.preventDefault();
      context.log.warn('blocked a navigation away from the renderer');
    }
  });
  webContents.on('will-redirect', (event, url) => {
    if (navigationDecision(url, context.rendererOrigin) === 'deny') event.preventDefault();
  });
  webContents.on('will-attach-webview', (event) => event.preventDefault());
  webContents.setWindowOpenHandler(({ url }) => {
    context.openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
  if (kind === 'main') rememberBounds(window, context);
  const page = kind === 'setup' ? `${context.rendererUrl}#setup` : context.rendererUrl;
  void window.loadURL(page);
  return window;
}

/** Saves the main window's bounds a moment after it stops moving or resizing. */
function rememberBounds(window: BrowserWindow, context: WindowContext): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
      saveWindowBounds(context.dataDir, window.getNormalBounds()).catch((error: unknown) =>
        context.log.warn('could not remember the window position', { error }),
      );
    }, 500);
  };
  window.on('move', save);
  window.on('resize', save);
  window.on('closed', () => clearTimeout(timer));
}

export function preloadPath(mainDir: string): string {
  return join(mainDir, '../preload/index.cjs');
}

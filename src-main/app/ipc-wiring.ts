import { ipcMain, type BrowserWindow } from 'electron';
import { EVENT_CHANNEL, type CallbarEvent } from '../../src-shared/contract';
import type { CallbarCore } from '../core/callbar-core';
import { registerIpcHandlers } from '../core/desktop/ipc-registration';

/** One `ipcMain.handle` per contract channel, sender-checked, into the core router. */
export function wireIpc(core: CallbarCore, rendererOrigin: URL): () => void {
  return registerIpcHandlers({
    ipcMain,
    router: core.router,
    rendererOrigin,
    log: core.profile.log,
  });
}

/** The one event channel from main to a window: every core event while the window exists. */
export function forwardEvents(core: CallbarCore, window: BrowserWindow): void {
  const unsubscribe = core.events.subscribe((event) => sendEvent(window, event));
  window.once('closed', unsubscribe);
}

export function sendEvent(window: BrowserWindow, event: CallbarEvent): void {
  if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
}

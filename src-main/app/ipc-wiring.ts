import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { channelNames, EVENT_CHANNEL } from '../../src-preload/contract';
import type { CallbarCore } from '../core/callbar-core';

/**
 * The only place `ipcMain` appears: one handler per contract channel, each handing the payload to
 * the router after checking that the sender is our own top-level frame.
 */
export function wireIpc(core: CallbarCore, isTrustedUrl: (url: string) => boolean): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedUrl(frame.url)) {
        return {
          ok: false,
          error: { code: 'forbidden', message: 'This window may not talk to Callbar.' },
        };
      }
      return core.router.invoke(channel, payload);
    });
  }
}

/** Pushes every core event to the window while it exists. */
export function forwardEvents(core: CallbarCore, window: BrowserWindow): void {
  const unsubscribe = core.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
  });
  window.once('closed', unsubscribe);
}

/**
 * Registers one `ipcMain.handle` per contract channel onto anything shaped like Electron's
 * ipcMain. Each call is checked twice: the sender must be our own renderer's top frame (else it is
 * refused and logged), and the router checks the payload against the contract's schema. Written
 * against a structural type so the wiring is tested with a fake ipcMain under Node.
 */
import { channelNames, type ChannelName, type Result } from '../../../src-shared/contract';
import type { Router } from '../ipc/router';
import type { Logger } from '../log/logger';
import { originForLog } from '../http/origin-for-log';
import { isTrustedSender, type SenderFrame } from './window-security';

/** The part of an IpcMainInvokeEvent the check reads. */
export interface InvokeEventLike {
  readonly senderFrame: SenderFrame | null;
}

/** The part of Electron's ipcMain used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, payload: unknown) => unknown): void;
  removeHandler(channel: string): void;
}

export const FORBIDDEN_SENDER: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This window may not talk to Callbar.' },
};

/** Registers every channel; returns the function that removes them again. */
export function registerIpcHandlers(options: {
  ipcMain: IpcMainLike;
  router: Pick<Router, 'invoke'>;
  rendererOrigin: URL;
  log: Logger;
}): () => void {
  const { ipcMain, router, rendererOrigin, log } = options;
  const register = (channel: ChannelName) =>
    ipcMain.handle(channel, (event, payload) => {
      const frame = event?.senderFrame;
      if (!isTrustedSender(frame, rendererOrigin)) {
        log.warn('refused an IPC call from an untrusted frame', {
          channel,
          origin: originForLog(frame?.url),
          subframe: frame ? frame.parent !== null : undefined,
        });
        return FORBIDDEN_SENDER;
      }
      return router.invoke(channel, payload);
    });
  channelNames.forEach(register);
  return () => channelNames.forEach((channel) => ipcMain.removeHandler(channel));
}

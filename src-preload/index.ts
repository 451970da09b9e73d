/**
 * The preload: exposes `window.callbar` to the sandboxed renderer, built from the contract.
 * Only named methods cross the bridge; `ipcRenderer` itself never does.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildApi } from './api';
import { EVENT_CHANNEL, type CallbarEvent } from '../src-shared/contract';

const api = buildApi({
  invoke: (channel, request) => ipcRenderer.invoke(channel, request),
  subscribe: (listener) => {
    const forward = (_event: IpcRendererEvent, payload: CallbarEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
});

contextBridge.exposeInMainWorld('callbar', api);

import type { AppInfo, Runtime } from '../../src-preload/contract';
import { EventHub } from './ipc/event-hub';
import { Router, type Handlers } from './ipc/router';
import type { Logger } from './log/logger';
import { packageInfo } from './package-info';

export interface CoreOptions {
  runtime: Runtime;
  log: Logger;
  /** Electron and Chrome versions when the shell knows them. */
  shellVersions?: { electron?: string; chrome?: string };
}

/**
 * Callbar's core, composed once per process: the router every transport calls and the event hub
 * every transport listens to. Electron's ipcMain and the web preview server are thin adapters
 * around this object.
 */
export interface CallbarCore {
  readonly router: Router;
  readonly events: EventHub;
  close(): Promise<void>;
}

export function createCore(options: CoreOptions): CallbarCore {
  const events = new EventHub();
  const appInfo: AppInfo = {
    name: packageInfo.name,
    version: packageInfo.version,
    platform: process.platform,
    runtime: options.runtime,
    versions: { node: process.versions.node, ...options.shellVersions },
  };
  const handlers: Handlers = {
    'app.info': () => appInfo,
  };
  return {
    router: new Router(handlers, options.log),
    events,
    close: () => Promise.resolve(),
  };
}

/**
 * A recording stand-in for the parts of Electron's main-process API the shell's security wiring
 * uses, so the real `src-main/app` modules run under Node (there is no Electron binary on the
 * build machines): every option handed to Electron and every handler the shell installs is kept,
 * and a test fires the handlers the way Electron would. It decides nothing itself: what is
 * allowed is whatever the shell's handlers answer.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type Handler = (...args: never[]) => unknown;

/** Listeners by event name, as `on`/`once` registered them. */
class Emitter {
  readonly listeners = new Map<string, Handler[]>();
  on(event: string, listener: Handler): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Handler): this {
    return this.on(event, listener);
  }
  /** Calls every listener of `event` with `args`; returns their answers. */
  emit(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((listener) =>
      (listener as (...a: unknown[]) => unknown)(...args),
    );
  }
}

/** An event object like Electron's: remembers whether a handler prevented the default. */
export function electronEvent() {
  const event = {
    defaultPrevented: false,
    preventDefault: () => {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export class FakeWebContents extends Emitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(): void {}
}

export class FakeBrowserWindow extends Emitter {
  static readonly created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loaded: string | undefined;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded = url;
    return Promise.resolve();
  }
  isDestroyed(): boolean {
    return false;
  }
}

/** What the shell told Electron; reset with `recorded.clear()`. */
export const recorded = {
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  permissionRequestHandler: undefined as
    | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void)
    | undefined,
  permissionCheckHandler: undefined as ((...args: unknown[]) => boolean) | undefined,
  errorBoxes: [] as { title: string; content: string }[],
  exitCodes: [] as number[],
  opened: [] as string[],
  paths: new Map<string, string>(),
  clear(): void {
    this.privilegedSchemes = [];
    this.protocolHandlers.clear();
    this.permissionRequestHandler = undefined;
    this.permissionCheckHandler = undefined;
    this.errorBoxes = [];
    this.exitCodes = [];
    this.opened = [];
    this.paths.clear();
    FakeBrowserWindow.created.length = 0;
    app.listeners.clear();
  },
};

class FakeApp extends Emitter {
  isPackaged = true;
  readyNow: () => void = () => undefined;
  readonly ready = new Promise<void>((resolve) => (this.readyNow = resolve));
  setPath(name: string, path: string): void {
    recorded.paths.set(name, path);
  }
  getPath(name: string): string {
    return recorded.paths.get(name) ?? `/tmp/${name}`;
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  getPreferredSystemLanguages(): string[] {
    return ['en-US'];
  }
  getLocaleCountryCode(): string {
    return 'US';
  }
  setAppUserModelId(): void {}
  whenReady(): Promise<void> {
    return this.ready;
  }
  quit(): void {}
  exit(code: number): void {
    recorded.exitCodes.push(code);
  }
}

export const app = new FakeApp();

const unused = (name: string) => () => {
  throw new Error(`the recording Electron does not implement ${name}`);
};

/** The module object `vi.mock('electron', …)` returns. */
export const electron = {
  app,
  BrowserWindow: FakeBrowserWindow,
  screen: {
    getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) =>
      recorded.privilegedSchemes.push(...schemes),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
      recorded.protocolHandlers.set(scheme, handler),
  },
  net: {
    /** Electron's net.fetch of a file: URL, as the protocol handler uses it. */
    fetch: async (url: string) => {
      try {
        return new Response(await readFile(fileURLToPath(url)), {
          headers: { 'content-type': url.endsWith('.html') ? 'text/html' : 'text/plain' },
        });
      } catch {
        return new Response('', { status: 404 });
      }
    },
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (handler: typeof recorded.permissionRequestHandler) => {
        recorded.permissionRequestHandler = handler;
      },
      setPermissionCheckHandler: (handler: typeof recorded.permissionCheckHandler) => {
        recorded.permissionCheckHandler = handler;
      },
    },
  },
  shell: {
    openExternal: (url: string) => {
      recorded.opened.push(url);
      return Promise.resolve();
    },
  },
  dialog: {
    showErrorBox: (title: string, content: string) => recorded.errorBoxes.push({ title, content }),
    showMessageBox: unused('dialog.showMessageBox'),
  },
  Menu: {
    setApplicationMenu: () => undefined,
    buildFromTemplate: unused('Menu.buildFromTemplate'),
  },
  ipcMain: { handle: unused('ipcMain.handle'), removeHandler: () => undefined },
  clipboard: { readText: () => '' },
  globalShortcut: { register: () => false, unregisterAll: () => undefined },
  nativeImage: { createFromPath: unused('nativeImage.createFromPath') },
  Notification: class {},
  Tray: class {},
};

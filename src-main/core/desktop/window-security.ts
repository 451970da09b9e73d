/**
 * Every security decision about Callbar's windows, as plain data the shell hands to Electron:
 * the web preferences of every BrowserWindow, the Content-Security-Policy served with the
 * renderer, which frames may talk to the core, and where a window may navigate.
 */

/** The custom scheme the packaged renderer is served from (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'callbar';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The renderer's policy, sent as a response header by the app:// handler (a header also covers
 * what a <meta> tag cannot: frame-ancestors). Nothing remote, no inline script, no eval, no
 * plugins, no forms posting anywhere, no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The web preferences every Callbar window gets; nothing in the app opens a window without them. */
export function secureWebPreferences(preloadFile: string) {
  return {
    preload: preloadFile,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  } as const;
}

export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type WindowKind = 'main' | 'setup';

const SIZES: Record<
  WindowKind,
  { width: number; height: number; minWidth: number; minHeight: number }
> = {
  main: { width: 420, height: 640, minWidth: 340, minHeight: 420 },
  // The first run asks for the country and the shortcut and says what comes next (issue 42).
  setup: { width: 480, height: 720, minWidth: 420, minHeight: 600 },
};

/**
 * BrowserWindow options for a window of `kind`: hidden until ready (no white flash), the secure
 * preferences, and the remembered bounds when there are some (main window only).
 */
export function windowOptions(options: {
  kind: WindowKind;
  preloadFile: string;
  /** The window's title in the user's language until its page sets one (default "Callbar"). */
  title?: string;
  icon?: string;
  bounds?: WindowBounds;
}) {
  const size = SIZES[options.kind];
  return {
    ...size,
    ...(options.kind === 'main' && options.bounds ? options.bounds : {}),
    show: false,
    title: options.title ?? 'Callbar',
    ...(options.icon ? { icon: options.icon } : {}),
    ...(options.kind === 'setup'
      ? { resizable: false, maximizable: false, minimizable: false }
      : {}),
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(options.preloadFile),
  };
}

/**
 * The one origin the renderer comes from: app://callbar, or the electron-vite dev server during
 * development. Compared by scheme and host (a custom scheme's URL.origin is the opaque "null").
 */
export function rendererOrigin(devServerUrl: string | undefined): URL {
  return new URL(devServerUrl ?? `${APP_ORIGIN}/`);
}

/** True when `url` belongs to the renderer's origin (same scheme, host and port). */
export function isRendererUrl(url: string, origin: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === origin.protocol && parsed.host === origin.host;
}

/** The part of Electron's WebFrameMain the sender check needs. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

/**
 * Whether an IPC message comes from our own renderer: the top frame (never an iframe) of a page
 * served from the renderer's origin. Anything else is refused.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, origin: URL): boolean {
  return !!frame && frame.parent === null && isRendererUrl(frame.url, origin);
}

/**
 * What to do when a page tries to leave: staying inside the renderer (a reload) is allowed,
 * anything else is stopped (the window-open handler decides about the system browser).
 */
export function navigationDecision(url: string, origin: URL): 'allow' | 'deny' {
  return isRendererUrl(url, origin) ? 'allow' : 'deny';
}

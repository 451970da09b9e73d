/**
 * THE IPC contract between the renderer and the main process, split by domain (one file each:
 * account, directory, calls, phonebooks, settings, imports, links; the channel table in channels.ts,
 * events in events.ts, `window.callbar`'s type in api.ts). Main, the preload, the renderer, the
 * CLI and the preview all import it from here; it imports nothing but zod (a lint rule keeps
 * Electron, Node and the rest of the app out).
 *
 * Every channel the renderer may call is declared here, with the zod schema of its request and
 * response; every event main may push is a member of `CallbarEvent`. Main validates every request
 * (and its own responses) against these schemas; the renderer imports types only. Later features
 * add channels in channels.ts and only there: the preload, the web preview bridge and the router
 * are all built from that table.
 */
export * from './common';
export * from './account';
export * from './directory';
export * from './calls';
export * from './phonebooks';
export * from './settings';
export * from './imports';
export * from './links';
export * from './channels';
export * from './events';
export * from './api';

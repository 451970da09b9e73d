import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { fileUnderRoot } from '../core/http/file-under-root';

/** The renderer is served from app://callbar/, never file://. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://callbar`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves files from the built renderer folder; anything outside it is a 404. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    const { host, pathname } = new URL(request.url);
    const file = fileUnderRoot(rendererDir, pathname);
    if (host !== 'callbar' || file === undefined) {
      return new Response('Not found', { status: 404 });
    }
    return net.fetch(pathToFileURL(file).toString());
  });
}

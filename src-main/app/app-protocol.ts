import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { rendererFileFor } from '../core/desktop/renderer-scheme';
import { APP_SCHEME, CONTENT_SECURITY_POLICY } from '../core/desktop/window-security';

/**
 * Must run before the app is ready. `codeCache`: Chromium keeps V8's compiled code of the
 * window's scripts (for http(s) only unless a standard scheme asks), so a second start of the
 * window compiles nothing it compiled before; the main process's bundle has Node's cache
 * (start.ts).
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

/**
 * Serves files from the built renderer folder with the Content-Security-Policy as a header;
 * another host, another method, or a path outside the folder (`..`, encoded dots or slashes, an
 * absolute path) is a 404.
 */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFileFor(request.url, request.method, rendererDir);
    if (file === undefined) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    if (!response.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: 200, headers });
  });
}

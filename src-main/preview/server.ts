/**
 * The web preview: serves the built renderer to an ordinary browser and provides `window.callbar`
 * over a WebSocket (request-channel.ts; HTTP POST per call still answered) with events as
 * server-sent events, backed by the same core and router as the Electron shell.
 * It exists for the demo and the end-to-end tests on machines without an Electron binary and is
 * never part of a packaged app.
 *
 * It listens on 127.0.0.1 only and trusts nobody by default: a random per-run token travels in
 * the fragment of the URL it prints (never sent to any server); the bridge keeps it in the page's
 * sessionStorage and sends it as the `X-Callbar-Session` header with every call and the event
 * stream. Not a cookie: cookies ignore ports, so every other service on 127.0.0.1 would receive
 * it (and a page on another port could overwrite it). The Host header must name this server (DNS
 * rebinding) and state-changing requests must come from its own Origin. The renderer's files
 * themselves are public (they are the build output) and served to anyone on loopback.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { secretsEqual } from '../core/secret-compare';
import type { CallbarCore } from '../core/callbar-core';
import { acceptedLanguages } from '../core/http/accept-language';
import { openedByTheBrowserItself } from '../core/http/browser-navigation';
import { limitLoopbackConnections, type GivenLimits } from '../core/http/connection-limits';
import { fileUnderRoot } from '../core/http/file-under-root';
import { readRequestBody } from '../core/http/request-body';
import type { Logger } from '../core/log/logger';
import { requestChannel } from './request-channel';

export interface PreviewServerOptions {
  /**
   * The core, or its start under way: the server listens (and serves the page) meanwhile, and
   * the page's requests and event stream wait for it.
   */
  core: CallbarCore | Promise<CallbarCore>;
  /** The built renderer (electron-vite's out/renderer). */
  rendererDir: string;
  /** The built bridge script (out/preview/bridge.js). */
  bridgeFile: string;
  port?: number;
  log: Logger;
  /**
   * Told the languages of the browser whose page made a request (its Accept-Language, best
   * first: what the page's `navigator.languages` says), with each request that carries the
   * session token: the core answers the window in the window's language (callbar-core.ts
   * systemLanguages).
   */
  pageLanguages?: (languages: string[]) => void;
  /**
   * How long a connection may take to bring its first request (default 10 s), and how many may
   * be open at once (default 64; past it, the oldest that has not yet brought a request makes
   * room): core/http/connection-limits.ts.
   */
  connections?: GivenLimits;
}

export interface PreviewServer {
  /** The URL to open: carries the session token in its fragment. */
  readonly url: string;
  /**
   * A one-time address to start a browser with (a command line is readable by every local user):
   * it redirects to `url` once; a second request ends the session (restart the preview). A
   * request another web page caused is refused and spends nothing.
   */
  readonly browserUrl: string;
  readonly origin: string;
  close(): Promise<void>;
}

/** The request header carrying the session token (lower case, as Node gives it). */
export const SESSION_HEADER = 'x-callbar-session';
const BRIDGE_PATH = '/__callbar/bridge.js';
const OPEN_PATH = '/__callbar/open/';
const BODY_LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };
/** Connections open at once (every caller is 127.0.0.1): a browser's few, the channel's 8. */
export const PREVIEW_CONNECTIONS = 64;
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  type = 'text/plain; charset=utf-8',
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  response.end(body);
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  let token = randomBytes(32).toString('base64url');
  const browserNonce = randomBytes(32).toString('base64url');
  let browserOpens = 0;
  let allowedHosts: string[] = [];
  let origin = '';

  const indexFile = fileUnderRoot(options.rendererDir, '/');
  const serveStatic = async (pathname: string, response: ServerResponse) => {
    if (pathname === BRIDGE_PATH) {
      send(response, 200, await readFile(options.bridgeFile), CONTENT_TYPES['.js']);
      return;
    }
    const file = fileUnderRoot(options.rendererDir, pathname);
    if (file === undefined) return send(response, 404, 'Not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return send(response, 404, 'Not found');
    }
    if (file === indexFile) {
      const html = body
        .toString('utf8')
        .replace('</head>', `<script src="${BRIDGE_PATH}"></script></head>`);
      return send(response, 200, html, CONTENT_TYPES['.html']);
    }
    send(response, 200, body, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  };

  const serveEvents = async (request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream',
      connection: 'keep-alive',
    });
    const core = await options.core;
    // The page went away while the core was starting: nothing to subscribe.
    if (request.socket.destroyed) return;
    const unsubscribe = core.events.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    response.write(': connected\n\n');
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), 15_000);
    request.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!allowedHosts.includes(request.headers.host ?? '')) {
      return send(response, 421, 'This server answers only to its own address.');
    }
    const url = new URL(request.url ?? '/', origin);
    if (request.method === 'GET' && url.pathname.startsWith(OPEN_PATH)) {
      if (!openedByTheBrowserItself(request.headers)) {
        return send(
          response,
          403,
          'This address works only when your browser opens it directly, not from a web page.',
        );
      }
      if (!secretsEqual(url.pathname.slice(OPEN_PATH.length), browserNonce)) {
        return send(response, 404, 'Not found.');
      }
      browserOpens += 1;
      if (browserOpens > 1) {
        // Someone else may have followed it first: nobody keeps a working session.
        token = randomBytes(32).toString('base64url');
        channel.endSessions();
        options.log.warn('preview start address opened twice; the session token was replaced');
        return send(response, 410, 'This address was opened twice. Restart the preview.');
      }
      response.writeHead(303, { ...SECURITY_HEADERS, location: `/#token=${token}` });
      return response.end();
    }
    const isApi = url.pathname.startsWith('/__callbar/') && url.pathname !== BRIDGE_PATH;
    if (request.method === 'GET' && !isApi) return serveStatic(url.pathname, response);
    const offered = request.headers[SESSION_HEADER];
    if (typeof offered !== 'string' || !secretsEqual(offered, token)) {
      return send(
        response,
        401,
        'Open the address printed by `npm run demo`: it carries the session token.',
      );
    }
    tellPageLanguages(request);
    if (request.method === 'POST' && url.pathname.startsWith('/__callbar/invoke/')) {
      if (!allowedHosts.some((host) => request.headers.origin === `http://${host}`)) {
        return send(response, 403, 'Requests must come from the preview page itself.');
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(response, 415, 'Expected application/json.');
      }
      let payload: unknown;
      try {
        const text = await readRequestBody(request, BODY_LIMITS);
        payload = text.length === 0 ? {} : (JSON.parse(text) as unknown);
      } catch {
        return send(response, 400, 'The request body is not JSON of at most 1 MiB.');
      }
      let channel: string;
      try {
        channel = decodeURIComponent(url.pathname.slice('/__callbar/invoke/'.length));
      } catch {
        return send(response, 400, 'The channel name is not valid percent-encoding.');
      }
      const result = await (await options.core).router.invoke(channel, payload);
      return send(response, 200, JSON.stringify(result), 'application/json');
    }
    if (request.method === 'GET' && url.pathname === '/__callbar/events') {
      return serveEvents(request, response);
    }
    send(response, request.method === 'GET' ? 404 : 405, 'Not found or not allowed.');
  };

  const tellPageLanguages = (request: IncomingMessage) => {
    const languages = acceptedLanguages(request.headers['accept-language']);
    if (languages.length > 0) options.pageLanguages?.(languages);
  };
  const channel = requestChannel({
    core: options.core,
    log: options.log,
    allowedHosts: () => allowedHosts,
    token: () => token,
    opened: tellPageLanguages,
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log.error('preview request failed', { path: request.url?.split('?')[0], error });
      if (!response.headersSent) send(response, 500, 'Internal error.');
      else response.end();
    });
  });
  // Connections that bring no request, and more than the share, are closed (as the receiver's).
  limitLoopbackConnections(
    server,
    'preview',
    PREVIEW_CONNECTIONS,
    options.connections,
    options.log,
  );
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', ready);
  });
  server.on('upgrade', (request, socket, head) => channel.upgrade(request, socket, head));
  const { port } = server.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    browserUrl: `${origin}${OPEN_PATH}${browserNonce}`,
    origin,
    close: () =>
      new Promise<void>((done) => {
        channel.close();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

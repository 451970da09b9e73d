/**
 * The relay's HTTP server (Fastify): the integration's public Activation, Deactivation and Webhook
 * URLs for the platform (platform-routes.ts), and the device protocol
 * (src-main/core/relay/relay-protocol.ts) for the desktops, which only ever connect out to it
 * (activation-routes.ts, device-routes.ts). Stateless: what must be shared lives in the store
 * (relay-store.ts), so any node serves any request.
 *
 * Hardened like Callbar's loopback receiver, with the same code for what the platform sends
 * (receiver.ts's body parsing, bounds and schemas): bodies of 16 KiB at most, JSON bounded in
 * depth, strings and entries; every platform call authenticated by one rule (platform-auth.ts);
 * requests a browser made refused; a token bucket per client address, kept in the store so that
 * every node takes from the same one, the address taken from X-Forwarded-For only when the
 * request came from a configured proxy; unauthenticated activation waits small, short-lived and
 * capped (activation-waits.ts, open-waits.ts); no CORS headers at all; nothing secret in a log
 * line (paths without the secret, never a body). TLS is the reverse proxy's job (docs/relay.md).
 */
import Fastify from 'fastify';
import { MAX_BODY_BYTES } from '../src-main/core/account/receiver';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import { ACTIVATION_POLL_MS } from '../src-main/core/relay/relay-protocol';
import { activationRoutes } from './activation-routes';
import { activationWaits } from './activation-waits';
import { deviceRoutes } from './device-routes';
import { loggedPath, platformAuth } from './platform-auth';
import { platformRoutes } from './platform-routes';
import { SECURITY_HEADERS, type RelayContext, type RelayOptions } from './relay-context';

export type { RelayOptions } from './relay-context';

export interface RunningRelay {
  /** e.g. http://127.0.0.1:PORT: the base of the URLs to register with the platform. */
  readonly origin: string;
  /** The activation polls this node holds open now. */
  readonly openWaits: number;
  close(): Promise<void>;
}

/** Headers only a browser sends; a POST carrying one came from a web page. */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'];

export async function startRelay(
  options: RelayOptions & { port: number; host?: string },
): Promise<RunningRelay> {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const rate = options.rate ?? { burst: 200, perSecond: 100 };
  const context: RelayContext = {
    store,
    log,
    now,
    auth: platformAuth(options.platformHeaders, options.webhookSecret),
    dialWindowMs: options.dialWindowMs ?? 10_000,
    handoffTimeoutMs: options.handoffTimeoutMs ?? 20_000,
    pollMs: options.pollMs ?? ACTIVATION_POLL_MS,
    waits: options.waits ?? { perAddress: 20, total: 2000 },
    keepAliveMs: options.keepAliveMs ?? 15_000,
  };
  const proxies = options.trustProxy ?? [];

  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    connectionTimeout: 0,
    requestTimeout: 10_000,
    // Only the configured proxies' X-Forwarded-For is believed (the address nearest to the relay
    // that is not one of them is the client's): `true` or a hop count would let a client choose.
    trustProxy: proxies.length > 0 ? proxies : false,
    return503OnClosing: true,
    // A relay that stops ends every connection at once: its streams and long polls are retried
    // by the desktops (at another node), and a connection a client opened without sending a
    // request yet (a long poll aborted while connecting) would otherwise hold the close for a
    // minute.
    forceCloseConnections: true,
  });
  // Bodies are kept as text and parsed by the receiver's own bounded parser.
  app.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    done(null, payload);
  });
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET') return;
    if (BROWSER_HEADERS.some((name) => request.headers[name] !== undefined)) {
      throw new HttpRejection(403, 'Requests from web pages are not accepted.');
    }
    // One bucket per client address for all nodes (in the shared store).
    if (!(await store.takeToken(request.ip, rate, now()))) {
      throw new HttpRejection(429, 'Too many requests; slow down.');
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status =
      error instanceof HttpRejection
        ? error.status
        : error.statusCode && error.statusCode < 500
          ? error.statusCode
          : 500;
    const path = loggedPath(request.url);
    if (status >= 500 && !(error instanceof HttpRejection)) {
      log.error('relay failed', { path, error });
      return reply.code(500).type('text/plain').send('The relay could not handle this request.');
    }
    log.warn('relay refused a request', { path, status, reason: error.message });
    return reply.code(status).type('text/plain; charset=utf-8').send(error.message);
  });

  const waits = activationWaits(context);
  platformRoutes(app, context, waits);
  const open = activationRoutes(app, context, waits);
  const streams = deviceRoutes(app, context);

  await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    origin: `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`,
    get openWaits() {
      return open.size;
    },
    close: async () => {
      for (const end of [...streams]) end();
      await app.close();
    },
  };
}

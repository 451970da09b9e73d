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
 * request came from a configured proxy (a GET takes from it only when refused, and from a bucket
 * of the node's: refused-reads.ts); unauthenticated activation waits small, short-lived and
 * capped (activation-waits.ts, open-waits.ts); no CORS headers at all; nothing secret in a log
 * line (paths without the secret, never a body). TLS is the reverse proxy's job (docs/relay.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger, LogFields } from '../src-main/core/log/logger';
import { MAX_BODY_BYTES } from '../src-main/core/account/receiver';
import { FIRST_REQUEST_MS } from '../src-main/core/http/connection-limits';
import { TokenBucket } from '../src-main/core/calls/token-bucket';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import { ACTIVATION_POLL_MS } from '../src-main/core/relay/relay-protocol';
import { activationRoutes } from './activation-routes';
import { activationWaits } from './activation-waits';
import { guardConnections } from './connection-guard';
import { deviceRoutes, type StreamEnders } from './device-routes';
import { loggedPath, platformAuth } from './platform-auth';
import { platformRoutes } from './platform-routes';
import { refusedReads } from './refused-reads';
import { callsUnderWay, endStreams } from './relay-drain';
import { StoreUnavailable } from './relay-store';
import {
  STORE_CHECK,
  STORE_RETRY_AFTER_S,
  watchStoreHealth,
  type StoreHealth,
} from './store-health';
import { clientOf, SECURITY_HEADERS, type RelayContext, type RelayOptions } from './relay-context';

export type { RelayOptions } from './relay-context';

/** What a drain did: the streams it ended, and the calls still under way at its deadline. */
export interface DrainReport {
  streams: number;
  callsCut: number;
}

export interface RunningRelay {
  /** e.g. http://127.0.0.1:PORT: the base of the URLs to register with the platform. */
  readonly origin: string;
  /** The activation polls this node holds open now. */
  readonly openWaits: number;
  /** The relay's own log lines (through Fastify's logger when `logLevel` is set). */
  readonly log: Logger;
  /**
   * Stops taking work and closes, within `deadlineMs`: /readyz answers 503 at once, each device
   * stream ends with a reconnect hint (the desktop goes on at another node, from its offset),
   * open activation polls end (204: asked again elsewhere), new streams and polls are refused
   * (503). For a second (so that the proxy sees /readyz refuse) the platform's calls are still
   * served; then new ones are refused (503, the platform repeats them elsewhere) and the ones
   * under way may finish, until `deadlineMs`; then the node closes, cutting what is left (none of
   * it was answered 200). Nothing queued is lost: it waits in the store.
   */
  drain(deadlineMs?: number): Promise<DrainReport>;
  close(): Promise<void>;
}

/** Connections a client may hold open on a node (RELAY_CONNECTIONS_PER_ADDRESS). */
export const CONNECTIONS_PER_CLIENT = 256;
/** Streams one device may hold open on a node (RELAY_STREAMS_PER_DEVICE). */
export const STREAMS_PER_DEVICE = 4;

/** A draining node keeps serving the platform's calls this long (probes see 503). */
const DRAIN_GRACE_MS = 1000;

/** Clients with a bucket of this node's (then forgotten all at once). */
const LOCAL_BUCKETS = 10_000;

/** The load balancer's probes, never refused for a client's refused reads. */
const PROBES = new Set(['/healthz', '/readyz']);

/** Headers only a browser sends; a POST carrying one came from a web page. */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'];

export async function startRelay(
  options: RelayOptions & { port: number; host?: string },
): Promise<RunningRelay> {
  const { store } = options;
  const now = options.now ?? Date.now;
  const rate = options.rate ?? { burst: 200, perSecond: 100 };
  const draining = new AbortController();
  // The streams are ended when the store goes away (desktops reconnect, elsewhere or later, from
  // their offsets); requests are refused meanwhile (503) rather than left waiting on it.
  let streams: StreamEnders = new Set();
  const health: StoreHealth = watchStoreHealth(
    store,
    options.storeCheck ?? STORE_CHECK,
    () => context.log,
    {
      away: () => {
        options.metrics?.storeUp.set(0);
        void endStreams(streams, false);
      },
      back: () => options.metrics?.storeUp.set(1),
    },
  );
  options.metrics?.storeUp.set(1);
  const context: RelayContext = {
    reads: refusedReads(rate, now),
    store,
    log: options.log,
    now,
    auth: platformAuth(options.platformHeaders, options.webhookSecret),
    dialWindowMs: options.dialWindowMs ?? 10_000,
    handoffTimeoutMs: options.handoffTimeoutMs ?? 20_000,
    pollMs: options.pollMs ?? ACTIVATION_POLL_MS,
    waits: options.waits ?? { perAddress: 20, total: 2000 },
    keepAliveMs: options.keepAliveMs ?? 15_000,
    streamsPerDevice: options.streamsPerDevice ?? STREAMS_PER_DEVICE,
    metrics: options.metrics,
    draining: draining.signal,
    health,
  };
  const proxies = options.trustProxy ?? [];
  const { reads } = context;

  const app = Fastify({
    logger: options.logLevel
      ? {
          level: options.logLevel,
          // stderr, as every log of Callbar's (stdout is for what a command prints).
          stream: process.stderr,
          // Never a body, a header or a query: the method, the path without its secret, the
          // client address, the status.
          serializers: {
            req: (request: { method: string; url: string; ip?: string }) => ({
              method: request.method,
              path: loggedPath(request.url),
              address: request.ip,
            }),
            res: (reply: { statusCode: number }) => ({ status: reply.statusCode }),
          },
          messageKey: 'message',
          timestamp: () => `,"time":"${new Date().toISOString()}"`,
          formatters: { level: (label: string) => ({ level: label }) },
        }
      : false,
    logController: new OneLinePerRequest(),
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
  if (options.logLevel) context.log = pinoLogger(app.log);
  // Connections that bring no request, and more of them than a client may hold, are closed.
  guardConnections(
    app.server,
    {
      firstRequestMs: options.connections?.firstRequestMs ?? FIRST_REQUEST_MS,
      perClient: options.connections?.perClient ?? CONNECTIONS_PER_CLIENT,
      proxies,
    },
    context.log,
  );
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    done(null, payload);
  });
  // First of the hooks: once the drain refuses new calls, nothing of theirs is done.
  const calls = callsUnderWay(app);
  app.addHook('onResponse', (_request, reply, done) => {
    options.metrics?.httpRequests.inc({ status: String(reply.statusCode) });
    done();
  });
  /**
   * Each client's bucket on this node, at the same rate as the shared one: a client past the rate
   * here is past it everywhere, and is refused without asking the store. Before, each request
   * past the rate was a store call all the same (1,000 refused POSTs, 4,000 Redis commands); now
   * a client's calls reach the store at the rate at most, per node, however fast it sends them.
   */
  const local = new Map<string, TokenBucket>();
  app.addHook('onRequest', async (request, reply) => {
    // While the store does not answer, anything but the probes would wait on it: refused at once.
    if (PROBES.has(request.url)) return;
    health.require();
    const client = clientOf(request);
    if (request.method === 'GET') {
      // A client's refused GETs (and those under way), past the rate, are refused before they
      // reach the store (refused-reads.ts).
      if (!reads.begin(client, request)) {
        throw new HttpRejection(429, 'Too many refused requests; slow down.');
      }
      reply.raw.once('close', () =>
        reads.ended(client, request, reply.raw.writableFinished ? reply.statusCode : undefined),
      );
      return;
    }
    if (BROWSER_HEADERS.some((name) => request.headers[name] !== undefined)) {
      throw new HttpRejection(403, 'Requests from web pages are not accepted.');
    }
    let bucket = local.get(client);
    if (!bucket) {
      // Bounded: past it, every client starts full here again (the shared bucket still counts).
      if (local.size >= LOCAL_BUCKETS) local.clear();
      bucket = new TokenBucket(rate, now);
      local.set(client, bucket);
    }
    // One bucket per client for all nodes (in the shared store); an IPv6 client by its /64.
    if (!bucket.take() || !(await store.takeToken(client, rate, now()))) {
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
    if (error instanceof StoreUnavailable) {
      // The store's going away is said once (warn); each request refused meanwhile, at debug.
      context.log.debug('relay refused a request: the store does not answer', { path });
      return reply
        .code(503)
        .header('retry-after', String(STORE_RETRY_AFTER_S))
        .type('text/plain; charset=utf-8')
        .send(error.message);
    }
    if (status >= 500 && !(error instanceof HttpRejection)) {
      context.log.error('relay failed', { path, error });
      return reply.code(500).type('text/plain').send('The relay could not handle this request.');
    }
    context.log.warn('relay refused a request', { path, status, reason: error.message });
    return reply.code(status).type('text/plain; charset=utf-8').send(error.message);
  });

  // Health: the process serves; readiness: it takes streams and the store answers. Neither asks
  // the store: readiness is the node's own check (a ping a second, store-health.ts). Before, each
  // /readyz pinged Redis once more, and the probes are never refused: anyone who could reach the
  // port sent Redis a command per request, as fast as they could send them.
  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('OK'));
  app.get('/readyz', async (_request, reply) => {
    if (draining.signal.aborted) return reply.code(503).type('text/plain').send('draining');
    return health.ready
      ? reply.type('text/plain').send('OK')
      : reply.code(503).type('text/plain').send('the store does not answer');
  });

  const waits = activationWaits(context);
  platformRoutes(app, context, waits);
  const open = activationRoutes(app, context, waits);
  streams = deviceRoutes(app, context);

  await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      health.stop();
      for (const end of [...streams]) end();
      await app.close();
    })());
  return {
    origin: `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`,
    get openWaits() {
      return open.size;
    },
    get log() {
      return context.log;
    },
    drain: async (deadlineMs = 8000) => {
      if (draining.signal.aborted) {
        await close();
        return { streams: 0, callsCut: calls.size };
      }
      const started = performance.now();
      draining.abort();
      context.log.info('relay draining', { streams: streams.size });
      const ended = await endStreams(streams);
      const elapsed = () => performance.now() - started;
      if (elapsed() < DRAIN_GRACE_MS) await sleep(DRAIN_GRACE_MS - elapsed());
      // New calls go elsewhere from here on; the ones under way may finish.
      calls.refuse();
      await calls.finished(Math.max(0, deadlineMs - elapsed()));
      const callsCut = calls.size;
      await close();
      return { streams: ended, callsCut };
    },
    close,
  };
}

/**
 * A request's log line once it is answered (method, path, address, status, time taken, its
 * `reqId`, the device once known), instead of Fastify's two (`incoming request` and `request
 * completed`): at 1,000 events a second the two lines per platform call were a tenth of a node's
 * CPU (a profile under `npm run bench:relay`). A device stream, which is answered only when it
 * ends, says `device stream opened` itself; errors are logged as before.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    reply.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}

/** The core's Logger over Fastify's pino logger: the relay's own lines as the same JSON. */
function pinoLogger(pino: FastifyBaseLogger): Logger {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) =>
      pino[level](
        fields?.error instanceof Error
          ? { ...fields, error: { name: fields.error.name, message: fields.error.message } }
          : (fields ?? {}),
        message,
      );
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

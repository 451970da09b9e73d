/**
 * The relay's HTTP server (Fastify): the integration's public Activation, Deactivation and Webhook
 * URLs for the platform, and the device protocol (src-main/core/relay/relay-protocol.ts) for the
 * desktops, which only ever connect out to it. Stateless: what must be shared lives in the store
 * (relay-store.ts), so any node serves any request.
 *
 * Hardened like Callbar's loopback receiver, with the same code for what the platform sends
 * (receiver.ts's body parsing, bounds and schemas, webhook-auth.ts for call events): bodies of 16
 * KiB at most, JSON bounded in depth, strings and entries; the platform's configured headers
 * checked in constant time on each of its calls; requests a browser made refused; a token bucket
 * per client address, kept in the store so that every node takes from the same one; no CORS
 * headers at all; nothing secret in a log line (paths without the webhook secret, never a body).
 * TLS is the reverse proxy's job (docs/relay.md).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  EVENT_LIMITS,
  HANDSHAKE_LIMITS,
  DeactivationBody,
  HandshakeBody,
  MAX_BODY_BYTES,
  MAX_EVENT_ID_CHARS,
  parseBody,
  WebhookEvent,
} from '../src-main/core/account/receiver';
import { ATTEMPT_LIFETIME_MS } from '../src-main/core/account/activation-attempts';
import {
  landingLocale,
  renderLandingPage,
  type LandingPage,
} from '../src-main/core/account/landing-page';
import { secretsEqual } from '../src-main/core/account/secret-compare';
import {
  checkEventsRoute,
  withoutWebhookSecret,
  type WebhookAuth,
} from '../src-main/core/account/webhook-auth';
import type { Rate } from '../src-main/core/calls/token-bucket';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import type { Logger } from '../src-main/core/log/logger';
import {
  ACTIVATION_POLL_MS,
  ActivationConfirm,
  ActivationCancel,
  ActivationWait,
  DEVICE_PATHS,
  keyName,
  LINK_REUSED,
  RELAY_LANDING_PATH,
  StreamOffset,
  type DeviceMessage,
} from '../src-main/core/relay/relay-protocol';
import {
  CONNECT_NONCE,
  CONNECT_PATH,
  connectLinkName,
  openConnectLink,
} from '../src-main/core/relay/connect-link';
import { sealHandoff } from '../src-main/core/relay/sealed-handoff';
import { said } from '../src-main/core/text/said';
import { translatorFor } from '../src-main/core/text/translators';
import type { DeviceRecord, RelayStore } from './relay-store';

export interface RelayOptions {
  store: RelayStore;
  log: Logger;
  /** Headers the platform is configured to send with each call (shared secrets). */
  platformHeaders?: Record<string, string>;
  /** The Webhook URL's secret last segment (`/events/<secret>`) when no headers are configured. */
  webhookSecret?: string | undefined;
  /** Events that name nobody go to devices that noted a dial this recently (default 10 s). */
  dialWindowMs?: number;
  /** How long the platform's activation call waits for the desktop to store the tokens. */
  handoffTimeoutMs?: number;
  /** How long an activation poll is held open (default ACTIVATION_POLL_MS). */
  pollMs?: number;
  /** Per client address, for the platform's calls and the activation routes (for all nodes). */
  rate?: Rate;
  /** Trust X-Forwarded-For from the reverse proxy in front (client addresses for the rate). */
  trustProxy?: boolean;
  /** Seconds between keep-alive comments on a device stream. */
  keepAliveMs?: number;
  now?: () => number;
}

export interface RunningRelay {
  /** e.g. http://127.0.0.1:PORT: the base of the URLs to register with the platform. */
  readonly origin: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Headers only a browser sends; a POST carrying one came from a web page. */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'];

/** A leg routed once keeps its devices this long (its later events need no dial note). */
const LEG_ROUTE_MS = 6 * 60 * 60_000;

/** A connect link at the relay: the attempt it belongs to, and its seal until its first use. */
interface ConnectLinkRecord {
  key_sha256: string;
  sealed?: string;
}
const connectName = (name: string) => `connect:${name}`;
/** A connect link used after its attempt is over (or never issued). */
const LINK_SPENT = {
  title: said('landing:linkUsed.title'),
  message: said('landing:linkUsed.message'),
};

/**
 * An HTML page for the browser (where the portal sends it, the connect link's refusals), in the
 * language the browser asks for (Accept-Language), as the receiver's landing page is.
 */
function page(request: FastifyRequest, reply: FastifyReply, status: number, landing: LandingPage) {
  const locale = landingLocale(request.headers['accept-language']);
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8')
    .send(renderLandingPage(landing, translatorFor(locale, 'landing')));
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))];
  throw new HttpRejection(400, `${what}: missing or invalid fields: ${fields.join(', ')}.`);
}

export async function startRelay(
  options: RelayOptions & { port: number; host?: string },
): Promise<RunningRelay> {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const dialWindowMs = options.dialWindowMs ?? 10_000;
  const handoffTimeoutMs = options.handoffTimeoutMs ?? 20_000;
  const pollMs = options.pollMs ?? ACTIVATION_POLL_MS;
  const rate = options.rate ?? { burst: 200, perSecond: 100 };
  const auth: WebhookAuth = {
    headers: options.platformHeaders ?? {},
    secret: options.webhookSecret,
    acceptUnauthenticated: false,
  };
  const streams = new Set<() => void>();

  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    connectionTimeout: 0,
    requestTimeout: 10_000,
    trustProxy: options.trustProxy ?? false,
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
    const path = withoutWebhookSecret(request.url.split('?')[0] ?? '');
    if (status >= 500 && !(error instanceof HttpRejection)) {
      log.error('relay failed', { path, error });
      return reply.code(500).type('text/plain').send('The relay could not handle this request.');
    }
    log.warn('relay refused a request', { path, status, reason: error.message });
    return reply.code(status).type('text/plain; charset=utf-8').send(error.message);
  });

  /** The platform's configured headers, in constant time, on each of its calls. */
  const checkPlatform = (request: FastifyRequest) => {
    for (const [name, expected] of Object.entries(auth.headers)) {
      const given = request.headers[name.toLowerCase()];
      if (typeof given !== 'string' || !secretsEqual(given, expected)) {
        throw new HttpRejection(401, 'A required header is missing or wrong.');
      }
    }
  };
  const body = (request: FastifyRequest, limits: typeof EVENT_LIMITS) =>
    parseBody(
      request.headers['content-type'] ?? '',
      typeof request.body === 'string' ? request.body : '',
      limits,
    );
  const handshake = <T>(request: FastifyRequest, schema: z.ZodType<T>) => {
    checkPlatform(request);
    return parsed(schema, body(request, HANDSHAKE_LIMITS), 'The call');
  };
  const deliver = async (devices: string[], message: DeviceMessage) => {
    const data = JSON.stringify(message);
    await Promise.all(devices.map((id) => store.append(id, data)));
  };

  /** The device a request's bearer credential belongs to. */
  const device = async (request: FastifyRequest): Promise<DeviceRecord> => {
    const header = request.headers.authorization ?? '';
    const credential = header.startsWith('Bearer ') ? header.slice(7) : '';
    const record = credential ? await store.deviceByCredential(sha256(credential)) : undefined;
    if (!record) {
      throw new HttpRejection(
        401,
        'This device is not known to the relay (revoked or deactivated).',
      );
    }
    return record;
  };

  // --- The platform's calls --------------------------------------------------------------
  app.post('/activate', async (request, reply) => {
    const call = handshake(request, HandshakeBody);
    if (!call.access_token || !call.refresh_token) {
      throw new HttpRejection(400, 'Activation needs access_token and refresh_token.');
    }
    const name = keyName(call.confirmation_key);
    const publicKey = await store.takeWaiting(name);
    if (!publicKey) {
      throw new HttpRejection(403, 'Unknown, expired or already used confirmation_key.');
    }
    const credential = randomBytes(32).toString('base64url');
    const record: DeviceRecord = {
      device_id: randomUUID(),
      tenant_id: call.tenant_id,
      user_extension: call.user_extension,
      credential_sha256: sha256(credential),
      created_at: new Date(now()).toISOString(),
    };
    // Known before the desktop has it, so its first stream request finds it; removed below
    // unless the desktop says it stored the tokens.
    await store.addDevice(record);
    let stored = false;
    try {
      const sealed = await sealHandoff(publicKey, name, {
        body: call,
        device_id: record.device_id,
        credential,
      });
      await store.push(`handoff:${name}`, JSON.stringify(sealed), handoffTimeoutMs);
      const answer = await store.pop(`confirm:${name}`, handoffTimeoutMs);
      if (answer === undefined) {
        throw new HttpRejection(504, 'The desktop did not confirm in time; nothing was kept.');
      }
      const confirm = ActivationConfirm.parse(JSON.parse(answer));
      if (!secretsEqual(sha256(confirm.credential), record.credential_sha256) || !confirm.stored) {
        throw new HttpRejection(503, 'The desktop could not store the tokens; nothing was kept.');
      }
      stored = true;
    } finally {
      if (!stored) await store.removeDevice(record.device_id);
    }
    log.info('device activated', { device: record.device_id, tenant_id: call.tenant_id });
    return reply.type('text/plain').send('OK');
  });

  app.post('/deactivate', async (request, reply) => {
    // Its tokens, "empty" in the contract, may be "", null or absent: only the user matters.
    const call = handshake(request, DeactivationBody);
    const devices = await store.devicesOf(call.tenant_id, call.user_extension);
    await deliver(
      devices.map((each) => each.device_id),
      { type: 'deactivate', body: call },
    );
    log.info('deactivation queued', { tenant_id: call.tenant_id, devices: devices.length });
    return reply.type('text/plain').send('OK');
  });

  const onEvent = async (request: FastifyRequest, reply: FastifyReply) => {
    checkPlatform(request);
    checkEventsRoute(request.url.split('?')[0] ?? '', auth);
    const result = WebhookEvent.safeParse(body(request, EVENT_LIMITS));
    if (!result.success) {
      throw new HttpRejection(
        400,
        `A call event needs a string id of 1 to ${MAX_EVENT_ID_CHARS} characters.`,
      );
    }
    const event = result.data;
    const { tenant_id: tenant, user_extension: extension } = event;
    let targets: string[];
    if (typeof tenant === 'string' && typeof extension === 'string') {
      targets = (await store.devicesOf(tenant, extension)).map((each) => each.device_id);
    } else {
      // Only the leg id: the devices it went to before, else those that just placed a dial.
      targets =
        (await store.legRoute(event.id)) ?? (await store.dialledSince(now() - dialWindowMs));
      if (targets.length > 0) await store.setLegRoute(event.id, targets, LEG_ROUTE_MS);
    }
    await deliver(targets, { type: 'event', event });
    if (targets.length === 0) log.info('a call event reached no device');
    return reply.type('text/plain').send('OK');
  };
  app.post('/events', onEvent);
  app.post('/events/*', onEvent);

  app.get(RELAY_LANDING_PATH, async (request, reply) =>
    page(request, reply, 200, {
      ok: true,
      title: said('landing:relayAnswered.title'),
      message: said('landing:relayAnswered.message'),
    }),
  );

  // --- The desktops ------------------------------------------------------------------------
  app.post(DEVICE_PATHS.activation, async (request, reply) => {
    const wait = parsed(ActivationWait, body(request, HANDSHAKE_LIMITS), 'The wait');
    await store.putWaiting(wait.key_sha256, wait.public_key, ATTEMPT_LIFETIME_MS);
    if (wait.connect_link) {
      const link: ConnectLinkRecord = {
        key_sha256: wait.key_sha256,
        sealed: wait.connect_link.sealed,
      };
      await store.putWaiting(
        connectName(wait.connect_link.name),
        JSON.stringify(link),
        ATTEMPT_LIFETIME_MS,
      );
    }
    if (!wait.wait) return reply.code(204).send();
    const sealed = await store.pop(`handoff:${wait.key_sha256}`, pollMs);
    if (sealed === undefined) return reply.code(204).send();
    if (sealed === LINK_REUSED) {
      await store.takeWaiting(wait.key_sha256);
      return reply.code(410).type('text/plain').send('The connect link was opened twice.');
    }
    return reply.type('application/json').send(sealed);
  });

  // The browser's one-time link to the portal (connect-link.ts), as the loopback receiver's.
  app.get(`${CONNECT_PATH}:nonce`, async (request, reply) => {
    const { nonce } = request.params as { nonce: string };
    const name = CONNECT_NONCE.test(nonce) ? connectName(connectLinkName(nonce)) : undefined;
    const record = name ? await store.takeWaiting(name) : undefined;
    const link = record ? (JSON.parse(record) as ConnectLinkRecord) : undefined;
    if (!name || !link) {
      return page(request, reply, 404, { ok: false, ...LINK_SPENT });
    }
    if (link.sealed) {
      const portalLink = openConnectLink(nonce, link.sealed);
      // Kept as used (without the link) so a second use is known for what it is.
      const used: ConnectLinkRecord = { key_sha256: link.key_sha256 };
      await store.putWaiting(name, JSON.stringify(used), ATTEMPT_LIFETIME_MS);
      return reply.code(303).header('location', portalLink).send();
    }
    // Opened twice while the attempt waits: someone else may have the portal link. The
    // platform's activation for it is refused from now on, and the desktop ends the attempt.
    if ((await store.takeWaiting(link.key_sha256)) === undefined) {
      return page(request, reply, 404, { ok: false, ...LINK_SPENT });
    }
    await store.push(`handoff:${link.key_sha256}`, LINK_REUSED, handoffTimeoutMs);
    log.warn('a connect link was opened twice; the activation attempt ends');
    return page(request, reply, 400, {
      ok: false,
      title: said('landing:stopped.title'),
      message: said('landing:relayOpenedTwice', { reason: said('landing:stopped.openedTwice') }),
    });
  });

  app.post(DEVICE_PATHS.cancel, async (request, reply) => {
    const cancel = parsed(ActivationCancel, body(request, HANDSHAKE_LIMITS), 'The cancellation');
    await store.takeWaiting(cancel.key_sha256);
    await store.takeWaiting(connectName(cancel.connect_link_name));
    return reply.code(204).send();
  });

  app.post(DEVICE_PATHS.confirm, async (request, reply) => {
    const confirm = parsed(ActivationConfirm, body(request, HANDSHAKE_LIMITS), 'The confirmation');
    await store.push(`confirm:${confirm.key_sha256}`, JSON.stringify(confirm), handoffTimeoutMs);
    return reply.type('text/plain').send('OK');
  });

  app.post(DEVICE_PATHS.dial, async (request, reply) => {
    const record = await device(request);
    await store.noteDial(record.device_id, now());
    return reply.type('text/plain').send('OK');
  });

  app.delete(DEVICE_PATHS.device, async (request, reply) => {
    const record = await device(request);
    await store.removeDevice(record.device_id);
    log.info('device removed itself', { device: record.device_id });
    return reply.type('text/plain').send('OK');
  });

  app.get(DEVICE_PATHS.stream, async (request, reply) => {
    const record = await device(request);
    const given = request.headers['last-event-id'];
    let cursor = typeof given === 'string' && given !== '' ? given : '0-0';
    if (!StreamOffset.safeParse(cursor).success) {
      throw new HttpRejection(400, 'Last-Event-ID is not a stream offset.');
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    let closed = false;
    let reading: Promise<void> | undefined;
    let again = false;
    const drain = async (): Promise<void> => {
      do {
        again = false;
        for (;;) {
          const batch = await store.readAfter(record.device_id, cursor, 100);
          for (const message of batch) {
            if (closed) return;
            raw.write(`id: ${message.id}\ndata: ${message.data}\n\n`);
            cursor = message.id;
          }
          if (batch.length < 100) break;
        }
      } while (again && !closed);
    };
    const wake = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = drain()
        .catch((error: unknown) => log.warn('a device stream could not be read', { error }))
        .finally(() => (reading = undefined));
    };
    const unwatch = store.watch(record.device_id, wake);
    const keepAlive = setInterval(() => {
      raw.write(': keep-alive\n\n');
      // A revoked or removed device's stream ends here.
      store.deviceByCredential(record.credential_sha256).then(
        (still) => (still ? undefined : end()),
        () => undefined,
      );
    }, options.keepAliveMs ?? 15_000);
    const end = () => {
      if (closed) return;
      closed = true;
      unwatch();
      clearInterval(keepAlive);
      streams.delete(end);
      raw.end();
    };
    streams.add(end);
    request.raw.on('close', end);
    wake();
    await reading;
    if (!closed) raw.write('event: ready\ndata: {}\n\n');
  });

  await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    origin: `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`,
    close: async () => {
      for (const end of [...streams]) end();
      await app.close();
    },
  };
}

/**
 * The loopback receiver: the address the platform calls with tokens (Activation URL), to end the
 * integration (Deactivation URL) and with call events (Webhook URL), plus the landing page the
 * browser is redirected to.
 *
 * It runs on every user's machine, so it is an attack surface (the 2019 localhost-web-server
 * lesson). It listens on 127.0.0.1 only; refuses a Host header other than its own address
 * (DNS rebinding); refuses POSTs a browser made (Origin, Sec-Fetch-Site/-Dest/-User); caps bodies
 * at 16 KiB and slow bodies by time; accepts JSON (bounded in depth, string lengths and entries
 * before anything is built from it, see http/bounded-json.ts) and form bodies of the expected
 * shape only; checks the configured shared-secret headers and the body's HMAC signature (see
 * body-signature.ts) in constant time, and that a call event is authenticated (see
 * webhook-auth.ts) before its body is parsed. The handlers decide the rest and
 * answer 200 only once the tokens are stored. `GET /connect/<nonce>` sends the browser on to the
 * portal link, once, and only when the browser itself opened it (not another page). Every refusal
 * (wrong Host, path or method included) is logged: one line, then one summary per interval. A
 * refused activation call that is most likely the platform's (it arrived whole, and carries a
 * confirmation_key or a valid signature, see RefusedActivation) is also told to the handlers, so
 * the person waiting learns why instead of waiting in vain; any other refusal is only logged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { CallbarError } from '../errors';
import { openedByTheBrowserItself } from '../http/browser-navigation';
import { checkJsonBounds, parseBoundedJson, type JsonLimits } from '../http/bounded-json';
import { limitLoopbackConnections, type GivenLimits } from '../http/connection-limits';
import { HttpRejection } from '../http/http-rejection';
import { readRequestBody } from '../http/request-body';
import type { Logger } from '../log/logger';
import { summarizedWarnings } from '../log/summarized-warnings';
import { signatureMatches } from './body-signature';
import { inEnglish, translatorFor } from '../text/translators';
import { landingLocale, renderLandingPage, type LandingPage } from './landing-page';
import { secretsEqual } from '../secret-compare';
import {
  checkEventsRoute,
  isEventsRoute,
  withoutWebhookSecret,
  type WebhookAuth,
} from './webhook-auth';
import { said } from '../text/said';
import {
  DeactivationBody,
  EVENT_LIMITS,
  HANDSHAKE_LIMITS,
  HandshakeBody,
  MAX_EVENT_ID_CHARS,
  WebhookEvent,
} from '../api/platform-deliveries';

export const MAX_BODY_BYTES = 16 * 1024;
/**
 * Connections held open at once. Every caller is 127.0.0.1, so this is the whole receiver's: room
 * for a platform's bursts, far below the process's file descriptors.
 */
export const RECEIVER_CONNECTIONS = 128;

// The platform's deliveries are the contract's (api/platform-deliveries.ts); the receiver's and
// the relay's callers find them here too.
export {
  DeactivationBody,
  EVENT_LIMITS,
  HANDSHAKE_LIMITS,
  HandshakeBody,
  MAX_EVENT_ID_CHARS,
  WebhookEvent,
} from '../api/platform-deliveries';

/** The fields of an activation or deactivation call, or a 400 naming those missing or invalid. */
function handshakeFields<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
  throw new ReceiverRejection(400, `Missing or invalid fields: ${fields.join(', ')}.`);
}

/** A refusal the handlers raise: the status and a message safe to show the platform. */
export class ReceiverRejection extends HttpRejection {
  override readonly name = 'ReceiverRejection';
}

/**
 * A refused activation call that passed the transport checks (Host, method, not a web page's, a
 * body within the size and time bounds) and carries the platform's marks: a confirmation_key in a
 * body Callbar could read, or a valid signature of its body. Whether the key is the waiting
 * attempt's is the handler's to check: any local program can send a call with a made-up key.
 */
export interface RefusedActivation {
  /** The receiver's own sentence, never anything the request carried. */
  reason: string;
  /** The body's confirmation_key, when its body could be read as a handshake's fields. */
  confirmationKey?: string;
  /** Whether its body's signature was verified (CALLBAR_RECEIVER_HMAC). */
  signed: boolean;
}

export interface ReceiverHandlers {
  activate: (body: HandshakeBody) => Promise<void>;
  deactivate: (body: DeactivationBody) => Promise<void>;
  event: (event: WebhookEvent) => void;
  landing: (attemptId: string | null) => LandingPage;
  /** `GET /connect/<nonce>`: where the browser goes next, or a page saying why not. */
  connect: (nonce: string) => { redirect: string } | LandingPage;
  /** An activation call that may well be the platform's was refused (see RefusedActivation). */
  activationRefused?: (refusal: RefusedActivation) => void;
}

export interface ReceiverOptions {
  port: number;
  handlers: ReceiverHandlers;
  /**
   * How calls are authenticated (see webhook-auth.ts), asked at each request: the headers the
   * platform is configured to send with every call (shared secrets), and for call events the
   * Webhook URL's secret.
   */
  auth: () => WebhookAuth;
  /** How long a request may take to arrive whole. */
  bodyTimeoutMs?: number;
  /** Refused requests after the first are logged as one summary line per interval. */
  refusalLogIntervalMs?: number;
  /**
   * How long a connection may take to bring its first request (default 10 s), and how many this
   * computer's programs may hold open at once (default 128; past it, the oldest that has not yet
   * brought a request makes room): http/connection-limits.ts.
   */
  connections?: GivenLimits;
  log: Logger;
}

export interface RunningReceiver {
  readonly port: number;
  /** http://127.0.0.1:PORT — the base of the Activation, Deactivation and Webhook URLs. */
  readonly origin: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** What a POST was found to be before it was refused: its body, once read whole; signed. */
interface Arrived {
  text?: string;
  signed: boolean;
}

/** Headers only a browser sends; a POST carrying one came from a web page. */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'];

function reply(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

/**
 * A request's path for the log: no query, no `/connect/` nonce (a one-time secret) and no
 * webhook secret.
 */
function loggedPath(url: string | undefined): string {
  const path = (url ?? '').split('?')[0]!;
  return path.startsWith('/connect/') ? '/connect/…' : withoutWebhookSecret(path);
}

/**
 * JSON or form-encoded, nothing else, within `limits` (also the relay's); a repeated form field is ambiguous and
 * refused.
 */
export function parseBody(contentType: string, text: string, limits: JsonLimits): unknown {
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') return parseBoundedJson(text, limits);
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(text);
    const fields: Record<string, string> = {};
    for (const [key, value] of form) {
      if (Object.hasOwn(fields, key)) throw new ReceiverRejection(400, `Field ${key} repeats.`);
      fields[key] = value;
    }
    checkJsonBounds(fields, limits);
    return fields;
  }
  throw new ReceiverRejection(
    415,
    'Expected application/json or application/x-www-form-urlencoded.',
  );
}

export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const { handlers, log } = options;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 5000;
  let allowedHosts: string[] = [];
  // A web page can send thousands of refused requests a second: one line, then a summary.
  const refusals = summarizedWarnings(
    log,
    'receiver refused more requests',
    options.refusalLogIntervalMs,
  );

  // Browsers send Origin or Sec-Fetch-Site with every such request. Sec-Fetch-Mode alone is no
  // sign of a browser: Node's fetch (undici) sends `sec-fetch-mode: cors` on every request,
  // and a platform may well be written in Node.
  const checkNotFromBrowser = (request: IncomingMessage) => {
    if (BROWSER_HEADERS.some((name) => request.headers[name] !== undefined)) {
      throw new ReceiverRejection(403, 'Requests from web pages are not accepted.');
    }
  };

  /** Checks the fixed headers and the signature; whether a signature was verified. */
  const checkPost = (request: IncomingMessage, body: Buffer): boolean => {
    const auth = options.auth();
    for (const [name, expected] of Object.entries(auth.headers)) {
      const given = request.headers[name.toLowerCase()];
      if (typeof given !== 'string' || !secretsEqual(given, expected)) {
        throw new ReceiverRejection(401, 'A required header is missing or wrong.');
      }
    }
    if (auth.signature) {
      const given = request.headers[auth.signature.header.toLowerCase()];
      if (typeof given !== 'string') {
        throw new ReceiverRejection(
          401,
          // Also why a waiting activation was refused, which the person reads: said by key.
          inEnglish(said('errors:receiver.signatureMissing', { header: auth.signature.header })),
        );
      }
      if (!signatureMatches(auth.signature, body, given)) {
        throw new ReceiverRejection(
          401,
          inEnglish(said('errors:receiver.signatureWrong', { header: auth.signature.header })),
        );
      }
    }
    return auth.signature !== undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!allowedHosts.includes(request.headers.host ?? '')) {
      throw new ReceiverRejection(421, 'This receiver answers only to its own address.');
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = url.pathname;
    if (route === '/done' || route.startsWith('/connect/')) {
      if (request.method !== 'GET') throw new ReceiverRejection(405, 'Method not allowed.');
      if (route.startsWith('/connect/') && !openedByTheBrowserItself(request.headers)) {
        // Read in the browser: in its language, as the landing page is.
        const t = translatorFor(landingLocale(request.headers['accept-language']), 'landing');
        throw new ReceiverRejection(403, t('browserOnly'));
      }
      const answer =
        route === '/done'
          ? handlers.landing(url.searchParams.get('attempt'))
          : handlers.connect(route.slice('/connect/'.length));
      if ('redirect' in answer) {
        response.writeHead(303, { ...SECURITY_HEADERS, location: answer.redirect });
        return response.end();
      }
      response.writeHead(answer.ok ? 200 : 400, {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
      });
      // In the browser's language: the page follows the portal in the same browser.
      const locale = landingLocale(request.headers['accept-language']);
      return response.end(renderLandingPage(answer, translatorFor(locale, 'landing')));
    }
    const events = isEventsRoute(route);
    if (route !== '/activate' && route !== '/deactivate' && !events) {
      throw new ReceiverRejection(404, 'Not found.');
    }
    if (request.method !== 'POST') throw new ReceiverRejection(405, 'Method not allowed.');
    checkNotFromBrowser(request);
    if (route === '/activate') {
      const arrived: Arrived = { signed: false };
      try {
        return await handlePost(request, response, route, false, arrived);
      } catch (error) {
        if (error instanceof HttpRejection) tellRefusal(request, error, arrived);
        throw error;
      }
    }
    return handlePost(request, response, route, events, { signed: false });
  };

  /** Tells the handlers of a refused activation call that bears the platform's marks. */
  const tellRefusal = (request: IncomingMessage, error: HttpRejection, arrived: Arrived) => {
    if (arrived.text === undefined || !handlers.activationRefused) return;
    let confirmationKey: string | undefined;
    try {
      const fields = parseBody(
        request.headers['content-type'] ?? '',
        arrived.text,
        HANDSHAKE_LIMITS,
      );
      const key = (fields as { confirmation_key?: unknown } | null)?.confirmation_key;
      if (typeof key === 'string' && key !== '') confirmationKey = key;
    } catch {
      // Not a body of the accepted kinds: no key.
    }
    if (confirmationKey === undefined && !arrived.signed) return;
    handlers.activationRefused({
      reason: error.message,
      ...(confirmationKey === undefined ? {} : { confirmationKey }),
      signed: arrived.signed,
    });
  };

  const handlePost = async (
    request: IncomingMessage,
    response: ServerResponse,
    route: string,
    events: boolean,
    arrived: Arrived,
  ) => {
    // The body is read (bounded in size and time) before the headers are judged, so that a
    // refusal is a clean answer and not a connection reset with unread data.
    const text = await readRequestBody(request, {
      maxBytes: MAX_BODY_BYTES,
      timeoutMs: bodyTimeoutMs,
    });
    arrived.text = text;
    arrived.signed = checkPost(request, Buffer.from(text, 'utf8'));
    const contentType = request.headers['content-type'] ?? '';
    if (events) {
      checkEventsRoute(route, options.auth());
      const event = WebhookEvent.safeParse(parseBody(contentType, text, EVENT_LIMITS));
      if (!event.success) {
        throw new ReceiverRejection(
          400,
          `A call event needs a string id of 1 to ${MAX_EVENT_ID_CHARS} characters.`,
        );
      }
      handlers.event(event.data);
      return reply(response, 200, 'OK');
    }
    const body = parseBody(contentType, text, HANDSHAKE_LIMITS);
    if (route === '/activate') await handlers.activate(handshakeFields(HandshakeBody, body));
    else await handlers.deactivate(handshakeFields(DeactivationBody, body));
    reply(response, 200, 'OK');
  };

  const server = createServer(
    { requestTimeout: bodyTimeoutMs * 2, headersTimeout: bodyTimeoutMs },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (error instanceof HttpRejection) {
          // A body that was not read to its end leaves the connection unusable.
          if (error.status === 408 || error.status === 413) {
            response.setHeader('connection', 'close');
          }
          refusals.warn(String(error.status), 'receiver refused a request', {
            path: loggedPath(request.url),
            status: error.status,
            reason: error.message,
          });
          reply(response, error.status, error.message);
        } else {
          log.error('receiver failed', { path: loggedPath(request.url), error });
          reply(response, 500, 'Callbar could not handle this request.');
        }
      });
    },
  );

  // A connection that never sends a byte is bounded by no request timeout (another local user's
  // thousands would hold the app's file descriptors): closed after its time, and at most so many.
  limitLoopbackConnections(server, 'receiver', RECEIVER_CONNECTIONS, options.connections, log);

  await new Promise<void>((ready, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'EADDRINUSE'
          ? new CallbarError(
              'receiver_port_in_use',
              said('errors:receiver.portInUse', { port: options.port }),
              { field: 'receiver_port' },
            )
          : error,
      );
    });
    server.listen(options.port, '127.0.0.1', ready);
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        refusals.flush();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * What the relay's route modules share: the options a node runs with, the store, and the small
 * pieces every route uses (bounded bodies parsed by the receiver's own parser, zod checks with a
 * 400 naming the fields, pages in the browser's language).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseBody } from '../src-main/core/account/receiver';
import {
  landingLocale,
  renderLandingPage,
  type LandingPage,
} from '../src-main/core/account/landing-page';
import type { Rate } from '../src-main/core/calls/token-bucket';
import type { JsonLimits } from '../src-main/core/http/bounded-json';
import type { GivenLimits } from '../src-main/core/http/connection-limits';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import type { Logger } from '../src-main/core/log/logger';
import { translatorFor } from '../src-main/core/text/translators';
import { clientAddress } from './client-address';
import type { WaitCaps } from './relay-config';
import type { PlatformAuth } from './platform-auth';
import type { RelayMetrics } from './relay-metrics';
import type { RefusedReads } from './refused-reads';
import type { RelayStore } from './relay-store';
import type { StoreCheck, StoreHealth } from './store-health';

export interface RelayOptions {
  store: RelayStore;
  log: Logger;
  /** Headers the platform is configured to send with each call (shared secrets). */
  platformHeaders?: Record<string, string>;
  /** The last segment of the platform's three addresses (`/activate/<secret>`…). */
  webhookSecret?: string | undefined;
  /** Events that name nobody go to devices that noted a dial this recently (default 10 s). */
  dialWindowMs?: number;
  /** How long the platform's activation call waits for the desktop to store the tokens. */
  handoffTimeoutMs?: number;
  /** How long an activation poll is held open (default ACTIVATION_POLL_MS). */
  pollMs?: number;
  /** Per client address, for every request but a stream's (for all nodes). */
  rate?: Rate;
  /** The reverse proxies whose X-Forwarded-For is believed (IP or CIDR); none by default. */
  trustProxy?: string[];
  /** Activation waits per client address and in total (default 20 and 2,000). */
  waits?: WaitCaps;
  /**
   * Connections a client may hold open on this node (default 256), and how long a connection may
   * take to bring its first request (default 10 s): connection-guard.ts.
   */
  connections?: GivenLimits;
  /**
   * Streams one device may hold open on this node (default 4); a new one closes the device's
   * oldest: device-routes.ts.
   */
  streamsPerDevice?: number;
  /** Seconds between keep-alive comments on a device stream. */
  keepAliveMs?: number;
  /**
   * How often the node pings its store and how long it waits for the answer (default every 1 s,
   * 2 s): past it the store counts as away (store-health.ts).
   */
  storeCheck?: StoreCheck;
  /** Prometheus metrics to keep (relay-metrics.ts); none by default. */
  metrics?: RelayMetrics;
  /**
   * JSON log lines through Fastify's logger (pino) at this level, to stderr: requests with their
   * id, the relay's own lines; off by default (the relay's lines then go to `log`).
   */
  logLevel?: string;
  now?: () => number;
}

/** A node's settings with their defaults, and the store. */
export interface RelayContext {
  store: RelayStore;
  log: Logger;
  auth: PlatformAuth;
  now: () => number;
  dialWindowMs: number;
  handoffTimeoutMs: number;
  pollMs: number;
  waits: WaitCaps;
  keepAliveMs: number;
  /** Streams one device may hold open on this node; a new one closes its oldest. */
  streamsPerDevice: number;
  metrics: RelayMetrics | undefined;
  /** Aborts once the node drains: open polls end, new streams and polls are refused. */
  draining: AbortSignal;
  /** Whether the store answers (store-health.ts): while it is away, polls end and requests are refused. */
  health: StoreHealth;
  /** Each client's refused GETs and those under way, on this node (refused-reads.ts). */
  reads: RefusedReads;
}

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The client a request counts as for the per-client bounds: its address (X-Forwarded-For only
 * from a configured proxy), an IPv6 address by its /64 (client-address.ts).
 */
export const clientOf = (request: FastifyRequest) => clientAddress(request.ip);

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The request's body (kept as text by the content-type parser), parsed within `limits`. */
export function body(request: FastifyRequest, limits: JsonLimits): unknown {
  return parseBody(
    request.headers['content-type'] ?? '',
    typeof request.body === 'string' ? request.body : '',
    limits,
  );
}

/** `value` checked against `schema`; a 400 naming the fields otherwise. */
export function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))];
  throw new HttpRejection(400, `${what}: missing or invalid fields: ${fields.join(', ')}.`);
}

/**
 * An HTML page for the browser (where the portal sends it, the connect link's refusals), in the
 * language the browser asks for (Accept-Language), as the receiver's landing page is.
 */
export function page(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  landing: LandingPage,
) {
  const locale = landingLocale(request.headers['accept-language']);
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8')
    .send(renderLandingPage(landing, translatorFor(locale, 'landing')));
}

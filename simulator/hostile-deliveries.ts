/**
 * The `hostile` behaviour for call events: on demand (control API `POST /__sim/hostile/deliveries`),
 * the deliveries a forged-event sender on the user's computer or a broken platform would make to
 * the Webhook URL of a user's active integrations, so the attacks on the receiver stay in the
 * suite. Each is one POST made as the platform makes them (see outbound.ts); the answers are
 * kept for `GET /__sim/hostile/deliveries`. (Forged legs and floods that the receiver
 * accepts, against the call tracker, are hostile-events.ts.)
 *
 * - `deep`: one event under 16 KiB whose `x` is nested 8,100 arrays deep, to the registered URL
 *   with its headers (a platform, or a sender that learned the secret): a receiver that parses it
 *   hands out a value that `JSON.stringify`/`structuredClone` cannot copy (stack overflow).
 * - `oversized`: an event of 20,000 bytes, to the registered URL with its headers.
 * - `long-fields`: an event whose id is 4,000 characters and with 200 keys.
 * - `unauthenticated`: a plausible event to `<origin>/events`, without the registered URL's
 *   secret part and without the extra headers (any local process can do that).
 * - `wrong-secret`: the same to `<origin>/events/<random>`, with the headers' values changed.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { validationError } from './drf-errors';
import { jsonResponse, type SimRequest, type SimResponse } from './http';
import { postToIntegrator } from './outbound';
import type { Platform } from './platform';

export const HOSTILE_EVENT_KINDS = [
  'deep',
  'oversized',
  'long-fields',
  'unauthenticated',
  'wrong-secret',
] as const;
export type HostileEventKind = (typeof HOSTILE_EVENT_KINDS)[number];

export const HostileDeliveriesInput = z.strictObject({
  kind: z.enum(HOSTILE_EVENT_KINDS),
  tenant_id: z.string().min(1),
  user_extension: z.string().min(1),
  /** How many deliveries of the kind (default 1). */
  count: z.number().int().min(1).max(1000).optional(),
});
export type HostileDeliveriesInput = z.infer<typeof HostileDeliveriesInput>;

/** One hostile delivery and the receiver's answer (null when it could not be reached). */
export interface HostileDelivery {
  kind: HostileEventKind;
  /** The URL posted to, its last path segment hidden (it may be the user's secret). */
  url: string;
  bytes: number;
  status: number | null;
  error?: string;
}

export interface HostileLog {
  in_flight: number;
  deliveries: HostileDelivery[];
}

/** The nesting of the `deep` event: about 16 KB of brackets, as in the reported attack. */
export const DEEP_EVENT_NESTING = 8100;

function plausibleEvent(): Record<string, unknown> {
  return {
    id: `leg_hostile_${randomBytes(6).toString('hex')}`,
    event: 'ringing',
    state: 'ringing',
    direction: 'inbound',
    from: '+19005550100',
  };
}

/** What `kind` posts, where, and with which headers, given a registered Webhook target. */
function delivery(
  kind: HostileEventKind,
  target: { url: string; headers: Record<string, string> },
): { url: string; body: string; headers: Record<string, string> } {
  const origin = new URL(target.url).origin;
  switch (kind) {
    case 'deep': {
      const id = plausibleEvent().id as string;
      const nested = `${'['.repeat(DEEP_EVENT_NESTING)}${']'.repeat(DEEP_EVENT_NESTING)}`;
      return { ...target, body: `{"id":"${id}","x":${nested}}` };
    }
    case 'oversized':
      return { ...target, body: JSON.stringify({ ...plausibleEvent(), pad: 'x'.repeat(20_000) }) };
    case 'long-fields': {
      const keys = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
      return { ...target, body: JSON.stringify({ ...keys, id: 'l'.repeat(4000) }) };
    }
    case 'unauthenticated':
      return { url: `${origin}/events`, headers: {}, body: JSON.stringify(plausibleEvent()) };
    case 'wrong-secret':
      return {
        url: `${origin}/events/${randomBytes(24).toString('base64url')}`,
        headers: Object.fromEntries(
          Object.keys(target.headers).map((name) => [name, randomBytes(8).toString('hex')]),
        ),
        body: JSON.stringify(plausibleEvent()),
      };
  }
}

/** Hides the last path segment of `url` (a Webhook URL's secret). */
function redacted(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  if (segments.length > 2) segments[segments.length - 1] = '…';
  return `${parsed.origin}${segments.join('/')}`;
}

/** The control API routes of the hostile event senders of `platform` (see above). */
export function hostileDeliveryRoutes(platform: Platform): {
  pattern: RegExp;
  methods: Record<string, (request: SimRequest) => SimResponse>;
}[] {
  const deliveries: HostileDelivery[] = [];
  let inFlight = 0;
  const send = async (kind: HostileEventKind, target: Parameters<typeof delivery>[1]) => {
    const post = delivery(kind, target);
    const result = await postToIntegrator({
      ...post,
      contentType: 'application/json',
      timeoutMs: platform.integratorTimeoutMs,
      signal: platform.signal,
    });
    deliveries.push({
      kind,
      url: redacted(post.url),
      bytes: Buffer.byteLength(post.body),
      status: result.ok ? result.status : null,
      ...(result.ok ? {} : { error: result.error }),
    });
    if (deliveries.length > 1000) deliveries.shift();
  };
  return [
    {
      pattern: /^\/__sim\/hostile\/deliveries$/,
      methods: {
        GET: () => jsonResponse(200, { in_flight: inFlight, deliveries } satisfies HostileLog),
        POST: (request) => {
          let input: HostileDeliveriesInput;
          try {
            input = HostileDeliveriesInput.parse(JSON.parse(request.body.toString('utf8') || '{}'));
          } catch (error) {
            throw validationError([{ code: 'invalid', detail: String(error), attr: null }]);
          }
          const targets = platform.integrations.webhookTargets(
            input.tenant_id,
            input.user_extension,
          );
          // One after another, as the platform delivers events.
          let chain = Promise.resolve();
          for (const target of targets) {
            for (let i = 0; i < (input.count ?? 1); i += 1) {
              inFlight += 1;
              chain = chain.then(() => send(input.kind, target)).finally(() => (inFlight -= 1));
            }
          }
          return jsonResponse(202, { queued: targets.length * (input.count ?? 1) });
        },
        DELETE: () => {
          deliveries.length = 0;
          return jsonResponse(200, { deliveries: 0 });
        },
      },
    },
  ];
}

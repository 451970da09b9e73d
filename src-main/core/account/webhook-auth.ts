/**
 * How a call event proves it comes from the platform. The contract does not say (any local
 * process can reach the loopback receiver), so Callbar requires one of:
 *
 * - the platform's optional extra headers (CALLBAR_RECEIVER_HEADERS) or its HMAC signature of
 *   the body (CALLBAR_RECEIVER_HMAC, see body-signature.ts), checked on every call to the
 *   receiver; the Webhook URL is then `…/events`;
 * - otherwise the profile's webhook secret as the last segment of the Webhook URL
 *   (`http://127.0.0.1:37153/events/<secret>`): 192 random bits created once per profile and kept
 *   in the OS keychain next to the session, compared in constant time, never logged.
 *
 * A delivery to plain `/events`, or with a wrong secret, is refused with 403 (and counted in the
 * receiver's refusal summary). Only the explicit setting `accept_unauthenticated_events` lets
 * such deliveries through, and `callbar status` and the window say so while it is on.
 */
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { ReceiverRegistration } from '../../../src-shared/contract';
import { HttpRejection } from '../http/http-rejection';
import type { BodySignature } from './body-signature';
import { secretsEqual } from '../secret-compare';

/** The receiver path call events arrive at (followed by the secret, see above). */
export const EVENTS_PATH = '/events';

export interface WebhookAuth {
  /** The platform's extra headers; when there are any they authenticate every call. */
  headers: Record<string, string>;
  /** The platform's HMAC signature of each body; when set it authenticates every call too. */
  signature?: BodySignature | undefined;
  /** The profile's webhook secret; undefined when the keychain could not give it. */
  secret: string | undefined;
  /** The `accept_unauthenticated_events` setting. */
  acceptUnauthenticated: boolean;
}

/** The sentence `status` and the window show while unauthenticated events are accepted. */
export const unauthenticatedEventsWarning = (): string =>
  inEnglish(said('errors:account.unauthenticatedEvents'));

const usesHeaders = (auth: WebhookAuth) =>
  Object.keys(auth.headers).length > 0 || auth.signature !== undefined;

/**
 * How deliveries are authenticated: the platform's headers (fixed values or a signature), the
 * secret URL, or not at all.
 */
export function authenticationKind(auth: WebhookAuth): ReceiverRegistration['authentication'] {
  if (usesHeaders(auth)) return 'headers';
  return auth.secret === undefined ? 'none' : 'secret-url';
}

/** True for `/events` and `/events/<anything>`. */
export function isEventsRoute(route: string): boolean {
  return route === EVENTS_PATH || route.startsWith(`${EVENTS_PATH}/`);
}

/**
 * Refuses (403) a delivery to `route` that is not authenticated. The headers, when configured,
 * were checked before (for every call to the receiver), so `/events` then is enough.
 */
export function checkEventsRoute(route: string, auth: WebhookAuth): void {
  if (auth.acceptUnauthenticated) return;
  if (usesHeaders(auth) ? route === EVENTS_PATH : secretMatches(route, auth.secret)) return;
  throw new HttpRejection(
    403,
    'This is not the Webhook URL Callbar gave: it lacks the secret part or has a wrong one. Register the Webhook URL shown by `callbar status --json` (or in Callbar’s Settings).',
  );
}

function secretMatches(route: string, secret: string | undefined): boolean {
  if (secret === undefined || !route.startsWith(`${EVENTS_PATH}/`)) return false;
  return secretsEqual(route.slice(EVENTS_PATH.length + 1), secret);
}

/** A request path fit for the log: the webhook secret replaced by "…". */
export function withoutWebhookSecret(path: string): string {
  return path.startsWith(`${EVENTS_PATH}/`) ? `${EVENTS_PATH}/…` : path;
}

/**
 * What to register with the platform's integration for the receiver at `origin`: the exact
 * Activation, Deactivation and Webhook URLs and the headers. Contains the secret: for the user,
 * on request, never for the log.
 */
export function receiverRegistration(
  origin: string,
  auth: WebhookAuth,
  problem?: string,
): ReceiverRegistration {
  const kind = authenticationKind(auth);
  return {
    activation_url: `${origin}/activate`,
    deactivation_url: `${origin}/deactivate`,
    webhook_url:
      kind === 'secret-url' ? `${origin}${EVENTS_PATH}/${auth.secret}` : `${origin}${EVENTS_PATH}`,
    headers: { ...auth.headers },
    authentication: kind,
    accepts_unauthenticated: auth.acceptUnauthenticated,
    ...(problem ? { problem } : {}),
  };
}

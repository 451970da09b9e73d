/**
 * What can be configured when the simulator starts, its defaults, and the part of it the control
 * API can still change while it runs.
 */
import type { AuthFailureAnswer } from './auth-failure';

export type RateScope = 'phonebook' | 'call-control';
export const RATE_SCOPES: readonly RateScope[] = ['phonebook', 'call-control'];

export interface RateLimit {
  limit: number;
  window_seconds: number;
}

export type Encoding = 'json' | 'form';

/** The integrator's registration for one integration slug. */
export interface IntegrationOptions {
  activation_url: string;
  deactivation_url: string;
  webhook_url?: string | null;
  /** Sent with every activation, deactivation and webhook call. */
  extra_headers?: Record<string, string>;
  /** Body encoding of the activation and deactivation calls (default json). */
  encoding?: Encoding;
  /** Sign every call's body with an HMAC in this header (see signed-deliveries.ts). */
  signing?: {
    header: string;
    algorithm: 'sha256' | 'sha1';
    secret: string;
    encoding?: 'hex' | 'base64';
    prefix?: string;
  } | null;
}

/**
 * Success answer of the call-control commands, whose status and body the contract does not show:
 * - 'accepted' (default): 202 `{"call_id", "call_leg_id"}`
 * - 'ok': 200 with the same body
 * - 'empty': 204, no body
 * - 'accepted-empty': 202, no body
 * - 'ok-text': 200 with a body that is not JSON (`OK`, text/plain)
 */
export type CallControlResponse = 'accepted' | 'ok' | 'empty' | 'accepted-empty' | 'ok-text';
export const CALL_CONTROL_RESPONSES: readonly CallControlResponse[] = [
  'accepted',
  'ok',
  'empty',
  'accepted-empty',
  'ok-text',
];

/** Simulated milliseconds after which call legs progress on their own. */
export interface AutoAnswer {
  /** The user's own phone answers this long after it starts ringing. */
  userAnswerMs: number;
  /** The other party answers this long after it starts ringing. */
  destinationAnswerMs: number;
  /** A connected call ends this long after it was bridged; null: it runs until hung up. */
  hangupAfterMs: number | null;
}

export const DEFAULT_AUTO_ANSWER: AutoAnswer = {
  userAnswerMs: 1500,
  destinationAnswerMs: 2500,
  hangupAfterMs: 30_000,
};

/**
 * How a call event looks on the wire (the contract guarantees only `id`, the call leg id):
 * - 'full': the simulator's whole event (id, call_id, event, state, leg, direction, …)
 * - 'id-only': `{"id": "<leg id>"}` and nothing else
 * - 'id-sequence': `{"id", "sequence"}`: the leg and the call's count of state changes, which
 *   says the order in which the platform made them whatever order they arrive in
 */
export type CallEventPayload = 'full' | 'id-only' | 'id-sequence';
export const CALL_EVENT_PAYLOADS: readonly CallEventPayload[] = ['full', 'id-only', 'id-sequence'];

/**
 * The order call events are sent in: 'in-order' (one after another, as they happen), or
 * 'out-of-order': the events one change makes together (a call's two legs) are sent last first,
 * and every event is sent twice (a platform that posts in parallel and retries).
 */
export type CallEventDelivery = 'in-order' | 'out-of-order';
export const CALL_EVENT_DELIVERIES: readonly CallEventDelivery[] = ['in-order', 'out-of-order'];

/**
 * What a list's ordering leaves tied: 'by-id' (DRF's stable pages: ties by id, and lists asked
 * for without `ordering` in id order), or 'unordered' (PostgreSQL's `ORDER BY … LIMIT/OFFSET`
 * without a tie-break: ties in a new order at every query, and lists asked for without
 * `ordering` by a field that ties, contacts by display_name and phonebooks by priority).
 */
export type OrderingTies = 'by-id' | 'unordered';
export const ORDERING_TIES: readonly OrderingTies[] = ['by-id', 'unordered'];

/** A page_size above the maximum: 'clamp' (DRF's) or 'refuse' (400 max_value on page_size). */
export type PageSizeAboveMax = 'clamp' | 'refuse';
export const PAGE_SIZES_ABOVE_MAX: readonly PageSizeAboveMax[] = ['clamp', 'refuse'];

/** Page links: 'absolute' (DRF's) or 'query-only' (`?page=2&…`, relative to the page's URL). */
export type NextLinks = 'absolute' | 'query-only';
export const NEXT_LINKS: readonly NextLinks[] = ['absolute', 'query-only'];

/** The "empty" tokens of a deactivation call (contract 4.2): "", or null (left out of a form). */
export type DeactivationTokens = 'empty' | 'null';
export const DEACTIVATION_TOKENS: readonly DeactivationTokens[] = ['empty', 'null'];

/**
 * What the simulator does where the contract says "not shown":
 * - 'rich' (default, the demo's): generous, DRF-like answers (full call events, 202 with a body,
 *   page_size up to 1000, 600/60 s and 60/60 s), so a person can see everything happen;
 * - 'minimal': the least a client may count on (events `{"id"}` only, call control 202 with an
 *   empty body, an empty 403, form-encoded activation calls, a token answer with only the
 *   contract's four fields, page_size capped at 100, 120/60 s and 10/60 s), so a client that
 *   passes under it does not depend on anything the contract lacks;
 * - 'variant': another implementation's legitimate choices (issues 26 and 39), as far as the
 *   simulator has them: click-to-dial 204 with no body, page_size above 50 refused (400
 *   `max_value` on `page_size`), ties of an ordering in a new order at every query (and lists
 *   without `ordering` by a field that ties), `next` links as a query only, 60/60 s for both
 *   scopes, events `{"id", "sequence"}` sent out of order and twice, form-encoded activation
 *   calls, null tokens in the deactivation call (left out of its form), the token answer's four
 *   fields, a 403 `not_authenticated` (DRF without a challenge) for a token the API does not
 *   take, a duplicate number under `non_field_errors`, each activation call sent twice. Not in
 *   the default test run (SIM_PROFILE=variant runs a suite under it; --profile variant).
 * Explicit options override the profile's choice.
 */
export type SimProfile = 'rich' | 'minimal' | 'variant';
export const SIM_PROFILES: readonly SimProfile[] = ['rich', 'minimal', 'variant'];
/** The profiles a suite runs under unless SIM_PROFILE names others. */
export const SUITE_PROFILES: readonly SimProfile[] = ['rich', 'minimal'];

export interface ProfileChoices {
  callEventPayload: CallEventPayload;
  /** Whether the token endpoint's answer carries `scope` (DOT's), beyond the contract's four fields. */
  tokenAnswerScope: boolean;
  callControlResponse: CallControlResponse;
  callControlForbiddenBody: 'drf' | 'empty';
  /** Body encoding of activation/deactivation calls when a registration does not name one. */
  integratorEncoding: Encoding;
  maxPageSize: number;
  rateLimits: Record<RateScope, RateLimit>;
  /** How a token the API does not take is answered (RuntimeConfig.authFailure). */
  authFailure: AuthFailureAnswer;
  /** Where a number taken in its phonebook is reported (RuntimeConfig.uniqueNumberError). */
  uniqueNumberError: 'field' | 'non_field_errors';
  /** How often Subscribe sends the identical activation call (RuntimeConfig.activationCalls). */
  activationCalls: number;
  callEventDelivery: CallEventDelivery;
  orderingTies: OrderingTies;
  pageSizeAboveMax: PageSizeAboveMax;
  nextLinks: NextLinks;
  deactivationTokens: DeactivationTokens;
}

export const PROFILE_CHOICES: Record<SimProfile, ProfileChoices> = {
  rich: {
    callEventPayload: 'full',
    tokenAnswerScope: true,
    callControlResponse: 'accepted',
    callControlForbiddenBody: 'drf',
    integratorEncoding: 'json',
    maxPageSize: 1000,
    rateLimits: {
      phonebook: { limit: 600, window_seconds: 60 },
      'call-control': { limit: 60, window_seconds: 60 },
    },
    authFailure: 'challenge',
    uniqueNumberError: 'field',
    activationCalls: 1,
    callEventDelivery: 'in-order',
    orderingTies: 'by-id',
    pageSizeAboveMax: 'clamp',
    nextLinks: 'absolute',
    deactivationTokens: 'empty',
  },
  minimal: {
    callEventPayload: 'id-only',
    tokenAnswerScope: false,
    callControlResponse: 'accepted-empty',
    callControlForbiddenBody: 'empty',
    integratorEncoding: 'form',
    maxPageSize: 100,
    rateLimits: {
      phonebook: { limit: 120, window_seconds: 60 },
      'call-control': { limit: 10, window_seconds: 60 },
    },
    authFailure: 'challenge',
    uniqueNumberError: 'field',
    activationCalls: 1,
    callEventDelivery: 'in-order',
    orderingTies: 'by-id',
    pageSizeAboveMax: 'clamp',
    nextLinks: 'absolute',
    deactivationTokens: 'empty',
  },
  variant: {
    callEventPayload: 'id-sequence',
    tokenAnswerScope: false,
    callControlResponse: 'empty',
    callControlForbiddenBody: 'drf',
    integratorEncoding: 'form',
    maxPageSize: 50,
    rateLimits: {
      phonebook: { limit: 60, window_seconds: 60 },
      'call-control': { limit: 60, window_seconds: 60 },
    },
    authFailure: '403-not_authenticated',
    uniqueNumberError: 'non_field_errors',
    activationCalls: 2,
    callEventDelivery: 'out-of-order',
    orderingTies: 'unordered',
    pageSizeAboveMax: 'refuse',
    nextLinks: 'query-only',
    deactivationTokens: 'null',
  },
};

export interface SimulatorOptions {
  /** What "not shown" choices to make (default 'rich'); the options below override it. */
  profile?: SimProfile;
  /** 0 (default) picks any free port. */
  port?: number;
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /** Number of generated contacts in the main tenant (default 200). */
  contacts?: number;
  /** Seed of the generated world and of fault probabilities (default 1). */
  seed?: number;
  /**
   * A file where the simulator keeps its tokens and activations across runs (state-file.ts), so
   * a client that keeps its own session (the demo's --state) is still signed in after a restart.
   */
  stateFile?: string;
  /** Integrator registrations per slug. */
  integrations?: Record<string, IntegrationOptions>;
  /** Per scope; the profile's by default (rich 600/60 s and 60/60 s, minimal 120/60 s and 10/60 s). */
  rateLimits?: Partial<Record<RateScope, RateLimit>>;
  /** The largest page_size honoured; larger requests are clamped (rich 1000, minimal 100). */
  maxPageSize?: number;
  /** Send the scope's limit as `RateLimit-Policy: <limit>;w=<seconds>` on every answer (default no). */
  rateLimitPolicyHeader?: boolean;
  /** Success answer of call control (rich 'accepted', minimal 'accepted-empty'). */
  callControlResponse?: CallControlResponse;
  /** Body of the call-control 403 (not shown in the contract): DRF's (rich) or none (minimal). */
  callControlForbiddenBody?: 'drf' | 'empty';
  /** What a webhook call event carries (rich 'full', minimal 'id-only'). */
  callEventPayload?: CallEventPayload;
  /** true (default): DEFAULT_AUTO_ANSWER; false: legs change only through the control API. */
  autoAnswer?: boolean | Partial<AutoAnswer>;
  clientId?: string;
  clientSecret?: string;
  /** Whether a refresh also revokes the access token issued with the used refresh token (default true, as DOT). */
  revokeAccessTokenOnRefresh?: boolean;
  /** Time zone of the timestamps the API writes (default Europe/Berlin). */
  timeZone?: string;
  /** How long the activation/deactivation/webhook calls may take (default 10 s). */
  integratorTimeoutMs?: number;
  /** Human-readable log lines (default: none). */
  log?: (line: string) => void;
}

export const DEFAULT_CLIENT_ID = 'callbar-sim-client';
export const DEFAULT_CLIENT_SECRET = 'callbar-sim-secret-7d1f0c9a4be2';

/** The settings that can change while the simulator runs (PATCH /__sim/config). */
export interface RuntimeConfig {
  /** The profile the simulator started with (read-only: the settings below can still change). */
  profile: SimProfile;
  callEventPayload: CallEventPayload;
  tokenAnswerScope: boolean;
  callControlResponse: CallControlResponse;
  callControlForbiddenBody: 'drf' | 'empty';
  autoAnswer: AutoAnswer | null;
  maxPageSize: number;
  /** How a token the API does not take is answered (default 'challenge': 401; auth-failure.ts). */
  authFailure: AuthFailureAnswer;
  /**
   * A contact's number taken in its phonebook: on `number` (default 'field'), or as DRF's
   * UniqueTogetherValidator says it, under `non_field_errors` ("The fields phonebook, number must
   * make a unique set.").
   */
  uniqueNumberError: 'field' | 'non_field_errors';
  /**
   * How often Subscribe sends the identical activation call (default 1); each answer must be 200,
   * or the activation fails and its tokens are revoked (a platform that retries its calls).
   */
  activationCalls: number;
  rateLimitPolicyHeader: boolean;
  /** See CallEventDelivery. */
  callEventDelivery: CallEventDelivery;
  /** See OrderingTies. */
  orderingTies: OrderingTies;
  /** See PageSizeAboveMax. */
  pageSizeAboveMax: PageSizeAboveMax;
  /** See NextLinks. */
  nextLinks: NextLinks;
  /** See DeactivationTokens. */
  deactivationTokens: DeactivationTokens;
}

export function resolveAutoAnswer(
  value: boolean | Partial<AutoAnswer> | undefined,
): AutoAnswer | null {
  if (value === false) return null;
  if (value === undefined || value === true) return { ...DEFAULT_AUTO_ANSWER };
  return { ...DEFAULT_AUTO_ANSWER, ...value };
}

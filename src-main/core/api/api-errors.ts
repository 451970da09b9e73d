/**
 * What can go wrong talking to the platform, each with a distinct class and a sentence a person
 * can read. All are CallbarErrors, so they cross the IPC boundary and reach the CLI as values.
 */
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { ErrorBody } from './schemas';

export interface FieldError {
  code: string;
  detail: string;
  /** The attribute as the platform gave it, e.g. `description.unique_description`, `contact_ids.2`. */
  attr: string | null;
}

/** The form field an attr concerns: `description.unique_description` → `description`. */
export function fieldOfAttr(attr: string | null): string | undefined {
  if (!attr) return undefined;
  if (attr.startsWith('payload.') || attr.startsWith('user.')) return attr.split('.')[1];
  return attr.split('.')[0];
}

/**
 * The codes with which a platform says it did not take the token, not that it refuses the
 * request: DRF's `not_authenticated` and `authentication_failed`, simplejwt's `token_not_valid`.
 * A DRF platform whose authentication sends no `WWW-Authenticate` challenge answers them with 403
 * rather than 401.
 */
export const AUTHENTICATION_FAILURE_CODES: readonly string[] = [
  'not_authenticated',
  'authentication_failed',
  'token_not_valid',
];

/**
 * Whether an answer says the token was not taken (so a refresh may help): any 401, and a 403
 * whose first error code is an authentication failure's.
 */
export function isAuthenticationFailure(status: number, body: ErrorBody | undefined): boolean {
  if (status === 401) return true;
  const code = body?.errors[0]?.code;
  return status === 403 && code !== undefined && AUTHENTICATION_FAILURE_CODES.includes(code);
}

/** The platform answered with an error status. */
export class ApiError extends CallbarError {
  readonly status: number;
  readonly type: string;
  readonly errors: FieldError[];
  /**
   * The platform did not take the token (401, or an authentication failure's 403), as opposed to
   * refusing this request to a user it knows (any other 403).
   */
  readonly authenticationFailed: boolean;

  constructor(status: number, body: ErrorBody | undefined, endpoint: string) {
    const errors = body?.errors ?? [];
    const first = errors[0];
    const authenticationFailed = isAuthenticationFailure(status, body);
    super(
      authenticationFailed ? (first?.code ?? 'not_authenticated') : codeFor(status, first?.code),
      authenticationFailed ? signInRefused(errors) : messageFor(status, errors),
      {
        ...(first && fieldOfAttr(first.attr) ? { field: fieldOfAttr(first.attr)! } : {}),
        details: `${endpoint} answered HTTP ${status}${first?.code ? ` (${first.code})` : ''}.`,
      },
    );
    this.name = 'ApiError';
    this.status = status;
    this.type = body?.type ?? (status >= 500 ? 'server_error' : 'client_error');
    this.errors = errors;
    this.authenticationFailed = authenticationFailed;
  }

  /** Messages per form field (errors without an attr under `_`), for showing next to inputs. */
  fieldMessages(): Record<string, string[]> {
    const byField: Record<string, string[]> = {};
    for (const error of this.errors) {
      (byField[fieldOfAttr(error.attr) ?? '_'] ??= []).push(error.detail);
    }
    return byField;
  }
}

function codeFor(status: number, firstCode: string | undefined): string {
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return firstCode ?? `http_${status}`;
}

/** The platform did not take the token even after Callbar renewed it. */
function signInRefused(errors: FieldError[]): Said {
  const details = errors.map((error) => error.detail).join(' ');
  return details
    ? said('errors:platform.signInRefusedDetails', { details })
    : said('errors:platform.signInRefused');
}

function messageFor(status: number, errors: FieldError[]): string | Said {
  if (errors.length > 0) return errors.map((error) => error.detail).join(' ');
  if (status === 403) return said('errors:platform.forbidden');
  if (status === 404) return said('errors:platform.notFound');
  if (status >= 500) return said('errors:platform.serverError');
  return said('errors:platform.refused');
}

/** 429: the scope's rate limit is reached. */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number;
  constructor(body: ErrorBody | undefined, endpoint: string, retryAfterMs: number) {
    super(429, body, endpoint);
    this.name = 'RateLimitedError';
    this.retryAfterMs = retryAfterMs;
    this.reword(said('errors:platform.rateLimited', { seconds: Math.ceil(retryAfterMs / 1000) }));
  }
}

/** No answer arrived in time (the request may or may not have been carried out). */
export class TimeoutError extends CallbarError {
  constructor(endpoint: string, options: { cause?: unknown } = {}) {
    super('timeout', said('errors:platform.timeout'), {
      ...options,
      details: `No answer to ${endpoint} within the time limit.`,
    });
    this.name = 'TimeoutError';
  }
}

/** The platform could not be reached, or the connection broke before an answer. */
export class NetworkError extends CallbarError {
  /** What happened, in a few words ("connection refused"), worded in the reader's language. */
  readonly detail: string | Said;

  constructor(endpoint: string, detail: string | Said, options: { cause?: unknown } = {}) {
    super('network', said('errors:platform.network', { detail }), {
      ...options,
      details: `No answer from ${endpoint}: ${typeof detail === 'string' ? detail : inEnglish(detail)}.`,
    });
    this.name = 'NetworkError';
    this.detail = detail;
  }
}

/**
 * The platform answered with a redirect Callbar does not follow: to another server (it would carry
 * the request, and hand back that server's answer as the platform's), any redirect of a write or
 * of the token endpoint, or too many in a row. Nothing was sent to where it points.
 */
export class RedirectError extends CallbarError {
  /** The origin the redirect pointed to (null: no valid address). */
  readonly to: string | null;
  constructor(endpoint: string, from: string, target: URL | undefined) {
    super('redirected', redirectMessage(endpoint, new URL(from).origin, target));
    this.name = 'RedirectError';
    this.to = target?.origin ?? null;
  }
}

function redirectMessage(endpoint: string, origin: string, target: URL | undefined): Said {
  if (!target) return said('errors:platformAnswer.redirectNowhere', { endpoint });
  if (target.origin !== origin) {
    return said('errors:platformAnswer.redirectElsewhere', {
      endpoint,
      target: target.origin.slice(0, 200),
      origin,
    });
  }
  return said('errors:platformAnswer.redirectRefused', {
    endpoint,
    path: target.pathname.slice(0, 200),
  });
}

/** The platform answered outside the contract. */
export class ProtocolError extends CallbarError {
  readonly endpoint: string;
  readonly path: string | undefined;
  constructor(endpoint: string, problem: string, path?: string) {
    super(
      'protocol',
      path
        ? said('errors:platformAnswer.unexpectedField', { endpoint, path, problem })
        : said('errors:platformAnswer.unexpected', { endpoint, problem }),
    );
    this.name = 'ProtocolError';
    this.endpoint = endpoint;
    this.path = path;
  }
}

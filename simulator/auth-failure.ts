/**
 * How the REST API answers a request whose token it does not take (none, unknown, expired,
 * revoked). The contract's platform answers 401 with a `WWW-Authenticate: Bearer` challenge. A
 * Django REST framework platform whose authentication class sends no challenge answers 403
 * instead, with the same error body: DRF's `not_authenticated` / `authentication_failed`, or
 * simplejwt's `token_not_valid`. A client must refresh on those as on a 401.
 * - 'challenge' (default): 401, `not_authenticated` without a token, `authentication_failed` else;
 * - '403-<code>': 403 without `WWW-Authenticate`, that code for every token it does not take.
 */
import { clientError, type ApiError } from './drf-errors';

export const AUTH_FAILURE_ANSWERS = [
  'challenge',
  '403-not_authenticated',
  '403-authentication_failed',
  '403-token_not_valid',
] as const;
export type AuthFailureAnswer = (typeof AUTH_FAILURE_ANSWERS)[number];

/** Why the request is not authenticated. */
export type AuthFailureReason = 'missing' | 'expired' | 'invalid';

const DETAILS: Record<AuthFailureReason, string> = {
  missing: 'Authentication credentials were not provided.',
  expired: 'Token has expired.',
  invalid: 'Invalid token.',
};

/** The error the API throws for `reason`, as `answer` words it. */
export function authFailure(answer: AuthFailureAnswer, reason: AuthFailureReason): ApiError {
  const detail = DETAILS[reason];
  if (answer !== 'challenge') return clientError(403, answer.slice('403-'.length), detail);
  if (reason === 'missing') {
    return clientError(401, 'not_authenticated', detail, {
      'www-authenticate': 'Bearer realm="api"',
    });
  }
  return clientError(401, 'authentication_failed', detail, {
    'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${detail}"`,
  });
}

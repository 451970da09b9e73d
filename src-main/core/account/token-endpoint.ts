import { z } from 'zod';
import { readAnswerText } from '../api/answer-body';
import { ProtocolError, TimeoutError, type RedirectError } from '../api/api-errors';
import { platformFetch, refusedRedirect } from '../api/platform-fetch';
import { errorMessage } from '../errors';
import { directoryUrl } from '../http/directory-url';
import { unavailableStatus, type OutageWatch } from '../http/outage-watch';
import { said } from '../text/said';

const ENDPOINT = 'POST /v3/oauth/token/';

/** The largest token answer read (the contract's four fields take well under 1 KiB). */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/** The token endpoint's success body (contract 4.1); unknown fields are ignored. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  token_type: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

const OAuthError = z.looseObject({ error: z.string() });

export type RefreshOutcome =
  | { kind: 'ok'; tokens: TokenResponse }
  /** The refresh token is spent or revoked: only a new activation helps. */
  | { kind: 'invalid_grant' }
  /** The platform refused the integrator's client_id / client_secret. */
  | { kind: 'invalid_client' }
  /** Nothing conclusive happened (network, timeout, 5xx, 429): try again later. */
  | { kind: 'transient'; reason: string }
  /**
   * A redirect, never followed: the refresh token and client secret went to the platform only,
   * which did not spend the refresh token (it did not answer with a new pair).
   */
  | { kind: 'redirected'; error: RedirectError }
  /** An answer outside the contract. */
  | { kind: 'unexpected'; reason: string };

export interface RefreshRequest {
  baseUrl: string;
  refreshToken: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Told whether the platform answered (any answer but an unavailable one) or not. */
  reach?: OutageWatch | undefined;
}

/**
 * One POST {base_url}/v3/oauth/token/ (form-encoded, as the contract declares), never following a
 * redirect (it would carry the refresh token and client secret to wherever it points). Never throws.
 */
export async function requestRefresh(request: RefreshRequest): Promise<RefreshOutcome> {
  let response: Response;
  try {
    // ky loads on the first refresh, not with the account: importing it builds a Request to probe
    // fetch (loading undici), which a `callbar status` would pay for nothing (see bench/).
    const { default: ky } = await import('ky');
    response = await ky.post(new URL('v3/oauth/token/', directoryUrl(request.baseUrl)), {
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: request.refreshToken,
        client_id: request.clientId,
        client_secret: request.clientSecret,
      }),
      headers: { accept: 'application/json' },
      fetch: platformFetch,
      retry: 0,
      timeout: request.timeoutMs,
      throwHttpErrors: false,
    });
  } catch (error) {
    request.reach?.failed(errorMessage(error));
    return { kind: 'transient', reason: errorMessage(error) };
  }
  if (unavailableStatus(response.status)) {
    request.reach?.failed(said('errors:network.answered', { status: response.status }));
  } else request.reach?.answered();
  const redirect = await refusedRedirect(response, ENDPOINT);
  if (redirect) return { kind: 'redirected', error: redirect };
  if (response.status === 429 || response.status >= 500) {
    return { kind: 'transient', reason: `the platform answered ${response.status}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(await readAnswerText(response, ENDPOINT, MAX_TOKEN_ANSWER_BYTES));
  } catch (error) {
    if (error instanceof TimeoutError) return { kind: 'transient', reason: error.message };
    if (error instanceof ProtocolError)
      return { kind: 'unexpected', reason: 'the answer is too large' };
    return { kind: 'unexpected', reason: `status ${response.status} with a body that is not JSON` };
  }
  if (response.ok) {
    const tokens = TokenResponse.safeParse(body);
    return tokens.success
      ? { kind: 'ok', tokens: tokens.data }
      : { kind: 'unexpected', reason: 'the token response lacks a field the contract requires' };
  }
  const error = OAuthError.safeParse(body);
  if (error.success && error.data.error === 'invalid_grant') return { kind: 'invalid_grant' };
  if (error.success && error.data.error === 'invalid_client') return { kind: 'invalid_client' };
  return { kind: 'unexpected', reason: `the platform answered ${response.status}` };
}

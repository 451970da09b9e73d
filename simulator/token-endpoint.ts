/**
 * POST /v3/oauth/token/ (contract 4.1), as django-oauth-toolkit/oauthlib answer it. Accepts
 * form-encoded and JSON bodies (also a JSON body sent with the form content type, as the
 * contract's examples do), client credentials in the body or as HTTP Basic. Checks in
 * oauthlib's order: grant type (400 unsupported_grant_type), refresh token present (400
 * invalid_request), client (401 invalid_client), refresh token valid and unused (400
 * invalid_grant). Success: 200 {access_token, expires_in: 86400, token_type, refresh_token}, plus
 * DOT's `scope` unless the profile gives only the contract's fields.
 */
import {
  isFormMediaType,
  isJsonMediaType,
  isPlainObject,
  jsonResponse,
  mediaType,
  type SimRequest,
  type SimResponse,
} from './http';
import { methodNotAllowed } from './drf-errors';
import type { Platform } from './platform';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(status: number, error: string, description?: string): SimResponse {
  return jsonResponse(
    status,
    description ? { error, error_description: description } : { error },
    NO_STORE,
  );
}

function jsonFields(text: string): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' || typeof value === 'number') result[key] = String(value);
  }
  return result;
}

/**
 * The request's fields: a JSON body, or a form body — where a form-typed (or untyped) body that
 * is a JSON object is read as JSON, as the contract's published examples send it (4.1: "a
 * builder should accept both encodings").
 */
function fields(request: SimRequest): Record<string, string> | undefined {
  const type = mediaType(request.headers);
  const text = request.body.toString('utf8');
  if (isJsonMediaType(type)) return jsonFields(text);
  if (type !== undefined && !isFormMediaType(type)) return {};
  if (text.trimStart().startsWith('{')) {
    const json = jsonFields(text);
    if (json) return json;
  }
  const result: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) if (!(key in result)) result[key] = value;
  return result;
}

function basicCredentials(request: SimRequest): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

export function handleTokenRequest(platform: Platform, request: SimRequest): SimResponse {
  if (request.method !== 'POST') return methodNotAllowed(request.method, ['POST']).toResponse();
  const body = fields(request);
  if (!body) return oauthError(400, 'invalid_request', 'The request body is not valid JSON.');
  if (body.grant_type !== 'refresh_token') return oauthError(400, 'unsupported_grant_type');
  if (!body.refresh_token)
    return oauthError(400, 'invalid_request', 'Missing refresh token parameter.');
  const client = basicCredentials(request) ?? { id: body.client_id, secret: body.client_secret };
  if (client.id !== platform.clientId || client.secret !== platform.clientSecret) {
    return oauthError(401, 'invalid_client');
  }
  const pair = platform.tokens.rotate(body.refresh_token);
  if (!pair) return oauthError(400, 'invalid_grant');
  if (platform.config.tokenAnswerScope) return jsonResponse(200, pair, NO_STORE);
  const { access_token, expires_in, token_type, refresh_token } = pair;
  return jsonResponse(200, { access_token, expires_in, token_type, refresh_token }, NO_STORE);
}

/**
 * The REST API under /v3/, dispatched in the order a DRF view works: URL resolution (unknown
 * path, including a path without its trailing slash → 404), authentication (401, or 403 as
 * `config.authFailure` says: auth-failure.ts), throttling of
 * the route's scope (429), method (405), then the handler; its ApiError becomes the DRF body.
 */
import { authFailure } from './auth-failure';
import { handleCallControl } from './call-control';
import {
  bulkDeleteContacts,
  createContact,
  deleteContact,
  listContacts,
  retrieveContact,
  updateContact,
} from './contacts';
import { ApiError, errorBody, methodNotAllowed, notFound, serverError } from './drf-errors';
import { bearerToken, jsonResponse, type SimRequest, type SimResponse } from './http';
import type { RateScope } from './options';
import {
  createPhonebook,
  deletePhonebook,
  listPhonebooks,
  retrievePhonebook,
  updatePhonebook,
} from './phonebooks';
import type { Platform } from './platform';
import { handleTokenRequest } from './token-endpoint';
import type { RestContext } from './rest-context';
import type { User } from './world';

type Handler = (context: RestContext) => SimResponse;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Route {
  name: string;
  pattern: RegExp;
  scope: RateScope;
  methods: Partial<Record<Method, Handler>>;
}

const ID = '(?<id>[^/]+)';

const ROUTES: Route[] = [
  {
    name: 'Phonebook List',
    pattern: /^\/v3\/phonebook\/phonebook\/$/,
    scope: 'phonebook',
    methods: { GET: listPhonebooks, POST: createPhonebook },
  },
  {
    name: 'Phonebook Instance',
    pattern: new RegExp(`^/v3/phonebook/phonebook/${ID}/$`),
    scope: 'phonebook',
    methods: { GET: retrievePhonebook, PUT: updatePhonebook, DELETE: deletePhonebook },
  },
  {
    name: 'Phonebook Contact Bulk Delete',
    pattern: /^\/v3\/phonebook\/contact\/bulk_delete\/$/,
    scope: 'phonebook',
    methods: { DELETE: bulkDeleteContacts },
  },
  {
    name: 'Phonebook Contact List',
    pattern: /^\/v3\/phonebook\/contact\/$/,
    scope: 'phonebook',
    methods: { GET: listContacts, POST: createContact },
  },
  {
    name: 'Phonebook Contact Instance',
    pattern: new RegExp(`^/v3/phonebook/contact/${ID}/$`),
    scope: 'phonebook',
    methods: { GET: retrieveContact, PUT: updateContact, DELETE: deleteContact },
  },
  {
    name: 'Call Control',
    pattern: /^\/v3\/call_control\/$/,
    scope: 'call-control',
    methods: { POST: handleCallControl },
  },
];

export const TOKEN_PATH = '/v3/oauth/token/';

/** The rate-limit or log scope of a platform path. */
export function scopeOfPath(
  path: string,
): 'phonebook' | 'call-control' | 'token' | 'portal' | null {
  if (path === TOKEN_PATH) return 'token';
  if (path.startsWith('/v3/phonebook/')) return 'phonebook';
  if (path.startsWith('/v3/call_control/')) return 'call-control';
  if (path === '/portal' || path.startsWith('/portal/')) return 'portal';
  return null;
}

function authenticate(platform: Platform, request: SimRequest): User {
  const token = bearerToken(request.headers);
  if (token === undefined) throw authFailure(platform.config.authFailure, 'missing');
  const result = platform.tokens.authenticate(token);
  const user = result.ok
    ? platform.world.userByExtension(result.owner.tenantId, result.owner.extension)
    : undefined;
  if (!user) {
    const reason = !result.ok && result.reason === 'expired' ? 'expired' : 'invalid';
    throw authFailure(platform.config.authFailure, reason);
  }
  return user;
}

function throttle(platform: Platform, scope: RateScope, user: User): void {
  const decision = platform.rateLimiter.check(scope, `${user.tenantId}|${user.extension}`);
  if (decision.allowed) return;
  const seconds = Math.max(1, Math.ceil(decision.waitSeconds));
  throw new ApiError(
    429,
    errorBody(
      'client_error',
      'throttled',
      `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    ),
    { 'retry-after': String(seconds) },
  );
}

export function handleRest(platform: Platform, request: SimRequest): SimResponse {
  if (request.path === TOKEN_PATH) return handleTokenRequest(platform, request);
  try {
    let route: Route | undefined;
    let params: Record<string, string> = {};
    for (const candidate of ROUTES) {
      const match = candidate.pattern.exec(request.path);
      if (!match) continue;
      route = candidate;
      params = { ...match.groups };
      break;
    }
    if (!route) throw notFound();
    const user = authenticate(platform, request);
    throttle(platform, route.scope, user);
    const allowed = Object.keys(route.methods) as Method[];
    if (request.method === 'OPTIONS') {
      return jsonResponse(
        200,
        {
          name: route.name,
          description: '',
          renders: ['application/json'],
          parses: ['application/json'],
        },
        { allow: [...allowed, 'OPTIONS'].join(', ') },
      );
    }
    const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
    const handler = route.methods[method];
    if (!handler) throw methodNotAllowed(request.method, [...allowed, 'OPTIONS']);
    const response = handler({ platform, request, user, params });
    if (!platform.config.rateLimitPolicyHeader) return response;
    const { limit, window_seconds } = platform.rateLimiter.current()[route.scope];
    return {
      ...response,
      headers: { ...response.headers, 'ratelimit-policy': `${limit};w=${window_seconds}` },
    };
  } catch (error) {
    if (error instanceof ApiError) return error.toResponse();
    platform.log(
      `internal error on ${request.method} ${request.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return serverError().toResponse();
  }
}

/**
 * The user-facing portal (contract 3, 4.2, 4.3):
 * GET {portal_url}/integrations/{slug}/activate?confirmation_key&tenant_{param}&redirect_url
 * asks for a login first (cookie session, redirect to /portal/login/?next=…), then shows a consent
 * page with Subscribe and Unsubscribe. Subscribe issues fresh tokens for the signed-in user and
 * POSTs {tenant_id, user_extension, confirmation_key, access_token, refresh_token} to the
 * Activation URL; only an HTTP 200 answer makes the integration active (metadata from
 * tenant_{param} stored at the first activation only, tenant_id ignored) and redirects the browser
 * (303) to redirect_url; otherwise the page shows the failure (502) and the issued tokens are
 * revoked. Unsubscribe POSTs the same body with empty tokens to the Deactivation URL; a 200
 * deactivates the integration and revokes the tokens it issued to the user (another
 * integration's tokens for the same user stay valid). Forms carry a CSRF token.
 */
import { randomBytes } from 'node:crypto';
import {
  cookieValue,
  htmlResponse,
  isFormMediaType,
  mediaType,
  redirectResponse,
  type SimRequest,
  type SimResponse,
} from './http';
import { isValidSlug, type Registration } from './integrations';
import { postToIntegrator } from './outbound';
import type { Platform } from './platform';
import { consentPage, loginPage, messagePage } from './portal-pages';
import type { User } from './world';

const SESSION_COOKIE = 'portal_sessionid';
const CSRF_COOKIE = 'portal_csrftoken';

interface ActivationLink {
  slug: string;
  registration: Registration;
  confirmationKey: string;
  redirectUrl: string;
  metadata: Record<string, string>;
}

function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

function badRequest(message: string): SimResponse {
  return htmlResponse(400, messagePage('Bad request', message));
}

function formFields(request: SimRequest): URLSearchParams {
  return isFormMediaType(mediaType(request.headers))
    ? new URLSearchParams(request.body.toString('utf8'))
    : new URLSearchParams();
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A local path to go back to after login; anything else falls back to the portal root. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/portal/') && !next.startsWith('//') && !next.includes('\\')
    ? next
    : '/portal/';
}

export class Portal {
  private readonly sessions = new Map<string, number>();

  constructor(private readonly platform: Platform) {}

  async handle(request: SimRequest): Promise<SimResponse> {
    const path = request.path;
    if (path === '/portal' || path === '/portal/') return this.home(request);
    if (path === '/portal/login/') {
      if (request.method === 'POST') return this.login(request);
      if (request.method === 'GET' || request.method === 'HEAD') return this.loginForm(request);
      return this.methodNotAllowed(['GET', 'POST']);
    }
    if (path === '/portal/logout/') {
      if (request.method !== 'POST') return this.methodNotAllowed(['POST']);
      return this.logout(request);
    }
    const match = /^\/portal\/integrations\/([^/]+)\/activate$/.exec(path);
    if (match?.[1] !== undefined) {
      if (request.method === 'GET' || request.method === 'HEAD')
        return this.consent(request, match[1]);
      if (request.method === 'POST') return this.act(request, match[1]);
      return this.methodNotAllowed(['GET', 'POST']);
    }
    return htmlResponse(
      404,
      messagePage('Not found', 'The requested page was not found on this portal.'),
    );
  }

  private methodNotAllowed(allowed: string[]): SimResponse {
    return htmlResponse(
      405,
      messagePage('Method not allowed', 'This page does not accept that method.'),
      {
        allow: allowed.join(', '),
      },
    );
  }

  private user(request: SimRequest): User | undefined {
    const session = cookieValue(request.headers, SESSION_COOKIE);
    const userId = session === undefined ? undefined : this.sessions.get(session);
    return userId === undefined ? undefined : this.platform.world.userById(userId);
  }

  /** The CSRF token of this browser, and the Set-Cookie header if it had none yet. */
  private csrf(request: SimRequest): { token: string; headers: Record<string, string> } {
    const existing = cookieValue(request.headers, CSRF_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{16,}$/.test(existing)) return { token: existing, headers: {} };
    const token = newSecret();
    return {
      token,
      headers: { 'set-cookie': `${CSRF_COOKIE}=${token}; Path=/portal; SameSite=Lax` },
    };
  }

  private csrfValid(request: SimRequest, fields: URLSearchParams): boolean {
    const cookie = cookieValue(request.headers, CSRF_COOKIE);
    return (
      cookie !== undefined && cookie.length > 0 && fields.get('csrfmiddlewaretoken') === cookie
    );
  }

  private csrfFailure(): SimResponse {
    return htmlResponse(
      403,
      messagePage('Forbidden', 'CSRF verification failed. Request aborted.'),
    );
  }

  private home(request: SimRequest): SimResponse {
    const user = this.user(request);
    return htmlResponse(
      200,
      messagePage(
        'Platform portal (simulator)',
        user
          ? `Signed in as ${user.username}.`
          : 'Not signed in. Integrations send you here with an activation link.',
      ),
    );
  }

  private loginForm(request: SimRequest): SimResponse {
    const csrf = this.csrf(request);
    return htmlResponse(
      200,
      loginPage({ next: safeNext(request.query.get('next')), csrf: csrf.token }),
      csrf.headers,
    );
  }

  private login(request: SimRequest): SimResponse {
    const fields = formFields(request);
    if (!this.csrfValid(request, fields)) return this.csrfFailure();
    const next = safeNext(fields.get('next'));
    const user = this.platform.world.userByUsername(fields.get('username') ?? '');
    if (!user || user.password !== (fields.get('password') ?? '')) {
      const csrf = this.csrf(request);
      return htmlResponse(
        200,
        loginPage({
          next,
          csrf: csrf.token,
          error: 'Please enter a correct username and password.',
        }),
        csrf.headers,
      );
    }
    const session = newSecret();
    this.sessions.set(session, user.id);
    this.platform.log(`portal: ${user.username} signed in`);
    return redirectResponse(302, next, {
      'set-cookie': `${SESSION_COOKIE}=${session}; Path=/portal; HttpOnly; SameSite=Lax`,
    });
  }

  private logout(request: SimRequest): SimResponse {
    const fields = formFields(request);
    if (!this.csrfValid(request, fields)) return this.csrfFailure();
    const session = cookieValue(request.headers, SESSION_COOKIE);
    if (session !== undefined) this.sessions.delete(session);
    return redirectResponse(303, '/portal/login/', {
      'set-cookie': `${SESSION_COOKIE}=; Path=/portal; HttpOnly; SameSite=Lax; Max-Age=0`,
    });
  }

  private link(request: SimRequest, slug: string): ActivationLink | SimResponse {
    const registration = isValidSlug(slug) ? this.platform.integrations.get(slug) : undefined;
    if (!registration) return badRequest(`There is no integration "${slug}".`);
    const confirmationKey = request.query.get('confirmation_key');
    if (!confirmationKey) return badRequest('The activation link has no confirmation_key.');
    const redirectUrl = request.query.get('redirect_url');
    if (!redirectUrl) return badRequest('The activation link has no redirect_url.');
    if (!isAbsoluteHttpUrl(redirectUrl))
      return badRequest('The redirect_url of the activation link must be an absolute URL.');
    const metadata: Record<string, string> = {};
    for (const [key, value] of request.query) {
      if (!key.startsWith('tenant_') || key.length <= 'tenant_'.length) continue;
      const param = key.slice('tenant_'.length);
      if (param === 'id' || param in metadata) continue;
      metadata[param] = value;
    }
    return { slug, registration, confirmationKey, redirectUrl, metadata };
  }

  private toLogin(request: SimRequest): SimResponse {
    const next = `${request.path}${request.url.search}`;
    return redirectResponse(302, `/portal/login/?next=${encodeURIComponent(next)}`);
  }

  private consent(request: SimRequest, slug: string): SimResponse {
    const link = this.link(request, slug);
    if (!('slug' in link)) return link;
    const user = this.user(request);
    if (!user) return this.toLogin(request);
    const csrf = this.csrf(request);
    const record = this.platform.integrations.record(slug, user.tenantId, user.extension);
    return htmlResponse(
      200,
      consentPage({
        slug,
        action: `${request.path}${request.url.search}`,
        csrf: csrf.token,
        fullName: user.fullName,
        username: user.username,
        extension: user.extension,
        tenantId: user.tenantId,
        state: record?.state ?? 'not integrated',
      }),
      csrf.headers,
    );
  }

  private async act(request: SimRequest, slug: string): Promise<SimResponse> {
    const link = this.link(request, slug);
    if (!('slug' in link)) return link;
    const user = this.user(request);
    if (!user) return this.toLogin(request);
    const fields = formFields(request);
    if (!this.csrfValid(request, fields)) return this.csrfFailure();
    const action = fields.get('action');
    if (action === 'subscribe') return this.subscribe(link, user);
    if (action === 'unsubscribe') return this.unsubscribe(link, user);
    return badRequest('Choose Subscribe or Unsubscribe.');
  }

  private async callIntegrator(
    link: ActivationLink,
    user: User,
    action: 'activate' | 'deactivate',
    tokens: { access_token: string | null; refresh_token: string | null },
  ) {
    const { registration } = link;
    const fields = {
      tenant_id: user.tenantId,
      user_extension: user.extension,
      confirmation_key: link.confirmationKey,
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
    };
    const url = action === 'activate' ? registration.activation_url : registration.deactivation_url;
    // A form has no null: a token that is null is left out of it.
    const formFields = Object.entries(fields).filter(
      (entry): entry is [string, string] => entry[1] !== null,
    );
    const result = await postToIntegrator({
      url,
      body:
        registration.encoding === 'form'
          ? new URLSearchParams(formFields).toString()
          : JSON.stringify(fields),
      contentType:
        registration.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      headers: registration.extra_headers,
      signing: registration.signing,
      timeoutMs: this.platform.integratorTimeoutMs,
      signal: this.platform.signal,
    });
    const accepted = result.ok && result.status === 200;
    this.platform.integrations.noteAttempt(link.slug, {
      time: this.platform.clock.nowIso(),
      action,
      tenant_id: user.tenantId,
      user_extension: user.extension,
      url,
      status: result.ok ? result.status : null,
      outcome: accepted ? 'accepted' : result.ok ? 'refused' : 'unreachable',
      answer: result.ok ? result.text.slice(0, 2000) : result.error,
    });
    this.platform.log(
      `portal: ${action} ${link.slug} for ${user.extension}: ${result.ok ? `integrator answered ${result.status}` : result.error}`,
    );
    return { result, accepted };
  }

  private async subscribe(link: ActivationLink, user: User): Promise<SimResponse> {
    const tokens = this.platform.tokens.issue({
      tenantId: user.tenantId,
      extension: user.extension,
      integration: link.slug,
    });
    let { result, accepted } = await this.callIntegrator(link, user, 'activate', tokens);
    // A platform that retries its calls sends the same one again; each answer must be 200.
    for (let repeat = 1; accepted && repeat < this.platform.config.activationCalls; repeat++) {
      ({ result, accepted } = await this.callIntegrator(link, user, 'activate', tokens));
    }
    if (!accepted) {
      this.platform.tokens.revokePair(tokens.refresh_token);
      return this.failure('Activation failed', link, result);
    }
    this.platform.integrations.activate(
      link.slug,
      user.tenantId,
      user.extension,
      link.confirmationKey,
      link.metadata,
      this.platform.clock.nowIso(),
    );
    return redirectResponse(303, link.redirectUrl);
  }

  private async unsubscribe(link: ActivationLink, user: User): Promise<SimResponse> {
    // "Empty" tokens (contract 4.2): "", or null (left out of a form) as some platforms send.
    const empty = this.platform.config.deactivationTokens === 'null' ? null : '';
    const { result, accepted } = await this.callIntegrator(link, user, 'deactivate', {
      access_token: empty,
      refresh_token: empty,
    });
    if (!accepted) return this.failure('Deactivation failed', link, result);
    this.platform.integrations.deactivate(
      link.slug,
      user.tenantId,
      user.extension,
      this.platform.clock.nowIso(),
    );
    this.platform.tokens.revokeGrant({
      tenantId: user.tenantId,
      extension: user.extension,
      integration: link.slug,
    });
    return redirectResponse(303, link.redirectUrl);
  }

  private failure(
    title: string,
    link: ActivationLink,
    result: { ok: true; status: number; text: string } | { ok: false; error: string },
  ): SimResponse {
    const message = result.ok
      ? `The integration “${link.slug}” answered HTTP ${result.status}. Nothing was changed.`
      : `The integration “${link.slug}” could not be reached (${result.error}). Nothing was changed.`;
    return htmlResponse(
      502,
      messagePage(title, message, result.ok ? result.text.slice(0, 2000) : undefined),
    );
  }
}

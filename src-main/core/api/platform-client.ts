/**
 * The typed client for the platform's REST API (contract section 4), on ky + zod.
 *
 * - `Authorization: Bearer` comes from the TokenManager; an answer saying the token was not taken
 *   (a 401, or a DRF platform's 403 with an authentication failure's code: api-errors.ts) causes
 *   one refresh and one retry.
 * - Reads (GET) retry with exponential backoff and jitter on 408/429/5xx and network errors,
 *   honouring Retry-After, up to a bound.
 * - Writes are not retried, with one exception for PUT/DELETE: a connection that was refused
 *   provably never carried the request. POST is never retried: a click-to-dial sent twice rings
 *   twice.
 * - Every answer is parsed with the contract's schema; anything else is a ProtocolError. Its body
 *   is read with a byte cap first (answer-body.ts).
 * - Redirects: only reads follow, and only on base_url's origin (platform-fetch.ts); any other
 *   3xx is a RedirectError naming where it pointed, and its body is never used.
 */
import type * as Ky from 'ky';
import type { KyInstance, Options as KyOptions } from 'ky';
import type { z } from 'zod';
import type { AccessTokens } from './access-tokens';
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';
import { describeIssues } from '../validation-issues';
import {
  ApiError,
  isAuthenticationFailure,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  TimeoutError,
} from './api-errors';
import { readAnswerText } from './answer-body';
import { platformFetch, refusedRedirect } from './platform-fetch';
import {
  parseRatePolicy,
  RateLimitGate,
  retryAfterMs,
  type RatePolicy,
  type RateScope,
} from './rate-limit-gate';
import { ErrorBody } from './schemas';
import { unavailableStatus } from '../http/outage-watch';
import { said } from '../text/said';

export interface PlatformClientOptions {
  baseUrl: string;
  tokens: Pick<AccessTokens, 'authorized' | 'reach'>;
  log: Logger;
  timeoutMs?: number;
  /** Retries of reads: how many, and the backoff (jittered, capped). */
  retry?: { limit: number; baseDelayMs: number; maxDelayMs: number };
}

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface RequestSpec<S extends z.ZodType | undefined> {
  method: Method;
  /** Path under the base URL, without a leading slash, with its trailing slash. */
  path: string;
  scope: RateScope;
  searchParams?: Record<string, string | number | undefined>;
  json?: unknown;
  /** The success body's schema; undefined for 204 answers. */
  schema: S;
  /**
   * A success body that is empty or not JSON counts as `{}` (answers the contract does not show:
   * the status says the command was taken, whatever the body holds).
   */
  anyBodyOk?: boolean;
}

const RETRY_STATUS = [408, 429, 500, 502, 503, 504];

/** What an answer said of the rate limit: refused (429), and/or the limit it announced. */
export interface RateSignal {
  refused: boolean;
  /** A 429's Retry-After, when it had one. */
  retryAfterMs?: number;
  policy?: RatePolicy;
}

/** ky's module and the client made with it. */
interface Http {
  ky: typeof Ky;
  client: KyInstance;
}

export class PlatformClient {
  readonly #httpOptions: KyOptions;
  #http: Promise<Http> | undefined;
  readonly #tokens: Pick<AccessTokens, 'authorized' | 'reach'>;
  readonly #log: Logger;
  readonly #gate = new RateLimitGate();
  readonly #rateListeners = new Set<(scope: RateScope, signal: RateSignal) => void>();

  constructor(options: PlatformClientOptions) {
    const retry = options.retry ?? { limit: 3, baseDelayMs: 300, maxDelayMs: 5000 };
    this.#tokens = options.tokens;
    this.#log = options.log;
    this.#httpOptions = {
      prefixUrl: options.baseUrl,
      fetch: platformFetch,
      timeout: options.timeoutMs ?? 15_000,
      headers: { accept: 'application/json' },
      retry: {
        limit: retry.limit,
        methods: ['get'],
        statusCodes: RETRY_STATUS,
        afterStatusCodes: [429, 503],
        maxRetryAfter: 60_000,
        backoffLimit: retry.maxDelayMs,
        // Full jitter: a random delay up to the exponential bound.
        delay: (attempt) => Math.random() * retry.baseDelayMs * 2 ** (attempt - 1),
      },
    };
  }

  /**
   * ky and the client, loaded at the first request, not with the core: importing ky builds a
   * Request to probe fetch (loading undici, ~100 ms), which a start answering its first search
   * from the cache would pay before that answer.
   */
  #loadHttp(): Promise<Http> {
    this.#http ??= import('ky').then((ky) => ({
      ky,
      client: ky.default.create(this.#httpOptions),
    }));
    return this.#http;
  }

  /**
   * Calls `listener` at every 429 the platform answers, also those the client's own retries then
   * get past (so a pacer can learn the limit at the first one), and at every answer announcing
   * its limit (RateLimit-Policy); returns the unsubscribe.
   */
  onRateSignal(listener: (scope: RateScope, signal: RateSignal) => void): () => void {
    this.#rateListeners.add(listener);
    return () => this.#rateListeners.delete(listener);
  }

  /** One request to the platform; resolves with the parsed body or throws a CallbarError. */
  async request<S extends z.ZodType | undefined>(
    spec: RequestSpec<S>,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const endpoint = `${spec.method.toUpperCase()} /${spec.path}`;
    await this.#gate.pass(spec.scope, endpoint, spec.method === 'get');
    const response = await this.#tokens.authorized(
      (token, baseUrl) => this.#send(spec, endpoint, token, baseUrl),
      (answer) => tokenNotTaken(answer, endpoint),
    );
    const redirect = await refusedRedirect(response, endpoint);
    if (redirect) {
      this.#log.warn('platform redirected a request; not followed', { endpoint, to: redirect.to });
      throw redirect;
    }
    if (response.status === 429) {
      const wait = retryAfterMs(response.headers.get('retry-after'));
      this.#gate.block(spec.scope, wait);
      throw new RateLimitedError(await errorBody(response, endpoint), endpoint, wait);
    }
    if (!response.ok) {
      const error = new ApiError(response.status, await errorBody(response, endpoint), endpoint);
      this.#log.warn('platform refused a request', {
        endpoint,
        status: response.status,
        code: error.code,
      });
      throw error;
    }
    if (!spec.schema) return undefined as never;
    const text = await readAnswerText(response, endpoint);
    let raw: unknown;
    try {
      raw = text.trim() === '' && spec.anyBodyOk ? {} : JSON.parse(text);
    } catch {
      if (!spec.anyBodyOk) throw new ProtocolError(endpoint, 'the body is not JSON');
      raw = {};
    }
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success) {
      const { path } = describeIssues(parsed.error);
      throw new ProtocolError(endpoint, parsed.error.issues[0]?.message ?? 'invalid', path);
    }
    return parsed.data as never;
  }

  /** Tells the rate listeners of a 429 or an announced limit (RateLimit-Policy). */
  #observeRate(scope: RateScope, response: Response): void {
    const policy = parseRatePolicy(response.headers.get('ratelimit-policy'));
    if (response.status !== 429 && !policy) return;
    const retryAfter = response.headers.get('retry-after');
    const signal: RateSignal = {
      refused: response.status === 429,
      ...(response.status === 429 && retryAfter ? { retryAfterMs: retryAfterMs(retryAfter) } : {}),
      ...(policy ? { policy } : {}),
    };
    for (const listener of this.#rateListeners) listener(scope, signal);
  }

  async #send<S extends z.ZodType | undefined>(
    spec: RequestSpec<S>,
    endpoint: string,
    token: string,
    baseUrl: string,
  ): Promise<Response> {
    const searchParams = Object.fromEntries(
      Object.entries(spec.searchParams ?? {}).filter(([, value]) => value !== undefined),
    ) as Record<string, string | number>;
    const { ky, client } = await this.#loadHttp();
    const reach = this.#tokens.reach;
    const send = () =>
      client(spec.path, {
        // The platform that issued the token, never another (the TokenManager checked that it is
        // the one the settings name).
        prefixUrl: baseUrl,
        method: spec.method,
        headers: { authorization: `Bearer ${token}` },
        searchParams,
        ...(spec.json === undefined ? {} : { json: spec.json }),
        // Every answer, the ones ky's own retries send again included, seen without a clone (a
        // cloned body left unread would keep a refused answer's connection open).
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const response = await platformFetch(input, init);
          this.#observeRate(spec.scope, response);
          // Any answer shows the platform there (a 502/503/504 is counted once ky gave up).
          if (!unavailableStatus(response.status)) this.#tokens.reach?.answered();
          return response;
        },
      });
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (error instanceof ky.HTTPError) {
          const { status } = error.response;
          if (unavailableStatus(status)) reach?.failed(said('errors:network.answered', { status }));
          return error.response;
        }
        if (error instanceof ky.TimeoutError) {
          reach?.failed(said('errors:network.noAnswerInTime'));
          throw new TimeoutError(endpoint, { cause: error });
        }
        // A refused connection carried nothing: the one case where a write is sent again, once.
        const resend =
          attempt === 1 &&
          isConnectionRefused(error) &&
          (spec.method === 'put' || spec.method === 'delete');
        if (resend) continue;
        const failure = networkError(endpoint, error);
        // A request Callbar itself abandoned (a sync cancelled) says nothing of the platform.
        if (!isAbort(error) && failure instanceof NetworkError) reach?.failed(failure.detail);
        throw failure;
      }
    }
  }
}

/**
 * Whether `response` says the token was not taken. A 403's body tells an authentication failure
 * from a refusal; it is read from a copy, so the answer stays whole for whoever uses it next.
 */
async function tokenNotTaken(response: Response, endpoint: string): Promise<boolean> {
  if (response.status !== 403) return response.status === 401;
  return isAuthenticationFailure(403, await errorBody(response.clone(), endpoint));
}

/** The structured error body, if the answer has one (read with the same cap as any answer). */
async function errorBody(response: Response, endpoint: string): Promise<ErrorBody | undefined> {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(await readAnswerText(response, endpoint)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function isConnectionRefused(error: unknown): boolean {
  return causeCode(error) === 'ECONNREFUSED';
}

export function networkError(endpoint: string, error: unknown): CallbarError {
  if (error instanceof CallbarError) return error;
  const code = causeCode(error);
  // What happened, in the reader's words where it is one of these (else as the system said it).
  const detail =
    code === 'ECONNREFUSED'
      ? said('errors:network.refused')
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
        ? said('errors:network.broke')
        : code === 'ENOTFOUND'
          ? said('errors:network.unknownHost')
          : error instanceof Error
            ? error.message
            : String(error);
  return new NetworkError(endpoint, detail, { cause: error });
}

/**
 * The fetch every request to the platform goes through (the API client's ky instance and the
 * token refresh): it never lets fetch follow a redirect by itself, since fetch would carry the
 * request (the refresh token and client secret in a token request's body; the data a page asks
 * for) to wherever the platform points, and hand back the other server's answer as if it were the
 * platform's. Reads (GET) follow up to MAX_REDIRECTS redirects that stay on the request's origin (a
 * platform may move a path, e.g. add a trailing slash); any other redirect is answered as it is,
 * a 3xx, which the caller turns into a RedirectError naming where it pointed (`refusedRedirect`).
 */
import { RedirectError } from './api-errors';

/** Same-origin redirects one read follows before its 3xx is refused. */
export const MAX_REDIRECTS = 5;

/** The statuses fetch would follow. */
export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Where a redirect answer points (its Location resolved against the request), if anywhere. */
export function redirectTarget(response: Response, requestUrl: string): URL | undefined {
  const location = response.headers.get('location');
  if (location === null || !URL.canParse(location, requestUrl)) return undefined;
  return new URL(location, requestUrl);
}

/**
 * The RedirectError for a redirect answer `platformFetch` handed back (its body discarded, never
 * read), or undefined when `response` is not a redirect.
 */
export async function refusedRedirect(
  response: Response,
  endpoint: string,
): Promise<RedirectError | undefined> {
  if (!isRedirect(response.status)) return undefined;
  await response.body?.cancel().catch(() => undefined);
  return new RedirectError(endpoint, response.url, redirectTarget(response, response.url));
}

/** fetch(input, init) that follows only same-origin redirects of reads (see the module). */
export async function platformFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  // ky hands over a Request and, in `init`, what a Request cannot hold.
  let request = input instanceof Request ? input : new Request(input, init);
  const options: RequestInit = input instanceof Request ? { ...init } : {};
  for (let hops = 0; ; hops++) {
    const response = await fetch(request, { ...options, redirect: 'manual' });
    if (!isRedirect(response.status) || request.method !== 'GET' || hops >= MAX_REDIRECTS) {
      return response;
    }
    const target = redirectTarget(response, request.url);
    if (!target || target.origin !== new URL(request.url).origin) return response;
    await response.body?.cancel().catch(() => undefined);
    request = new Request(target, {
      method: 'GET',
      headers: request.headers,
      signal: request.signal,
      redirect: 'manual',
    });
  }
}

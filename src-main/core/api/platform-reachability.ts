/**
 * Whether the platform is there at all: one request to an address of it, any HTTP answer counts,
 * with a short deadline and no retries; but the portal's address answering 404 is a wrong address
 * (a link under it would 404 too). `callbar activate` asks before it prints a portal link nobody
 * could use, and `callbar status --check` reports it.
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { TimeoutError } from './api-errors';
import { networkError } from './platform-client';

export const REACHABILITY_TIMEOUT_MS = 5000;

/**
 * The HTTP status `url` answered; throws a NetworkError or TimeoutError naming `what` when it did
 * not answer.
 */
export async function reachPlatform(
  url: string,
  what: string,
  timeoutMs = REACHABILITY_TIMEOUT_MS,
): Promise<number> {
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new TimeoutError(what, { cause: error });
    throw networkError(what, error);
  }
}

/**
 * Resolves when the portal at `portalUrl` answered other than 404; throws as {@link reachPlatform}
 * does when it did not answer, and a CallbarError `portal_not_found` when it answered 404.
 */
export async function reachPortal(
  portalUrl: string,
  timeoutMs = REACHABILITY_TIMEOUT_MS,
): Promise<void> {
  if ((await reachPlatform(portalUrl, portalUrl, timeoutMs)) !== 404) return;
  throw new CallbarError('portal_not_found', said('errors:platform.portalNotFound'), {
    details: `${portalUrl} answered 404 (not found).`,
  });
}

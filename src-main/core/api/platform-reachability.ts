/**
 * Whether the platform is there at all: one request to an address of it, any HTTP answer counts,
 * with a short deadline and no retries. `callbar activate` asks before it prints a portal link
 * nobody could use, and `callbar status --check` reports it.
 */
import { TimeoutError } from './api-errors';
import { networkError } from './platform-client';

export const REACHABILITY_TIMEOUT_MS = 5000;

/** Resolves when `url` answered; throws a NetworkError or TimeoutError naming `what` otherwise. */
export async function reachPlatform(
  url: string,
  what: string,
  timeoutMs = REACHABILITY_TIMEOUT_MS,
): Promise<void> {
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new TimeoutError(what, { cause: error });
    throw networkError(what, error);
  }
}

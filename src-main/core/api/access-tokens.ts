/**
 * What the platform client needs of the session, supplied by the account floor (its
 * TokenManager): a token for each request, refreshed once when the platform does not take it, and
 * who the session is for (call control acts for that user).
 */
import type { OutageWatch } from '../http/outage-watch';

export interface AccessTokens {
  /**
   * Runs `send` with a token and the base URL of the platform that issued it (the only place it
   * may go); when `isRejected` says the platform did not take the token, refreshes once and runs
   * it once more.
   */
  authorized<T>(
    send: (token: string, baseUrl: string) => Promise<T>,
    isRejected: (result: T) => boolean | Promise<boolean>,
  ): Promise<T>;
  /**
   * Told of each request's fate: answered, or not (refused, broken, timed out, 502/503/504), so
   * the account can say the platform is away from the requests Callbar makes anyway.
   */
  readonly reach?: OutageWatch;
  /** The session's user, or undefined without a session. */
  readonly session: { readonly tenant_id: string; readonly user_extension: string } | undefined;
}
